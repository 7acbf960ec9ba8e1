package e2e

import (
	"os"
	"testing"

	api "github.com/lucid-dev/lucid/internal/scriptedapi"
)

func TestProbeWake(t *testing.T) {
	if os.Getenv("LUCID_E2E_PROBE") == "" {
		t.Skip("probe")
	}
	e := newEnv(t)
	ctx := func(s string) string {
		return `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"` + s + `"}}`
	}
	e.installProbes(map[string][]probeReply{
		"SubagentStart/alpha": {{Stdout: ctx("PROBE-FIRST-START")}, {Stdout: ctx("PROBE-WAKE-START"), Delay: 1500}},
	})
	var srv *api.Server
	alpha := newMate("alpha", "a", api.Say("alpha idle"), api.Call("Bash", bash("echo woken")), api.Say("alpha idle again"))
	wake := func(*api.MessagesRequest) api.Reply {
		until(t, "alpha idle", func() bool { return len(e.probeCalls("TeammateIdle")) >= 1 })
		return api.Reply{Tools: []api.ToolCall{{Name: "SendMessage", Input: map[string]any{"to": "alpha", "summary": "more", "message": "wake up"}}}}
	}
	var c *tty
	srv, c = e.team([]mate{alpha}, wake, api.Say("sent"))
	c.waitCalls("alpha idle twice", func() bool { return len(e.probeCalls("TeammateIdle")) >= 2 })
	c.exit()
	for _, r := range srv.Conversation("alpha") {
		t.Logf("alpha step %d at %s: first=%v wake=%v", r.Step, r.At.Format("15:04:05.000"),
			countIn(r, "PROBE-FIRST-START"), countIn(r, "PROBE-WAKE-START"))
	}
	for _, cl := range e.probeCalls("SubagentStart") {
		t.Logf("SubagentStart probe at %s took %.0f ms", cl.Start.Format("15:04:05.000"), cl.Millis)
	}
}

func countIn(r *api.Request, s string) int {
	n := 0
	for _, m := range r.Messages.Messages {
		for _, b := range m.Blocks() {
			if b.Type == "text" && len(b.Text) > 0 {
				for i := 0; i+len(s) <= len(b.Text); i++ {
					if b.Text[i:i+len(s)] == s {
						n++
					}
				}
			}
		}
	}
	return n
}
