package logstore

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// A reader that keeps its cursor reads, the next time, only what was
// appended since; a rewritten log is told apart from a grown one.
func TestCursorReadsOnlyWhatWasAppended(t *testing.T) {
	r := repotest.Lucid(t)
	path := r.LogPath()
	first := appendNotes(t, path, "one", "two")
	read := func(off int64) ([]string, Cursor, int) {
		t.Helper()
		var ids []string
		cur, invalid, err := ScanFrom(path, off, func(e logformat.Entry) { ids = append(ids, e.ID) })
		if err != nil {
			t.Fatal(err)
		}
		return ids, cur, invalid
	}
	ids, cur, _ := read(0)
	if !slices.Equal(ids, first) {
		t.Fatalf("read %v, want %v", ids, first)
	}
	if end, err := EndCursor(path); err != nil || end != cur {
		t.Fatalf("EndCursor %+v, %v; ScanFrom's cursor %+v", end, err, cur)
	}
	if st, err := Stat(path); err != nil || !st.SameFile(cur) || st.Size != cur.Size {
		t.Fatalf("Stat %+v, %v: not the state ScanFrom saw %+v", st, err, cur)
	}
	if !Grown(path, cur) {
		t.Fatal("an unchanged log reads as rewritten")
	}
	// An append, a line that is not an entry, and an unfinished line.
	more := appendNotes(t, path, "three")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not an entry\n{\"id\":\"01")
	f.Close()
	if !Grown(path, cur) {
		t.Fatal("an appended log reads as rewritten")
	}
	if st, _ := Stat(path); st.SameFile(cur) {
		t.Fatal("Stat sees no change after an append")
	}
	ids, cur2, invalid := read(cur.Size)
	if !slices.Equal(ids, more) || invalid != 1 {
		t.Fatalf("from the cursor: %v with %d invalid, want %v with 1", ids, invalid, more)
	}
	// The unfinished line is left for the next reader, at both ends.
	info, _ := os.Stat(path)
	if cur2.Size != info.Size()-int64(len(`{"id":"01`)) {
		t.Fatalf("cursor at %d, the file is %d bytes with an unfinished line of %d", cur2.Size, info.Size(), len(`{"id":"01`))
	}
	if end, err := EndCursor(path); err != nil || end != cur2 {
		t.Fatalf("EndCursor %+v, %v; ScanFrom's cursor %+v", end, err, cur2)
	}
	// A rewrite (a checkout) of the same length or longer, which changes
	// the last entry read, is not growth.
	b, _ := os.ReadFile(path)
	b[cur.Size-5] ^= 1
	os.WriteFile(path, b, 0o644)
	if Grown(path, cur) {
		t.Fatal("a rewritten log reads as grown")
	}
	os.WriteFile(path, b[:cur.Size-1], 0o644)
	if Grown(path, cur) {
		t.Fatal("a shortened log reads as grown")
	}
}

func TestScanFromMatchingDecodesOnlyLinesNamingTheNeedle(t *testing.T) {
	r := repotest.Lucid(t)
	path := r.LogPath()
	ids := appendNotes(t, path, "one", "two", "three")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("broken " + ids[1] + "\nbroken elsewhere\n")
	f.Close()
	var got []string
	cur, invalid, err := ScanFromMatching(path, 0, ids[1], func(e logformat.Entry) { got = append(got, e.ID) })
	if err != nil || !slices.Equal(got, ids[1:2]) || invalid != 1 {
		t.Fatalf("ScanFromMatching(%s): %v, %d invalid, %v; want the one entry and the one broken line naming it", ids[1], got, invalid, err)
	}
	if end, _ := EndCursor(path); cur != end {
		t.Fatalf("cursor %+v, want the log's end %+v", cur, end)
	}
}

func TestCursorsOfAMissingOrEmptyLog(t *testing.T) {
	r := repotest.Lucid(t)
	empty, err := EndCursor(r.LogPath())
	if err != nil || empty.Size != 0 || empty.Tail == "" {
		t.Fatalf("EndCursor of the empty log: %+v, %v", empty, err)
	}
	if !Grown(r.LogPath(), empty) {
		t.Fatal("the empty log is not grown from its own cursor")
	}
	os.Remove(r.LogPath())
	for name, f := range map[string]func(string) (Cursor, error){
		"Stat":      Stat,
		"EndCursor": EndCursor,
		"ScanFrom": func(p string) (Cursor, error) {
			c, _, err := ScanFrom(p, 0, func(logformat.Entry) { t.Fatal("an entry in a missing log") })
			return c, err
		},
	} {
		if c, err := f(r.LogPath()); err != nil || c != (Cursor{}) {
			t.Errorf("%s of a missing log: %+v, %v; want the zero cursor", name, c, err)
		}
	}
	if Grown(r.LogPath(), Cursor{}) {
		t.Fatal("a missing log reads as grown")
	}
}

