package logstore

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// Goroutines of one process appending at once also keep whole lines.
func TestConcurrentAppendsFromGoroutines(t *testing.T) {
	r := repotest.Lucid(t)
	const writers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				text := strings.Repeat(string(rune('a'+w)), 100*i)
				if err := Append(r.LogPath(), logformat.NewEntry(time.Now(), "g", logformat.KindNote, text)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, invalid := logged(t, r.LogPath())
	seen := map[string]bool{}
	for _, e := range got {
		seen[e.ID] = true
	}
	if len(got) != writers*each || len(seen) != writers*each || invalid != 0 {
		t.Fatalf("%d entries, %d distinct, %d invalid lines; want %d, all distinct, none invalid", len(got), len(seen), invalid, writers*each)
	}
}

// A last line cut short (a writer that died) gets its newline before the
// next entry, so that only it is lost, not the entry after it.
func TestAppendAfterATornLine(t *testing.T) {
	r := repotest.Lucid(t)
	first := appendNotes(t, r.LogPath(), "one")
	f, _ := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"id":"01JTORN","at":`)
	f.Close()
	second := appendNotes(t, r.LogPath(), "two")
	got, invalid := logged(t, r.LogPath())
	if len(got) != 2 || got[0].ID != first[0] || got[1].ID != second[0] || invalid != 1 {
		t.Fatalf("the log holds %v with %d invalid; want one, two, and the torn line invalid", got, invalid)
	}
}

// A log deleted (but not its folder) is created again by the next append.
func TestAppendCreatesAMissingLog(t *testing.T) {
	r := repotest.Lucid(t)
	os.Remove(r.LogPath())
	ids := appendNotes(t, r.LogPath(), "one")
	if got, _ := logged(t, r.LogPath()); len(got) != 1 || got[0].ID != ids[0] {
		t.Fatalf("the log holds %v", got)
	}
}

// A log that is not a regular file is neither appended to nor read.
func TestLogThatIsNotAFile(t *testing.T) {
	r := repotest.Lucid(t)
	os.Remove(r.LogPath())
	os.Mkdir(r.LogPath(), 0o755)
	e := logformat.NewEntry(time.Now(), "a", logformat.KindNote, "x")
	if err := Append(r.LogPath(), e); err == nil || !strings.Contains(err.Error(), "not appended to the log") {
		t.Fatalf("Append to a folder: %v", err)
	}
	if _, err := Record(r, "a", logformat.KindNote, "x", r.Top, nil); err == nil {
		t.Fatal("Record into a folder gave no error")
	}
	if _, err := Scan(r.LogPath(), func(logformat.Entry) bool { return true }); err == nil {
		t.Fatal("Scan of a folder gave no error")
	}
	if _, _, err := Count(r.LogPath()); err == nil {
		t.Fatal("Count of a folder gave no error")
	}
	if _, err := OpenLive(r); err == nil {
		t.Fatal("OpenLive of a folder gave no error")
	}
	if _, _, err := List(r, ListOptions{}); err == nil {
		t.Fatal("List of a folder gave no error")
	}
	outside := filepath.Join(t.TempDir(), "log.jsonl")
	os.WriteFile(outside, nil, 0o644)
	os.Remove(r.LogPath())
	if err := os.Symlink(outside, r.LogPath()); err != nil {
		t.Skip("no symbolic links here")
	}
	if err := Append(r.LogPath(), e); err == nil {
		t.Fatal("Append through a link out of the repository gave no error")
	}
	if b, _ := os.ReadFile(outside); len(b) != 0 {
		t.Fatalf("the file outside was written: %q", b)
	}
}
