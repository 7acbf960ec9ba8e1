package e2e

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client/applypatch"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// TestCodexShellApplyPatch: an exec_command whose shell text is
// `apply_patch <<'EOF' ... EOF` (or `cd DIR && apply_patch ...`) is
// intercepted and applied by Codex itself. Hooks see it as a Bash call
// with the shell text in tool_input.command, which applypatch.ShellPatches
// reads for the paths; a deny stops it; and no PostToolUse fires for it,
// whether it was applied or denied, so nothing after the fact can catch
// such a write: the PreToolUse guard is the only one.
func TestCodexShellApplyPatch(t *testing.T) {
	e := newCodexEnv(t)
	applied := "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello via shell\n*** End Patch\nEOF\n"
	inDir := "cd src && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: new.go\n+package src\n*** End Patch\nEOF\n"
	denied := "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/claimed.go\n@@\n-var x = 1\n+var x = 2\n*** End Patch\nEOF\n"
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.Exec(applied)),
		rs.Calls(rs.Exec(inDir)),
		rs.Calls(rs.Exec(denied)),
		rs.Say("Done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.answer(hookRule{Event: "PreToolUse", Tool: "Bash", Contains: "src/claimed.go", Stdout: hookJSON("PreToolUse",
		map[string]any{"permissionDecision": "deny", "permissionDecisionReason": "DENY-SHELL-PATCH"})})
	e.exec(srv, "[[codex-lead]] Patch through the shell.", "--dangerously-bypass-hook-trust")

	pre := toolCalls(e, "PreToolUse", "Bash")
	if len(pre) != 3 || len(toolCalls(e, "PreToolUse", "apply_patch")) != 0 {
		t.Fatalf("want three PreToolUse(Bash) and no apply_patch:\n%s", e.hooksText())
	}
	wantPaths := [][]string{{"a.txt"}, {"src/new.go"}, {"src/claimed.go"}}
	for i, c := range pre {
		patches, ok, err := applypatch.ShellPatches(c.command())
		if !ok || err != nil || len(patches) != 1 {
			t.Fatalf("ShellPatches(%q) = %v, %v, %v", c.command(), patches, ok, err)
		}
		var got []string
		for _, p := range patches[0].Paths(c.str("cwd")) {
			rel, _ := filepath.Rel(c.str("cwd"), p)
			got = append(got, rel)
		}
		if !reflect.DeepEqual(got, wantPaths[i]) {
			t.Errorf("call %d writes %q, the guard reads %q", i+1, wantPaths[i], got)
		}
	}
	if got := e.read("a.txt"); got != "hello via shell\n" {
		t.Errorf("a.txt = %q: the shell's apply_patch was not applied", got)
	}
	if got := e.read("src/new.go"); got != "package src\n" {
		t.Errorf("src/new.go = %q: cd DIR && apply_patch did not apply in DIR", got)
	}
	if got := e.read("src/claimed.go"); got != "package src\n\nvar x = 1\n" {
		t.Errorf("src/claimed.go changed under a deny: %q", got)
	}
	if out := lastOutput(srv.Conversation("lead")[3].Responses); !strings.HasPrefix(out, "Command blocked by PreToolUse hook: DENY-SHELL-PATCH") {
		t.Errorf("the model read %q after the deny", out)
	}
	if n := len(e.hookCalls("PostToolUse")); n != 0 {
		t.Errorf("PostToolUse fired %d times for shell apply_patch calls; Codex 0.169.0 fires none", n)
	}
}
