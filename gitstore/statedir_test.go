package gitstore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// gitstore.StateDir finds lucid's and lich's state under any git dir, and nothing
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
		if _, got := gitstore.StateDir(filepath.Join(root, tc.in)); got != tc.want {
			t.Errorf("gitstore.StateDir(%s) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// NewestIDs reads the ids of the newest lines, skipping what is not an
// entry and an unfinished last line, as many as asked, or all there are.
func TestNewestIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	var content []byte
	var want []string
	for i := range 50 {
		e := logformat.NewEntry(time.Now(), "human", logformat.KindFact, strings.Repeat("x", i*37))
		b, _ := logformat.EncodeEntry(e)
		content = append(content, b...)
		if i%7 == 0 {
			content = append(content, "not an entry\n"...)
		}
		want = append([]string{e.ID}, want...)
	}
	content = append(content, `{"id":"01JUNFINISHED`...)
	os.WriteFile(path, content, 0o644)
	for _, n := range []int{1, 3, 50, 100} {
		got, err := logstore.NewestIDs(path, n)
		if err != nil {
			t.Fatal(err)
		}
		if w := want[:min(n, len(want))]; strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("NewestIDs(%d) = %v, want %v", n, got, w)
		}
	}
}
