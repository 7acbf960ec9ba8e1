package e2e

// lucid's Claude Code plugin, installed the way its users install plugins:
// the real `claude plugin marketplace add` of this repository's folder and
// `claude plugin install lucid@lucid`, into the scratch HOME.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// repoTop is the folder of this repository, which holds the marketplace
// and the plugins.
func repoTop(t *testing.T) string {
	t.Helper()
	top, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// installClaudePlugin adds this repository as a marketplace and installs
// lucid's plugin from it, as a user would, in the scratch HOME.
func (e *env) installClaudePlugin() {
	e.t.Helper()
	needClaude(e.t)
	for _, args := range [][]string{
		{"plugin", "marketplace", "add", repoTop(e.t)},
		{"plugin", "install", "lucid@lucid"},
	} {
		out, err := e.output(claudeBin, args...)
		if err != nil {
			e.t.Fatalf("claude %s: %v", strings.Join(args, " "), err)
		}
		e.t.Logf("claude %s: %s", strings.Join(args, " "), strings.TrimSpace(out))
	}
	out := e.run(claudeBin, "plugin", "list")
	if !strings.Contains(out, "lucid@lucid") {
		e.t.Fatalf("claude plugin list does not list lucid@lucid:\n%s", out)
	}
}

// bareRepo is a repository with .lucid/ and no client's hooks: lucid init
// then lucid uninstall, which keeps .lucid/.
func bareRepo(t *testing.T) *env {
	t.Helper()
	e := newScratch(t, t.TempDir())
	e.run("lucid", "init")
	e.run("lucid", "uninstall")
	if _, err := os.Stat(e.path(".claude/settings.json")); err == nil {
		t.Fatalf("lucid uninstall left .claude/settings.json:\n%s", e.read(".claude/settings.json"))
	}
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "scratch")
	return e
}

// With the plugin alone (no project hooks), a session gets the digest and
// a write into another agent's claim is denied, with the model told why;
// /lucid:dream is the plugin's command.
func TestClaudePluginGuards(t *testing.T) {
	needClaude(t)
	e := bareRepo(t)
	e.installClaudePlugin()
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	before := e.read("src/auth.go")
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Write", map[string]any{"file_path": e.path("src/auth.go"), "content": "package auth // mine\n"}),
		api.Say("done"),
	}}
	srv := api.New(lead)
	defer srv.Close()
	res := e.claude(srv, "[[lead]] edit the auth code")
	reqs := srv.Conversation("lead")
	if len(reqs) == 0 {
		t.Fatalf("the lead sent no request\n%s", srv.Dump())
	}
	only(t, api.HookContexts(reqs[0].Messages.Messages), "SessionStart")
	denied(t, step(t, srv, "lead", 1), "Write", "src/auth.go is claimed by")
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed although the write was denied:\n%s", got)
	}
	if !hasSlashCommand(res, "lucid:dream") {
		t.Errorf("the session does not offer /lucid:dream: %v", initField(res, "slash_commands"))
	}
	for _, c := range e.calls() {
		if len(c.Args) > 0 && c.Args[0] == "hook" && (len(c.Args) != 3 || c.Args[1] != "--user") {
			t.Errorf("a hook call not of the plugin's: lucid %s", strings.Join(c.Args, " "))
		}
	}
}

// An agent that registers lucid's hooks in the project mid-session (a
// prompt injection's way to have the plugin stand aside, with hooks that do
// nothing, the file's time set back) does not get past the claim: Claude
// Code read the project's hooks as it started, and the plugin's count only
// the registrations that were there then.
func TestClaudePluginAgentCannotSendItAside(t *testing.T) {
	needClaude(t)
	e := bareRepo(t)
	e.installClaudePlugin()
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	before := e.read("src/auth.go")
	fake := `{"hooks":{"PreToolUse":[{"matcher":"NoSuchTool","hooks":[{"type":"command","command":"exec lucid hook PreToolUse"}]}]}}`
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "mkdir -p .claude && printf '%s\\n' '" + fake + "' > .claude/settings.local.json && touch -d '2 hours ago' .claude/settings.local.json"}),
		api.Call("Write", map[string]any{"file_path": e.path("src/auth.go"), "content": "package auth // mine\n"}),
		api.Say("done"),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] edit the auth code")
	if got := e.read(".claude/settings.local.json"); !strings.Contains(got, "NoSuchTool") {
		t.Fatalf("the agent's settings were not written: %q\n%s", got, srv.Dump())
	}
	denied(t, step(t, srv, "lead", 2), "Write", "src/auth.go is claimed by")
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s\n%s", got, e.callsText())
	}
}

