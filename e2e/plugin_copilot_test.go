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
	// In a folder Copilot trusts, as most are (see
	// TestCopilotPluginInUntrustedFolder for the others).
	e.write(w.home+"/config.json", `{"trustedFolders": [`+strconv.Quote(e.repo)+`]}`+"\n")
	installCopilotPlugin(t, w)
	editUnderClaim(t, w)
}

// Where a teammate ran lucid init --client copilot, the project's hook file
// and the plugin's are both loaded: each event still runs lucid once, and
// the model reads one digest and one denial.
func TestCopilotPluginBesideProjectHooks(t *testing.T) {
	w := newCopilotLucid(t, false)
	installCopilotPlugin(t, w)
	editUnderClaim(t, w)
	project, plugin := copilotPluginCalls(t, w)
	// Copilot runs no hook after one that denied: the plugin's
	// preToolUse never ran, so it is left out here.
	for _, ev := range []string{"sessionStart", "userPromptSubmitted", "agentStop", "sessionEnd"} {
		if project[ev] == 0 || plugin[ev] != project[ev] {
			t.Errorf("%s: the project's hook ran %d times, the plugin's %d: want both, as often\n%s", ev, project[ev], plugin[ev], w.callsText())
		}
	}
}

// copilotPluginCalls counts the calls of lucid's hooks by event: the
// project's (lucid hook --client copilot EVENT) and the plugin's (with
// --user), each of which must have stood aside (answered nothing).
func copilotPluginCalls(t *testing.T, w *copilotWorld) (project, plugin map[string]int) {
	t.Helper()
	project, plugin = map[string]int{}, map[string]int{}
	for _, c := range w.calls() {
		switch {
		case len(c.Args) == 4 && c.Args[0] == "hook" && c.Args[1] == "--client" && c.Args[2] == "copilot":
			project[c.Args[3]]++
		case len(c.Args) == 5 && c.Args[0] == "hook" && c.Args[1] == "--client" && c.Args[2] == "copilot" && c.Args[3] == "--user":
			plugin[c.Args[4]]++
			if c.Stdout != "" || c.Stderr != "" || c.Code != 0 {
				t.Errorf("the plugin's %s hook did not stand aside: exit %d, stdout %q, stderr %q", c.Args[4], c.Code, c.Stdout, c.Stderr)
			}
		}
	}
	return project, plugin
}

// installCopilotPlugin installs lucid's plugin from this repository's
// folder, as a user does from GitHub.
func installCopilotPlugin(t *testing.T, w *copilotWorld) {
	t.Helper()
	for _, args := range [][]string{{"plugin", "marketplace", "add", repoTop(t)}, {"plugin", "install", "lucid@lucid"}} {
		cmd := exec.Command(w.bin, args...)
		cmd.Dir, cmd.Env = w.env.home, w.environ()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("copilot %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("copilot %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
	}
}

// In a folder Copilot does not trust, it skips the repository's hooks
// without a word and still runs the plugin's (seen with 1.0.102): there
// the plugin does not stand aside, and the write is denied.
func TestCopilotPluginInUntrustedFolder(t *testing.T) {
	bin := needCopilot(t)
	e := newScratch(t, t.TempDir())
	e.run("lucid", "init", "--client", "copilot")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "copilot")
	w := &copilotWorld{env: e, bin: bin, home: e.home + "/.copilot", logDir: t.TempDir()}
	installCopilotPlugin(t, w)
	editUnderClaim(t, w)
	var starts []string
	for _, c := range w.calls() {
		if len(c.Args) >= 4 && c.Args[0] == "hook" && c.Args[len(c.Args)-1] == "sessionStart" {
			starts = append(starts, strings.Join(c.Args, " "))
		}
	}
	if len(starts) != 1 || !strings.Contains(starts[0], "--user") {
		t.Errorf("sessionStart ran lucid as %q, want once, the plugin's\n%s", starts, w.callsText())
	}
}

// editUnderClaim has Copilot's model edit src/auth.go, which another agent
// claimed: the edit is denied, once, and the file is as it was.
func editUnderClaim(t *testing.T, w *copilotWorld) {
	t.Helper()
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
	if m, _ := reqs[1].Chat.LastToolResult(); strings.Count(m.Text(), "Denied by preToolUse hook: lucid: src/auth.go is claimed") != 1 {
		t.Errorf("the edit on the claim: the model read %q", m.Text())
	}
	if w.read("src/auth.go") != before {
		t.Error("src/auth.go changed under the claim")
	}
}

// An agent that writes a hook file naming lucid's hook mid-session (one
// that runs nothing, its time set back), to have the plugin stand aside,
// does not get past the claim: the plugin counts only the project's hooks
// that were there when Copilot started.
func TestCopilotPluginAgentCannotSendItAside(t *testing.T) {
	bin := needCopilot(t)
	e := bareRepo(t)
	w := &copilotWorld{env: e, bin: bin, home: e.home + "/.copilot", logDir: t.TempDir()}
	e.write(w.home+"/config.json", `{"trustedFolders": [`+strconv.Quote(e.repo)+`]}`+"\n")
	installCopilotPlugin(t, w)
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	fake := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"true lucid hook --client copilot preToolUse","matcher":"^nothing$"}]}}`
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.Bash("mkdir -p .github/hooks && printf '%s\\n' '" + fake + "' > .github/hooks/lucid.json && touch -d '2 hours ago' .github/hooks/lucid.json"),
		cc.Edit(w.path("src/auth.go"), "Login returns nil", "Login fails"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Edit the auth code.")
	if got := w.read(".github/hooks/lucid.json"); !strings.Contains(got, "^nothing$") {
		t.Fatalf("the agent's hook file was not written: %q\n%s", got, srv.Dump())
	}
	reqs := srv.Conversation("lead")
	if len(reqs) < 3 {
		t.Fatalf("want 3 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if m, _ := reqs[2].Chat.LastToolResult(); !strings.Contains(m.Text(), "src/auth.go is claimed") {
		t.Errorf("the edit on the claim: the model read %q\n%s", m.Text(), w.callsText())
	}
	if w.read("src/auth.go") != before {
		t.Error("src/auth.go changed under the claim")
	}
}
