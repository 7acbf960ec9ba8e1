package logstore

import (
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
)

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
