package claude

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
)

// Claude Code skips the diff of exactly the plain git whole-tree commands:
// lucid then watches the claimed files itself.
func TestSkipsDiff(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"git stash", true},
		{"  git checkout main", true},
		{"git checkout feature/x", true},
		{"sudo git pull origin main", true},
		{"git\tmerge\torigin/main", true},
		{"git rebase HEAD~3", true},
		{"git stash\n", true},
		{"git cherry-pick abc123 def-456", true},
		{"git checkout -f main", false}, // a word may not start with -
		{"git stash -u", false},
		{"git status", false},
		{"git stash && echo done", false},
		{"git stash\necho done", false},
		{"cd src && git stash", false},
		{"gitx stash", false},
		{"git", false},
	} {
		if got := skipsDiff(tc.cmd); got != tc.want {
			t.Errorf("skipsDiff(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// A Bash call is watched where no record of its changes will come: every
// permission mode but bypassPermissions and auto, unless the user turned
// the record on; and a plain git whole-tree command in every mode.
func TestUnrecordedByMode(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_CODE_BASH_EDIT_DIFF", "")
	pre := func(mode, cmd string) bool {
		in, err := Client{}.Decode("PreToolUse", []byte(`{"session_id":"s","cwd":"/r","permission_mode":"`+mode+`","tool_name":"Bash","tool_input":{"command":"`+cmd+`"}}`))
		if err != nil {
			t.Fatal(err)
		}
		return in.Caps.Has(client.Unrecorded)
	}
	for _, tc := range []struct {
		mode, cmd string
		want      bool
	}{
		{"default", "echo x > a", true},
		{"acceptEdits", "echo x > a", true},
		{"plan", "echo x > a", true},
		{"bypassPermissions", "echo x > a", false},
		{"auto", "echo x > a", false},
		{"bypassPermissions", "git stash", true},
	} {
		if got := pre(tc.mode, tc.cmd); got != tc.want {
			t.Errorf("%s %q: Unrecorded = %v, want %v", tc.mode, tc.cmd, got, tc.want)
		}
	}
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"bashEditDiffEnabled": true}`), 0o644)
	if pre("default", "echo x > a") {
		t.Error("with bashEditDiffEnabled in the user's settings, a default-mode call is still watched")
	}
	os.Remove(filepath.Join(home, ".claude", "settings.json"))
	t.Setenv("CLAUDE_CODE_BASH_EDIT_DIFF", "1")
	if pre("acceptEdits", "echo x > a") {
		t.Error("with CLAUDE_CODE_BASH_EDIT_DIFF=1, an acceptEdits call is still watched")
	}
}

// At PostToolUse, a response without a diff (or with a skipped one) is
// unrecorded; with one, its changed files are the call's.
func TestPostToolUseDiff(t *testing.T) {
	dec := func(resp string) client.Input {
		in, err := Client{}.Decode("PostToolUse", []byte(`{"session_id":"s","cwd":"/r","tool_name":"Bash","tool_input":{"command":"true"},"tool_response":`+resp+`}`))
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	if in := dec(`{"stdout":""}`); !in.Caps.Has(client.Unrecorded) {
		t.Error("no bashEditDiff: not taken as unrecorded")
	}
	if in := dec(`{"bashEditDiff":{"files":[],"moreFiles":0,"skipped":true}}`); !in.Caps.Has(client.Unrecorded) {
		t.Error("a skipped bashEditDiff: not taken as unrecorded")
	}
	in := dec(`{"bashEditDiff":{"changedFiles":["/r/a.go"]}}`)
	if in.Caps.Has(client.Unrecorded) || len(in.Changed) != 1 || in.Changed[0] != "/r/a.go" {
		t.Errorf("a bashEditDiff: Unrecorded=%v Changed=%v", in.Caps.Has(client.Unrecorded), in.Changed)
	}
}
