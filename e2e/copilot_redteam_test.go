package e2e

import (
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// A cd into a claimed folder in one bash call does not carry into the
// next (seen with 1.0.102: each call of -p gets a new shellId, in the
// session's folder), so a relative write after it lands where the payload
// says, and the claimed file is untouched.
func TestCopilotCdDoesNotCarry(t *testing.T) {
	w := newCopilotLucid(t, false)
	before := w.read("src/auth.go")
	w.run("lucid", "claim", "src/**", "--for", "the person's rework")
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-cd]]", Steps: []cc.Step{
		cc.Bash("cd src && pwd"),
		cc.Bash("pwd; echo x >> auth.go"),
		cc.Say("done"),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-cd]] Edit auth.")
	if m, ok := srv.Conversation("lead")[2].Chat.LastToolResult(); !ok || !strings.HasPrefix(m.Text(), w.repo+"\n") {
		t.Errorf("the second call ran elsewhere than the session's folder: %q", m.Text())
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim, after a cd in an earlier call:\n%s", got)
	}
}
