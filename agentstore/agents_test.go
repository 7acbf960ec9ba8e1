package agentstore

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/gittest"
	"github.com/lucid-dev/lucid/logstore"
)

// A record saved is the record loaded, every field of it: the hand-written
// decoder reads the names that json.Marshal writes.
func TestAgentRecordRoundTrip(t *testing.T) {
	r, err := gitstore.Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	want := AgentRecord{
		ID: "30df32ba-0d45-4195-af71-803394f51561/aalpha-29065e", Type: "general-purpose", Client: "codex",
		Worktree: r.Top, Started: "2026-12-03T08:00:00Z",
		Cursor:      logstore.LogCursor{Size: 1 << 40, Inode: 1<<63 + 5, MTime: -1, Tail: "9f86d081884c7d65"},
		KnownBefore: 1796285464398, Seen: []string{"a\x00b", "é\u2028", `"q"`},
		Edits: 3, Entries: 4, Asked: true, Compacted: true,
	}
	if err := SaveAgent(r, want); err != nil {
		t.Fatal(err)
	}
	got, _, ok := LoadAgent(r, want.ID)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v (ok %v), saved %+v", got, ok, want)
	}
	recs, _, err := Agents(r)
	if err != nil || len(recs) != 1 || !reflect.DeepEqual(recs[0], want) {
		t.Fatalf("Agents() = %+v, %v; want the one saved", recs, err)
	}
}

// FuzzAgentRecordDecode: a record file, whatever is in it, reads as
// encoding/json reads it into the struct.
func FuzzAgentRecordDecode(f *testing.F) {
	f.Add([]byte(`{"id":"s1","worktree":"/w","started":"x","cursor":{"size":5,"inode":7,"mtime_ns":-3,"tail":"ab"},"known_before":9,"seen":["a","b"],"edits":1,"entries":2,"asked":true,"compacted":false}`))
	f.Add([]byte(`{"id":"s1","cursor":null,"seen":null,"edits":1.5}`))
	f.Add([]byte(`{"cursor":{"size":"5"},"id":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if caseVariant(b) {
			return // encoding/json would take "ID" for "id"; lucid writes only its own names
		}
		var want, got AgentRecord
		werr := json.Unmarshal(b, &want)
		err := got.decode(b)
		if (err == nil) != (werr == nil) {
			t.Fatalf("decode(%q): error %v, encoding/json: %v", b, err, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decode(%q) = %+v, encoding/json %+v", b, got, want)
		}
	})
}

// caseVariant reports whether b may hold a key that encoding/json takes
// for one of the record's names in another case ("ID", "\u0049d", or
// "ſeen" with the long s that folds to s); lucid writes only its own.
func caseVariant(b []byte) bool {
	for _, c := range b {
		if c >= 'A' && c <= 'Z' || c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}
