package logstore

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// liveAll is the consolidation as it was written first, holding the whole
// log: the reference Live must agree with.
func liveAll(path string) ([]LiveEntry, int, error) {
	var all []logformat.Entry
	byID := map[string]int{}
	superseded := map[string]bool{}
	invalid, err := Scan(path, func(e logformat.Entry) bool {
		byID[e.ID] = len(all)
		all = append(all, e)
		if e.Kind == logformat.KindSupersede {
			superseded[e.Supersedes] = true
		}
		return true
	})
	var out []LiveEntry
	for _, e := range all {
		if superseded[e.ID] || e.Retired || e.Kind == logformat.KindDream {
			continue
		}
		root := e
		for hops := 0; root.Kind == logformat.KindSupersede && hops < len(all); hops++ {
			i, ok := byID[root.Supersedes]
			if !ok {
				break
			}
			root = all[i]
		}
		out = append(out, LiveEntry{Entry: e, StandsFor: root.Kind})
	}
	return out, invalid, err
}

// TestLiveAgrees: on random logs with chains of replacements,
// retirements, dream points, unknown kinds, replacements of missing ids,
// replacements before what they replace, and invalid lines, Live lists
// what the whole-log reading lists, and counts the same.
func TestLiveAgrees(t *testing.T) {
	dir := t.TempDir()
	repo := &gitstore.Repo{Top: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git")}
	os.MkdirAll(filepath.Join(dir, gitstore.LucidDirName), 0o755)
	kinds := []string{logformat.KindFact, logformat.KindDecision, logformat.KindDeadEnd, logformat.KindNote, logformat.KindPlan, logformat.KindViolation, logformat.KindDream, "future-kind"}
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		f, err := os.Create(repo.LogPath())
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 5 + r.IntN(60) {
			now = now.Add(time.Second)
			e := logformat.NewEntry(now, "a", kinds[r.IntN(len(kinds))], fmt.Sprint("text ", i))
			switch x := r.IntN(10); {
			case x < 4 && len(ids) > 0:
				e.Kind = logformat.KindSupersede
				e.Supersedes = ids[r.IntN(len(ids))]
				e.Retired = r.IntN(4) == 0
			case x == 4:
				e.Kind = logformat.KindSupersede
				e.Supersedes = logformat.NewID(now.Add(time.Hour)) // not in the log, or later
			}
			line, _ := logformat.EncodeEntry(e)
			if r.IntN(15) == 0 {
				f.WriteString("<<<<<<< not an entry\n")
			}
			if r.IntN(20) == 0 {
				f.WriteString("\n")
			}
			f.Write(line)
			ids = append(ids, e.ID)
		}
		f.Close()
		if seed%3 == 0 {
			lf, _ := os.OpenFile(repo.LogPath(), os.O_APPEND|os.O_WRONLY, 0)
			lf.WriteString(`{"id":"torn`) // an unfinished last line
			lf.Close()
		}
		want, wantInvalid, err := liveAll(repo.LogPath())
		if err != nil {
			t.Fatal(err)
		}
		l, err := OpenLive(repo)
		if err != nil {
			t.Fatal(err)
		}
		var got []LiveEntry
		if err := l.Each(func(string) bool { return true }, func(e LiveEntry) bool { got = append(got, e); return true }); err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, e := range want {
			counts[e.StandsFor]++
		}
		if !reflect.DeepEqual(got, want) || l.Invalid != wantInvalid || !reflect.DeepEqual(l.Counts, counts) {
			t.Fatalf("seed %d: Live lists\n%v (%d invalid, counts %v)\nwant\n%v (%d invalid, counts %v)", seed, got, l.Invalid, l.Counts, want, wantInvalid, counts)
		}
		// Count, in one part and in many, counts as Scan does.
		scanned := 0
		scanInvalid, _ := Scan(repo.LogPath(), func(logformat.Entry) bool { scanned++; return true })
		for _, split := range []int64{8 << 20, 0} {
			countSplitSize = split
			valid, inv, err := Count(repo.LogPath())
			if err != nil || valid != scanned || inv != scanInvalid {
				t.Fatalf("seed %d: Count (split at %d) = %d valid, %d invalid, %v; Scan: %d, %d", seed, split, valid, inv, err, scanned, scanInvalid)
			}
		}
		countSplitSize = 8 << 20
		// One kind at a time gives the same entries of that kind.
		for _, k := range l.Kinds() {
			var one []LiveEntry
			l.Each(func(kind string) bool { return kind == k }, func(e LiveEntry) bool { one = append(one, e); return true })
			if len(one) != counts[k] {
				t.Fatalf("seed %d: Each(%s) gave %d, want %d", seed, k, len(one), counts[k])
			}
		}
		l.Close()
	}
}

