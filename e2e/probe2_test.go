package e2e

import (
	"os"
	"os/exec"
	"testing"
	"time"

	api "github.com/lucid-dev/lucid/internal/scriptedapi"
)

func TestProbeIdle(t *testing.T) {
	if os.Getenv("LUCID_E2E_PROBE") == "" {
		t.Skip("probe")
	}
	e := newEnv(t)
	e.installProbes(map[string][]probeReply{
		"TaskCompleted/beta":  {{Code: 2, Stderr: "PROBE-IDLE-EXIT2"}},
		"TaskCompleted/alpha": {{Stdout: `{"decision":"block","reason":"PROBE-IDLE-JSON"}`}},
	})
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("TaskCreate", map[string]any{"subject": "alpha task", "description": "alpha does A"}),
		api.Call("TaskCreate", map[string]any{"subject": "beta task", "description": "beta does B"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "owner": "alpha"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "2", "owner": "beta"}),
		api.Call("Agent", map[string]any{"description": "alpha work", "prompt": "[[alpha]] do task 1", "name": "alpha"}),
		api.Call("Agent", map[string]any{"description": "beta work", "prompt": "[[beta]] do task 2", "name": "beta"}),
		api.Say("Team started."),
	}, Done: api.Say("Lead idle.")}
	alpha := &api.Script{Name: "alpha", Marker: "[[alpha]]", Steps: []api.Step{
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
		api.Say("alpha idle"),
		api.Say("alpha idle 2"),
		api.Say("alpha idle 3"),
	}, Done: api.Say("alpha done again")}
	beta := &api.Script{Name: "beta", Marker: "[[beta]]", Steps: []api.Step{
		api.Call("TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"}),
		api.Say("beta idle"),
		api.Say("beta idle 2"),
		api.Say("beta idle 3"),
	}, Done: api.Say("beta done again")}
	srv := api.New(lead, alpha, beta)
	defer srv.Close()
	c := e.interactive(srv, []string{"--teammate-mode", "in-process"}, teamEnv...)
	c.send("[[lead]] run a team")
	c.waitCalls("both idle", func() bool { return len(e.probeCalls("TeammateIdle")) >= 2 })
	time.Sleep(2 * time.Second)
	out, _ := exec.Command("find", e.home, "-path", "*tasks*").CombinedOutput()
	t.Logf("home tasks:\n%s", out)
	out, _ = exec.Command("sh", "-c", "find "+e.home+"/.claude -name '*.json' -path '*task*' | head -5 | xargs -r cat").CombinedOutput()
	t.Logf("task files:\n%s", out)
	c.exit()
}
