package merge

import (
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// lineEntry says of each line what DecodeEntry says: through the fast
// reader for what lucid writes, through DecodeEntry for a line the fast
// reader is not sure of, and no for a line that is not an entry.
func TestLineEntryAgrees(t *testing.T) {
	at := time.Date(2026, 12, 2, 7, 52, 18, 123e6, time.UTC)
	b, err := logformat.EncodeEntry(logformat.NewEntry(at, "human", logformat.KindNote, "x"))
	if err != nil {
		t.Fatal(err)
	}
	id := `"01KTC4VN86Q9S4HEG3T05G1190"`
	for _, line := range []string{
		string(b[:len(b)-1]),
		`{"id":"\u00301KTC4VN86Q9S4HEG3T05G1190","at":"2026-12-02T07:52:18.123Z","kind":"fact"}`,
		`{"id":` + id + `,"at":"2026-12-02T07:52:18.123Z","kind":"fact","Kind":"note"}`,
		`{"id":` + id + `,"at":"2026-12-02T07:52:18Z","kind":"fact"}`,
		`<<<<<<< ours`, ``, `{}`,
	} {
		e, err := logformat.DecodeEntry([]byte(line))
		id, at, ok := lineEntry([]byte(line))
		if ok != (err == nil) || ok && (id != e.ID || at != e.At) {
			t.Errorf("lineEntry(%q) = %q, %q, %v; DecodeEntry: %q, %q, %v", line, id, at, ok, e.ID, e.At, err)
		}
	}
}
