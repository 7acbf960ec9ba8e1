package logstore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

func TestHeadReadsTheCommitWithoutGit(t *testing.T) {
	r := repotest.Lucid(t)
	want := gittest.Run(t, r.Top, "rev-parse", "HEAD")
	if got := Head(r); got != want {
		t.Fatalf("Head %q, want %q (loose ref)", got, want)
	}
	gittest.Run(t, r.Top, "pack-refs", "--all")
	if got := Head(r); got != want {
		t.Fatalf("Head %q, want %q (packed ref)", got, want)
	}
	gittest.Run(t, r.Top, "checkout", "-q", "--detach")
	if got := Head(r); got != want {
		t.Fatalf("Head %q, want %q (detached)", got, want)
	}
	gittest.Run(t, r.Top, "checkout", "-q", "--orphan", "fresh")
	if got := Head(r); got != "" {
		t.Fatalf("Head of a branch with no commit: %q", got)
	}
	// In a linked work tree, the branch is in the common git dir.
	wt := filepath.Join(filepath.Dir(r.Top), "wt")
	gittest.Run(t, r.Top, "worktree", "add", "-q", "-b", "side", wt, want)
	linked, err := gitstore.Find(wt)
	if err != nil {
		t.Fatal(err)
	}
	if got := Head(linked); got != want {
		t.Fatalf("Head of a linked work tree %q, want %q", got, want)
	}
	// A HEAD naming a ref outside the git dir is not followed.
	os.WriteFile(filepath.Join(r.GitDir, "HEAD"), []byte("ref: refs/../../../x\n"), 0o644)
	if got := Head(r); got != "" {
		t.Fatalf("Head of a ref leaving the git dir: %q", got)
	}
	os.Remove(filepath.Join(r.GitDir, "HEAD"))
	if got := Head(r); got != "" {
		t.Fatalf("Head with no HEAD: %q", got)
	}
}

func TestNewestIDs(t *testing.T) {
	r := repotest.Lucid(t)
	path := r.LogPath()
	if ids, err := NewestIDs(path, 3); err != nil || ids != nil {
		t.Fatalf("NewestIDs of an empty log: %v, %v", ids, err)
	}
	ids := appendNotes(t, path, "one", "two", "three")
	// A line written by another tool, its keys in another order, still
	// counts; a line that is not an entry, a blank one and an unfinished
	// last one do not.
	e := appendNotes(t, path, "four")[0]
	b, _ := os.ReadFile(path)
	lines := splitLines(b)
	var m map[string]any
	if err := json.Unmarshal(lines[len(lines)-1], &m); err != nil {
		t.Fatal(err)
	}
	sorted, _ := json.Marshal(m) // keys in alphabetical order: "agent" first
	b = append(b[:len(b)-len(lines[len(lines)-1])-1], sorted...)
	b = append(b, "\nnot an entry\n\n{\"id\":\"01"...)
	os.WriteFile(path, b, 0o644)
	ids = append(ids, e)
	got, err := NewestIDs(path, 3)
	if want := []string{ids[3], ids[2], ids[1]}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("NewestIDs(3) = %v, %v; want %v", got, err, want)
	}
	got, _ = NewestIDs(path, 10)
	if want := []string{ids[3], ids[2], ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Fatalf("NewestIDs(10) = %v; want %v", got, want)
	}
	os.Remove(path)
	if ids, err := NewestIDs(path, 3); err != nil || ids != nil {
		t.Fatalf("NewestIDs of a missing log: %v, %v", ids, err)
	}
}

func TestSaveAndLoadStart(t *testing.T) {
	r := repotest.Lucid(t)
	if ids := LoadStart(r, "claude/1"); ids != nil {
		t.Fatalf("a start never saved: %v", ids)
	}
	for _, ids := range [][]string{{"A", "B"}, {"A", "B"}, {"C"}} {
		if err := SaveStart(r, "claude/1", ids); err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, id := range ids {
			want[id] = true
		}
		if got := LoadStart(r, "claude/1"); !reflect.DeepEqual(got, want) {
			t.Fatalf("saved %v, loaded %v", ids, got)
		}
	}
	if ids := LoadStart(r, "claude/2"); ids != nil {
		t.Fatalf("another agent's start: %v", ids)
	}
}

func TestCommittedIDs(t *testing.T) {
	r := repotest.Lucid(t)
	committed := appendNotes(t, r.LogPath(), "one", "two")
	f, _ := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not an entry\r\n\n")
	f.Close()
	gittest.CommitAll(t, r.Top, "log")
	head := gittest.Run(t, r.Top, "rev-parse", "HEAD")
	later := appendNotes(t, r.LogPath(), "three")
	set, err := CommittedIDs(r, head)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range committed {
		if !set.Has(id) {
			t.Errorf("%s, committed, is not in the set", id)
		}
	}
	if set.Has(later[0]) || set.Has("") || set.Has("not an entry") {
		t.Errorf("the set holds what was not committed")
	}
	if len(set.ids) != 2 {
		t.Errorf("the set holds %d ids, want 2", len(set.ids))
	}
	first := gittest.Run(t, r.Top, "rev-parse", "HEAD~1") // before lucid init was committed
	for _, commit := range []string{first, "0123456789012345678901234567890123456789"} {
		set, err := CommittedIDs(r, commit)
		if err != nil || set == nil || set.Has(committed[0]) {
			t.Errorf("CommittedIDs(%s) with no log there: %v, %v; want an empty set", commit, set, err)
		}
	}
	var none *IDSet
	if none.Has(committed[0]) {
		t.Error("a nil set holds an id")
	}
}