// Where a teammate ran lucid init, the project's hooks and the plugin's
// are both registered: each event runs lucid's handler once, the plugin's
// standing aside (a call that answers nothing), and the model reads one
// digest and one denial.
func TestClaudePluginBesideProjectHooks(t *testing.T) {
	e := newEnv(t)
	e.installClaudePlugin()
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Write", map[string]any{"file_path": e.path("src/auth.go"), "content": "package auth // mine\n"}),
		api.Call("Write", map[string]any{"file_path": e.path("notes.md"), "content": "mine\n"}),
		api.Say("done"),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] edit the auth code and take notes")
	reqs := srv.Conversation("lead")
	if len(reqs) < 3 {
		t.Fatalf("the lead sent %d requests\n%s", len(reqs), srv.Dump())
	}
	only(t, api.HookContexts(reqs[0].Messages.Messages), "SessionStart")
	denied(t, reqs[1], "Write", "src/auth.go is claimed by")
	if _, res, _ := lastResult(reqs[2].Messages); res.IsError {
		t.Errorf("the free write was refused: %s", res.ResultText())
	}
	if n := strings.Count(reqs[1].Messages.AllText(), "src/auth.go is claimed by"); n != 1 {
		t.Errorf("the denial reached the model %d times, want once", n)
	}
	project, plugin := map[string]int{}, map[string]int{}
	var aside []float64
	for _, c := range e.calls() {
		switch {
		case len(c.Args) == 2 && c.Args[0] == "hook":
			project[c.Args[1]]++
		case len(c.Args) == 3 && c.Args[0] == "hook" && c.Args[1] == "--user":
			plugin[c.Args[2]]++
			aside = append(aside, c.Millis)
			if c.Stdout != "" || c.Stderr != "" || c.Code != 0 {
				t.Errorf("the plugin's %s hook did not stand aside: exit %d, stdout %q, stderr %q", c.Args[2], c.Code, c.Stdout, c.Stderr)
			}
		}
	}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} {
		if project[ev] == 0 || plugin[ev] != project[ev] {
			t.Errorf("%s: the project's hook ran %d times, the plugin's %d: want both, as often", ev, project[ev], plugin[ev])
		}
	}
	slices.Sort(aside)
	if len(aside) > 0 {
		t.Logf("the plugin's hooks stood aside %d times, median %.2f ms (through the e2e shim)", len(aside), aside[len(aside)/2])
	}
}

// Without lucid on PATH the plugin blocks nothing: the write goes ahead,
// and the person is told once, at the session's start, how to install
// lucid.
func TestClaudePluginWithoutLucid(t *testing.T) {
	needClaude(t)
	e := bareRepo(t)
	e.installClaudePlugin()
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Write", map[string]any{"file_path": e.path("src/auth.go"), "content": "package auth // mine\n"}),
		api.Say("done"),
	}}
	srv := api.New(lead)
	defer srv.Close()
	res := e.claude(srv, "[[lead]] edit the auth code", "PATH="+withoutLucid(t))
	if got := e.read("src/auth.go"); got != "package auth // mine\n" {
		t.Errorf("the write did not go ahead without lucid:\n%s", got)
	}
	if n := len(e.calls()); n != 0 {
		t.Errorf("lucid ran %d times although it is not on PATH", n)
	}
	const say = "no lucid binary is on PATH"
	said := 0
	for _, ev := range res.events {
		if out, _ := ev["stdout"].(string); ev["subtype"] == "hook_response" && strings.Contains(out, say) {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the session's hooks said %q %d times, want once:\n%s", say, said, clip(res.stdout, 6000))
	}
	for _, r := range srv.Conversation("lead") {
		if strings.Contains(r.Messages.AllText(), say) {
			t.Errorf("the model was told of the missing binary, meant for the person:\n%s", clip(r.Messages.AllText(), 3000))
			break
		}
	}
}

// withoutLucid is the test's PATH with no folder that holds a lucid.
func withoutLucid(t *testing.T) string {
	t.Helper()
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "lucid")); err == nil {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// initField is a field of the session's init event.
func initField(r result, key string) any {
	for _, ev := range r.events {
		if ev["type"] == "system" && ev["subtype"] == "init" {
			return ev[key]
		}
	}
	return nil
}

// hasSlashCommand reports whether the session offers the command name.
func hasSlashCommand(r result, name string) bool {
	list, _ := initField(r, "slash_commands").([]any)
	for _, c := range list {
		if c == name {
			return true
		}
	}
	return false
}
