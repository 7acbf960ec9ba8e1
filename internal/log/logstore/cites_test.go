package logstore

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

func citesRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	gittest.Setenv(t)
	r, err := gitstore.Find(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	return r
}

// cited makes an entry of kind citing paths (no file need exist: the index
// reads only the log).
func cited(kind, text string, paths ...string) logformat.Entry {
	e := logformat.NewEntry(time.Now(), "a", kind, text)
	for _, p := range paths {
		e.Evidence = append(e.Evidence, logformat.Evidence{Path: p, Blake3: HashHex(nil)})
	}
	return e
}

// citingIDs updates the index and returns the ids it holds for rel, read
// back from the log.
func citingIDs(t *testing.T, r *gitstore.Repo, rel string) []string {
	t.Helper()
	if !CitesFresh(r) {
		if err := UpdateCites(r, ReadCitesAhead(r)); err != nil {
			t.Fatal(err)
		}
	}
	if !CitesFresh(r) {
		t.Fatal("the index is not fresh after its update")
	}
	var cites []Citation
	seen := map[string]bool{}
	err := CitingNewest(r, rel, func(c Citation) bool {
		if !seen[c.ID] {
			seen[c.ID] = true
			cites = append(cites, c)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(cites)
	es, err := ReadCited(r, cites)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range es {
		ids = append(ids, e.ID)
	}
	return ids
}

func appendAll(t *testing.T, r *gitstore.Repo, es ...logformat.Entry) {
	t.Helper()
	for _, e := range es {
		if err := Append(r.LogPath(), e); err != nil {
			t.Fatal(err)
		}
	}
}

// The index follows appends: new citations join, a supersede takes its
// target out (also one that came before its target, as a merge may put
// it), a retirement too, and a replacement that cites the file is in.
func TestCitesFollowAppends(t *testing.T) {
	r := citesRepo(t)
	a := cited(logformat.KindFact, "a", "src/a.go", "src/b.go")
	b := cited(logformat.KindNote, "b", "src/a.go")
	msg := cited(logformat.KindMessage, "for one agent only", "src/a.go")
	msg.To = []string{"someone"}
	appendAll(t, r, a, b, cited(logformat.KindNote, "no evidence"), msg)
	if got := citingIDs(t, r, "src/a.go"); !slices.Equal(got, []string{a.ID, b.ID}) {
		t.Fatalf("src/a.go: %v, want %v", got, []string{a.ID, b.ID})
	}
	if got := citingIDs(t, r, "src/none.go"); got != nil {
		t.Fatalf("a file nothing cites: %v", got)
	}

	repl := cited(logformat.KindSupersede, "a, corrected", "src/a.go")
	repl.Supersedes = a.ID
	ret := cited(logformat.KindSupersede, "no longer holds")
	ret.Supersedes, ret.Retired = b.ID, true
	early := cited(logformat.KindSupersede, "replaces what comes later", "src/c.go")
	late := cited(logformat.KindFact, "late", "src/c.go")
	early.Supersedes = late.ID
	appendAll(t, r, repl, ret, early, late)
	if got := citingIDs(t, r, "src/a.go"); !slices.Equal(got, []string{repl.ID}) {
		t.Errorf("src/a.go after the supersede and the retirement: %v, want %v", got, []string{repl.ID})
	}
	if got := citingIDs(t, r, "src/b.go"); got != nil {
		t.Errorf("src/b.go, whose one citation is superseded: %v", got)
	}
	if got := citingIDs(t, r, "src/c.go"); !slices.Equal(got, []string{early.ID}) {
		t.Errorf("src/c.go: %v, want only the replacement %v", got, early.ID)
	}
}

// A rewritten log (a checkout) is indexed anew: what only the old log
// cited is gone, and the places are the new log's.
func TestCitesRebuiltAfterRewrite(t *testing.T) {
	r := citesRepo(t)
	a := cited(logformat.KindFact, "old branch", "src/old.go", "src/both.go")
	appendAll(t, r, a)
	citingIDs(t, r, "src/both.go")

	b := cited(logformat.KindFact, "new branch, with a longer text than the old", "src/both.go")
	line, err := logformat.EncodeEntry(b)
	if err != nil {
		t.Fatal(err)
	}
	tmp := r.LogPath() + ".tmp"
	if err := os.WriteFile(tmp, line, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, r.LogPath()); err != nil {
		t.Fatal(err)
	}
	if CitesFresh(r) {
		t.Fatal("the index is fresh for a log rewritten under it")
	}
	if got := citingIDs(t, r, "src/both.go"); !slices.Equal(got, []string{b.ID}) {
		t.Errorf("src/both.go after the rewrite: %v, want %v", got, []string{b.ID})
	}
	if got := citingIDs(t, r, "src/old.go"); got != nil {
		t.Errorf("src/old.go, which only the old log cited: %v", got)
	}
}

// A log read ahead of the lock is used only while the log is still it with
// lines appended: what was appended since is read under the lock, and a
// log rewritten since is read anew.
func TestCitesReadAhead(t *testing.T) {
	r := citesRepo(t)
	a := cited(logformat.KindFact, "a", "src/a.go")
	appendAll(t, r, a)
	ahead := ReadCitesAhead(r)
	if ahead == nil {
		t.Fatal("no read ahead for an index that does not exist")
	}
	b := cited(logformat.KindFact, "b", "src/a.go")
	appendAll(t, r, b)
	if err := UpdateCites(r, ahead); err != nil {
		t.Fatal(err)
	}
	if got := citingIDs(t, r, "src/a.go"); !slices.Equal(got, []string{a.ID, b.ID}) {
		t.Errorf("src/a.go: %v, want %v", got, []string{a.ID, b.ID})
	}
	if ReadCitesAhead(r) != nil {
		t.Error("a read ahead for an index that only lacks appended lines")
	}

	os.Remove(r.CitesDir() + "/cursor") // the index is to be rebuilt
	stale := ReadCitesAhead(r)
	if stale == nil {
		t.Fatal("no read ahead for an index without a cursor")
	}
	os.Remove(r.LogPath())
	c := cited(logformat.KindFact, "c, on another branch", "src/a.go")
	appendAll(t, r, c)
	if err := UpdateCites(r, stale); err != nil {
		t.Fatal(err)
	}
	if got := citingIDs(t, r, "src/a.go"); !slices.Equal(got, []string{c.ID}) {
		t.Errorf("src/a.go after the rewrite: %v, want %v", got, []string{c.ID})
	}
}

// A file's citations come newest first, read from its end, as far as the
// caller asks; an update cut short before its cursor was written and done
// again, or a line twice in the log, appends no citation twice; an append
// cut short (no newline) is not read.
func TestCitingNewest(t *testing.T) {
	r := citesRepo(t)
	var want []string
	for i := range 3000 {
		e := cited(logformat.KindFact, fmt.Sprintf("fact %d", i), "src/a.go")
		appendAll(t, r, e)
		want = append(want, e.ID)
	}
	citingIDs(t, r, "src/a.go")
	cursor := filepath.Join(r.CitesDir(), cursorFile)
	before, err := os.ReadFile(cursor)
	if err != nil {
		t.Fatal(err)
	}
	last := cited(logformat.KindFact, "last", "src/a.go")
	appendAll(t, r, last)
	line, _ := logformat.EncodeEntry(last)
	f, _ := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.Write(line) // the same line again: a union merge
	f.Close()
	want = append(want, last.ID)
	if err := UpdateCites(r, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cursor, before, 0o644) // the update's cursor was not written
	if got := citingIDs(t, r, "src/a.go"); !slices.Equal(got, want) {
		t.Fatalf("src/a.go after an update done twice: %d ids, want %d", len(got), len(want))
	}
	raw, _ := os.ReadFile(citeFile(r, "src/a.go"))
	if n := strings.Count(string(raw), last.ID); n != 1 {
		t.Errorf("the last citation is in the file %d times", n)
	}
	f, _ = os.OpenFile(citeFile(r, "src/a.go"), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(want[0] + " 0 1") // an append cut short
	f.Close()
	var got []string
	CitingNewest(r, "src/a.go", func(c Citation) bool {
		got = append(got, c.ID)
		return len(got) < 5
	})
	if !slices.Equal(got, []string{want[3000], want[2999], want[2998], want[2997], want[2996]}) {
		t.Errorf("the newest five: %v", got)
	}
}
