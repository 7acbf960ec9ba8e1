package logstore

import (
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/gittest"
	"github.com/lucid-dev/lucid/logformat"
)

// newRepo is a git repository with one commit where lucid is set up: its
// .lucid folder, plan.md and empty log.
func newRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	r, err := gitstore.Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	return r
}

// logged is the entries of the log at path, oldest first, and its number
// of invalid lines.
func logged(t *testing.T, path string) ([]logformat.Entry, int) {
	t.Helper()
	var out []logformat.Entry
	invalid, err := Scan(path, func(e logformat.Entry) bool { out = append(out, e); return true })
	if err != nil {
		t.Fatal(err)
	}
	return out, invalid
}

// appendNotes appends one note for each text, and returns their ids.
func appendNotes(t *testing.T, path string, texts ...string) []string {
	t.Helper()
	var ids []string
	for _, text := range texts {
		e := logformat.NewEntry(time.Now(), "a", logformat.KindNote, text)
		if err := Append(path, e); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	return ids
}
