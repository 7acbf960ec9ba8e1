package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// An agent of another session, known only by the claim it holds.
const otherAgent = "7c1d4e2a-5b6f-4a3e-9d8c-1f2e3d4c5b6a"

// claimAs makes a claim as agent, as its own lucid command would.
func (e *env) claimAs(agent, glob, task string) {
	e.t.Helper()
	if _, err := e.lucidAs(agent, "claim", glob, "--for", task); err != nil {
		e.t.Fatal(err)
	}
}

// In default and acceptEdits modes, Claude Code says nothing of what a
// shell command changed. A script that appends to another agent's claimed
// file, through a path the guard cannot read, is still caught after the
// fact: lucid watched the claimed files itself, records a violation, and
// tells the model.
func TestDefaultModesCatchScripts(t *testing.T) {
	for _, mode := range []string{"default", "acceptEdits"} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t)
			e.claimAs(otherAgent, "src/**", "rewrite auth")
			script := `python3 -c "p='src'+'/auth.go'; open(p,'a').write('// appended\n')"`
			lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
				api.Call("Bash", map[string]any{"command": script, "description": "run the generator"}),
				api.Say("done"),
			}}
			srv := api.New(lead)
			defer srv.Close()
			res, err := e.claudeRunMode(srv, "[[lead]] run it", mode, []string{"--allowedTools", "Bash"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(e.read("src/auth.go"), "// appended") {
				t.Fatalf("the script did not run in %s mode (Claude Code refused it?): %s", mode, clip(res.stdout, 2000))
			}
			after := step(t, srv, "lead", 1)
			if !strings.Contains(after.Messages.AllText(), "your command changed src/auth.go") {
				t.Errorf("in %s mode the model was not told of its violation; the request after the command:\n%s", mode, clip(after.Messages.AllText(), 3000))
			}
			found := false
			for _, en := range e.log() {
				if en.Kind == "violation" && en.Agent == res.sessionID() && strings.Contains(en.Text, "src/auth.go") {
					found = true
				}
			}
			if !found {
				t.Errorf("in %s mode no violation by the session was recorded: %+v", mode, e.log())
			}
		})
	}
}

// A session started above the work tree (in the folder that holds the
// repository) runs none of the repository's hooks: with lucid's hooks in
// the user's settings (lucid init --user), its Write and its shell write by
// path into another agent's claim are denied all the same, and the model
// reads why.
func TestSessionAboveTheWorkTree(t *testing.T) {
	e := newEnv(t)
	e.run("lucid", "init", "--user")
	if b, err := os.ReadFile(filepath.Join(e.home, ".claude", "settings.json")); err != nil || !strings.Contains(string(b), "lucid hook --user PreToolUse") {
		t.Fatalf("lucid init --user did not register the hooks in the user's settings: %v\n%s", err, b)
	}
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	before := e.read("src/auth.go")
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Write", map[string]any{"file_path": e.path("src/auth.go"), "content": "package auth // mine\n"}),
		api.Call("Bash", map[string]any{"command": "echo '// mine' >> repo/src/auth.go", "description": "append"}),
		api.Say("done"),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.runDir = filepath.Dir(e.repo)
	if _, err := e.claudeRunMode(srv, "[[lead]] edit the auth code", "bypassPermissions", nil); err != nil {
		t.Fatal(err)
	}
	denied(t, step(t, srv, "lead", 1), "Write", "src/auth.go is claimed by")
	denied(t, step(t, srv, "lead", 2), "Bash", "src/auth.go is claimed by")
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed although both writes were denied:\n%s", got)
	}
}

// An agent's git stash beside another agent's uncommitted work on a
// claimed file: git would take that work away, so lucid asks git first and
// denies it, and the work stays. The same agent's stash of its own files,
// with the log left out as lucid says, goes ahead.
func TestStashBesideClaimedWork(t *testing.T) {
	e := newEnv(t)
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	work := "package auth\n\n// the other agent's work in progress\n"
	e.write(e.path("src/auth.go"), work)
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "git stash", "description": "stash"}),
		api.Call("Bash", map[string]any{"command": "echo mine >> README.md && git stash push -- README.md", "description": "stash mine"}),
		api.Say("done"),
	}}
	srv := api.New(lead)
	defer srv.Close()
	if _, err := e.claudeRunMode(srv, "[[lead]] clean up", "default", []string{"--allowedTools", "Bash"}); err != nil {
		t.Fatal(err)
	}
	denied(t, step(t, srv, "lead", 1), "Bash", "`git stash` would change src/auth.go, which is claimed by")
	if _, res, _ := lastResult(step(t, srv, "lead", 2).Messages); res.IsError {
		t.Errorf("the stash of the lead's own file was refused: %s", res.ResultText())
	}
	if got := e.read("src/auth.go"); got != work {
		t.Errorf("the other agent's uncommitted work is gone:\n%s", got)
	}
	if out := e.run("git", "stash", "list"); strings.Count(out, "\n") != 1 {
		t.Errorf("want the one stash of README.md, got:\n%s", out)
	}
}