func TestLiveOfAMissingLog(t *testing.T) {
	r := repotest.Lucid(t)
	os.Remove(r.LogPath())
	l, err := OpenLive(r)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(l.Counts) != 0 || len(l.Kinds()) != 0 {
		t.Fatalf("live entries in a missing log: %v", l.Counts)
	}
	if err := l.Each(func(string) bool { return true }, func(e LiveEntry) bool { t.Fatalf("entry %v", e); return true }); err != nil {
		t.Fatal(err)
	}
}

// Each reads what OpenLive indexed: it stops when asked, lists nothing when
// no kind is wanted, and leaves out what was appended since.
func TestLiveEach(t *testing.T) {
	r := repotest.Lucid(t)
	ids := appendNotes(t, r.LogPath(), "one", "two", "three")
	l, err := OpenLive(r)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	appendNotes(t, r.LogPath(), "four")
	var got []string
	each := func(keep func(string) bool, max int) {
		t.Helper()
		got = nil
		if err := l.Each(keep, func(e LiveEntry) bool { got = append(got, e.ID); return len(got) < max }); err != nil {
			t.Fatal(err)
		}
	}
	each(func(string) bool { return true }, 10)
	if len(got) != 3 || got[2] != ids[2] {
		t.Fatalf("Each lists %v, want the three entries indexed %v", got, ids)
	}
	each(func(string) bool { return true }, 2)
	if len(got) != 2 || got[1] != ids[1] {
		t.Fatalf("Each stopped at 2 lists %v", got)
	}
	each(func(string) bool { return false }, 10)
	if got != nil {
		t.Fatalf("Each of no kind lists %v", got)
	}
}

// A line another tool wrote, with escapes where lucid writes none, is read
// as encoding/json reads it: by the count and by the live set.
func TestLiveReadsEscapedLines(t *testing.T) {
	r := repotest.Lucid(t)
	escaped := func(e logformat.Entry) string {
		line, _ := logformat.EncodeEntry(e)
		s := strings.Replace(string(line), `"kind":"`+e.Kind+`"`, `"kind":"\u00`+fmt.Sprintf("%x", e.Kind[0])+e.Kind[1:]+`"`, 1)
		if s == string(line) {
			t.Fatalf("no kind in %s", line)
		}
		return s
	}
	now := time.Now()
	fact := logformat.NewEntry(now, "a", logformat.KindFact, "kept")
	old := logformat.NewEntry(now.Add(time.Second), "a", logformat.KindDecision, "replaced")
	by := logformat.NewEntry(now.Add(2*time.Second), "a", logformat.KindSupersede, "replacing")
	by.Supersedes = old.ID
	os.WriteFile(r.LogPath(), []byte(escaped(fact)+escaped(old)+escaped(by)), 0o644)
	if valid, invalid, err := Count(r.LogPath()); valid != 3 || invalid != 0 || err != nil {
		t.Fatalf("Count: %d valid, %d invalid, %v; want 3 valid", valid, invalid, err)
	}
	l, err := OpenLive(r)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	want := map[string]int{logformat.KindFact: 1, logformat.KindDecision: 1}
	if !reflect.DeepEqual(l.Counts, want) || l.Invalid != 0 {
		t.Fatalf("live counts %v (%d invalid), want %v", l.Counts, l.Invalid, want)
	}
}
