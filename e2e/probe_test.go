package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	api "github.com/lucid-dev/lucid/internal/scriptedapi"
)

func TestProbePty(t *testing.T) {
	if os.Getenv("LUCID_E2E_PROBE") == "" {
		t.Skip("probe")
	}
	e := newEnv(t)
	e.installProbes(map[string][]probeReply{
		"TaskCompleted/alpha": {{Code: 2, Stderr: "PROBE-EXIT2: keep task 1 open"}, {Stdout: `{"decision":"block","reason":"PROBE-JSON: not yet"}`}},
		"SubagentStop/alpha":  {{Stdout: `{"decision":"block","reason":"PROBE-STOP: one more turn"}`}},
	})
	var srv *api.Server
	idle := func(name string) bool {
		for _, c := range e.probeCalls("TeammateIdle") {
			if c.str("agent_type") == name {
				return true
			}
		}
		return false
	}
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("TaskCreate", map[string]any{"subject": "alpha task", "description": "alpha does A"}),
		api.Call("TaskCreate", map[string]any{"subject": "beta task", "description": "beta does B"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "owner": "alpha"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "2", "owner": "beta"}),
		api.Call("Agent", map[string]any{"description": "alpha work", "prompt": "[[alpha]] do task 1", "name": "alpha"}),
		api.Call("Agent", map[string]any{"description": "beta work", "prompt": "[[beta]] do task 2", "name": "beta"}),
		api.Say("Team started."),
		func(*api.MessagesRequest) api.Reply {
			for !idle("beta") {
				time.Sleep(50 * time.Millisecond)
			}
			return api.Reply{Tools: []api.ToolCall{{Name: "TaskUpdate", Input: map[string]any{"taskId": "2", "status": "completed"}}}}
		},
		func(*api.MessagesRequest) api.Reply {
			for !idle("alpha") {
				time.Sleep(50 * time.Millisecond)
			}
			return api.Reply{Tools: []api.ToolCall{{Name: "SendMessage", Input: map[string]any{"to": "alpha", "summary": "more", "message": "[[wake]] more work for you"}}}}
		},
		api.Say("Lead waits."),
	}, Done: api.Say("Lead idle.")}
	alpha := &api.Script{Name: "alpha", Marker: "[[alpha]]", Steps: []api.Step{
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
		api.Call("TaskGet", map[string]any{"taskId": "1"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
		api.Call("TaskGet", map[string]any{"taskId": "1"}),
		api.Say("alpha idle"),
		api.Say("alpha really idle"),
		api.Call("TaskGet", map[string]any{"taskId": "1"}),
		api.Say("alpha woken and done"),
	}, Done: api.Say("alpha done again")}
	beta := &api.Script{Name: "beta", Marker: "[[beta]]", Steps: []api.Step{
		api.Call("TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"}),
		api.Say("beta idle"),
	}, Done: api.Say("beta done again")}
	srv = api.New(lead, alpha, beta)
	defer srv.Close()
	c := e.interactive(srv, []string{"--teammate-mode", "in-process"}, teamEnv...)
	c.send("[[lead]] run a team")
	ok := srv.Wait(90*time.Second, func(r []*api.Request) bool { return len(srv.Conversation("alpha")) >= 9 })
	t.Logf("alpha reached step 8: %v", ok)
	time.Sleep(3 * time.Second)
	c.exit()
	t.Logf("exit: %v", c.exitErr())
	t.Logf("requests:\n%s", srv.Dump())
	var b strings.Builder
	for _, cl := range e.probeCalls("") {
		b.WriteString(cl.Args[1] + " " + cl.str("agent_type") + " " + cl.str("agent_id") + " " + cl.str("tool_name") + " code=" + string(rune('0'+cl.Code)) + "\n    " + cl.Stdin + "\n")
	}
	t.Logf("probes:\n%s", b.String())
	t.Logf("screen:\n%s", tailOf(c.text(), 3000))
}
