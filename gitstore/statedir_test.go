package gitstore

import (
	"os"
	"path/filepath"
	"testing"
)

// StateDir finds lucid's and lich's state under any git dir, and nothing
// else named lucid.
func TestStateDir(t *testing.T) {
	root := t.TempDir()
	git := filepath.Join(root, ".git")
	for _, d := range []string{"objects", "lucid/agents", "worktrees/wt/lucid", "lich-edits"} {
		os.MkdirAll(filepath.Join(git, d), 0o755)
	}
	os.WriteFile(filepath.Join(git, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(git, "worktrees/wt/HEAD"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(git, "worktrees/wt/commondir"), []byte("../..\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "src/lucid"), 0o755)
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{".git/lucid/claims", true},
		{".git/lucid", true},
		{".git/lucid/agents/x.json", true},
		{".git/worktrees/wt/lucid/plan.seen", true},
		{".git/lich-edits/0badf00d", true},
		{".git/config", false},
		{"src/lucid/main.go", false},
		{".lucid/log.jsonl", false},
	} {
		if _, got := StateDir(filepath.Join(root, tc.in)); got != tc.want {
			t.Errorf("StateDir(%s) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