// A last line longer than EndCursor's block, without its newline, is
// stepped over whole.
func TestEndCursorStepsOverALongUnfinishedLine(t *testing.T) {
	r := repotest.Lucid(t)
	appendNotes(t, r.LogPath(), "one")
	want, _ := EndCursor(r.LogPath())
	f, _ := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.Write(make([]byte, 10000))
	f.Close()
	if got, err := EndCursor(r.LogPath()); err != nil || got.Size != want.Size || got.Tail != want.Tail {
		t.Fatalf("EndCursor %+v, %v; want %+v", got, err, want)
	}
	os.WriteFile(r.LogPath(), make([]byte, 10000), 0o644)
	if got, err := EndCursor(r.LogPath()); err != nil || got.Size != 0 {
		t.Fatalf("EndCursor of a log of one unfinished line: %+v, %v", got, err)
	}
}

// ScanFromOffsets gives where each entry's line starts, also after a line
// that is not an entry.
func TestScanFromOffsets(t *testing.T) {
	r := repotest.Lucid(t)
	for _, text := range []string{"one", "two"} {
		if err := Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, text)); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not an entry\r\n")
	f.Close()
	Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "three"))
	b, _ := os.ReadFile(r.LogPath())
	var got []string
	_, invalid, err := ScanFromOffsets(r.LogPath(), 0, func(e logformat.Entry, at int64) {
		line, _, _ := strings.Cut(string(b[at:]), "\n")
		if !strings.HasPrefix(line, `{"id":"`+e.ID+`"`) {
			t.Errorf("%q is said to start at %d, where the line is %q", e.Text, at, line)
		}
		got = append(got, e.Text)
	})
	if err != nil || invalid != 1 || strings.Join(got, ",") != "one,two,three" {
		t.Errorf("scanned %v, %d invalid, %v", got, invalid, err)
	}
}

// TailSince gives what was appended after a cursor, oldest first, as
// ScanFrom does, reading back from the log's end: invalid and blank lines
// left out (counted towards its bound, as lines read), an unfinished last
// line left for later, lines longer than its blocks whole; past max lines
// it stops and says so.
func TestTailSince(t *testing.T) {
	r := repotest.Lucid(t)
	path := r.LogPath()
	if got, cur, more, err := TailSince(path, 0, 10); err != nil || more || len(got) != 0 || cur.Size != 0 {
		t.Fatalf("an empty log: %v, %+v, %v, %v", got, cur, more, err)
	}
	start, _ := EndCursor(path)
	ids := appendNotes(t, path, "one", strings.Repeat("long ", 40000), "three")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not json\r\n\n")
	f.Close()
	ids = append(ids, appendNotes(t, path, "four")...)
	f, _ = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"id":"01M9`)
	f.Close()
	want, end, _ := func() ([]string, Cursor, error) {
		var out []string
		cur, _, err := ScanFrom(path, start.Size, func(e logformat.Entry) { out = append(out, e.ID) })
		return out, cur, err
	}()
	got, cur, more, err := TailSince(path, start.Size, 5)
	var gotIDs []string
	for _, e := range got {
		gotIDs = append(gotIDs, e.ID)
	}
	if err != nil || more || !slices.Equal(gotIDs, ids) || !slices.Equal(gotIDs, want) || cur != end {
		t.Fatalf("TailSince = %v, %+v, %v, %v; want %v, %+v", gotIDs, cur, more, err, ids, end)
	}
	if got, cur2, more, err := TailSince(path, start.Size, 4); err != nil || !more || got != nil || cur2 != end {
		t.Errorf("five lines, at most four: %v, %+v, %v, %v", got, cur2, more, err)
	}
	if got, _, more, _ := TailSince(path, cur.Size, 1); more || len(got) != 0 {
		t.Errorf("nothing appended since: %v, %v", got, more)
	}
}
