package e2e

import (
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/foldfs"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// foldOwner is the agent whose claim the clients meet on a folding file
// system: signed by its id, as its own shell signs its commands.
const foldOwner = "5d1c0ffe-0000-4000-8000-000000000001"

// onFoldingFS is a repository in a folder whose names fold case as a
// Mac's or a PC's do (a FUSE mount, skipped where FUSE is missing), with
// src/auth.go claimed by foldOwner.
func onFoldingFS(t *testing.T, e *env) {
	t.Helper()
	if got := strings.TrimSpace(e.run("git", "config", "core.ignorecase")); got != "true" {
		t.Fatalf("git init on the folding mount set core.ignorecase=%q, want true", got)
	}
	if _, err := e.lucidAs(foldOwner, "claim", "src/auth.go", "--for", "rework auth"); err != nil {
		t.Fatal(err)
	}
}

// The real Claude Code, on a file system that folds case: another agent
// claims src/auth.go, and the lead's Write of SRC/Auth.go and its shell's
// append to src/AUTH.GO, the same file there, are denied, the model reading
// whose claim stops it; the file stays as it was.
func TestClaudeDeniedInAnotherCase(t *testing.T) {
	needClaude(t)
	e := newScratch(t, foldfs.Mount(t, foldfs.FoldCase))
	e.run("lucid", "init")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "scratch")
	onFoldingFS(t, e)
	before := e.read("src/auth.go")
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": e.path("SRC/Auth.go")}),
		api.Call("Write", map[string]any{"file_path": e.path("SRC/Auth.go"), "content": "package src\n"}),
		api.Call("Bash", map[string]any{"command": "echo x >> src/AUTH.GO", "description": "append"}),
		api.Say("Lead done."),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] Rework auth.")
	l := srv.Conversation("lead")
	if len(l) < 4 {
		t.Fatalf("the lead sent %d requests, want 4\n%s", len(l), srv.Dump())
	}
	denied(t, l[2], "Write", "SRC/Auth.go is claimed by")
	denied(t, l[3], "Bash", "src/AUTH.GO is claimed by")
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
}

// The real Codex CLI, likewise: its apply_patch of SRC/Auth.go and its
// shell's sed -i of src/AUTH.GO are denied, each reason reaching the model,
// and the file stays as it was.
func TestCodexDeniedInAnotherCase(t *testing.T) {
	e := newCodexLucidIn(t, foldfs.Mount(t, foldfs.FoldCase), false)
	onFoldingFS(t, &e.env)
	before := e.read("src/auth.go")
	patch := "*** Begin Patch\n*** Update File: SRC/Auth.go\n@@\n-// Login returns nil when the password matches.\n+// Login checks.\n*** End Patch\n"
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.ApplyPatch(patch)),
		rs.Calls(rs.Exec("sed -i s/Login/LogIn/ src/AUTH.GO")),
		rs.Say("Codex done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("want 3 Codex requests, got %d\n%s", len(reqs), srv.Dump())
	}
	for i, want := range []string{"SRC/Auth.go is claimed by", "src/AUTH.GO is claimed by"} {
		if out := lastOutput(reqs[i+1].Responses); !strings.Contains(out, "Command blocked by PreToolUse hook: lucid: "+want) {
			t.Errorf("request %d: the deny reason did not reach the model; the call's output:\n%s", i+2, out)
		}
	}
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
}
