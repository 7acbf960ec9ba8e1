package e2e

import (
	"os"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// In --approval-mode auto-edit Qwen Code approves its edit tools itself:
// PreToolUse still runs first, and a write of a claimed file is denied,
// the reason read by the model.
func TestQwenAutoEditStillGuarded(t *testing.T) {
	w := newQwenLucid(t)
	w.run("lucid", "claim", "src/**", "--for", "rework auth") // a person's claim
	target := w.path("src/new.go")
	srv := cc.New(&cc.Script{Name: "lead", Marker: "[[qwen-auto-edit]]", Steps: []cc.Step{
		cc.WriteFile(target, "package changed\n"),
		cc.Say("Done."),
	}})
	defer srv.Close()
	w.approval = "auto-edit"
	w.qwen(srv, "[[qwen-auto-edit]] Edit the auth code.")
	if _, err := os.Stat(target); err == nil {
		t.Fatal("a write of a claimed file went through in auto-edit")
	}
	if res, _ := srv.Conversation("lead")[1].Chat.LastToolResult(); !strings.HasPrefix(res.Text(), "lucid: src/new.go is claimed by human") {
		t.Errorf("the deny reason did not reach the model: %q", res.Text())
	}
}
