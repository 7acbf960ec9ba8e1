package e2e

// lucid's GitHub Copilot CLI plugin (.github/plugin/marketplace.json and
// plugins/copilot), installed the way its users install plugins: the real
// `copilot plugin marketplace add` of this repository's folder, then
// `copilot plugin install lucid@lucid`. Copilot reads
// .github/plugin/marketplace.json before .claude-plugin/marketplace.json,
// so it gets its own plugin, not Claude Code's.

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// With the plugin alone (no .github/hooks of the project's), a write into
// another agent's claim is denied.
func TestCopilotPluginGuards(t *testing.T) {
	bin := needCopilot(t)
	e := bareRepo(t)
	w := &copilotWorld{env: e, bin: bin, home: e.home + "/.copilot", logDir: t.TempDir()}
	// Copilot runs no hooks in a folder it does not trust.
	e.write(w.home+"/config.json", `{"trustedFolders": [`+strconv.Quote(e.repo)+`]}`+"\n")
	for _, args := range [][]string{{"plugin", "marketplace", "add", repoTop(t)}, {"plugin", "install", "lucid@lucid"}} {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = e.home, w.environ()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("copilot %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("copilot %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
	}
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.Edit(w.path("src/auth.go"), "Login returns nil", "Login fails"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) < 2 {
		t.Fatalf("want 2 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if m, _ := reqs[1].Chat.LastToolResult(); !strings.Contains(m.Text(), "Denied by preToolUse hook: lucid: src/auth.go is claimed") {
		t.Errorf("the edit on the claim: the model read %q", m.Text())
	}
	if w.read("src/auth.go") != before {
		t.Error("src/auth.go changed under the claim")
	}
}
