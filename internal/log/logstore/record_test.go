package logstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

func TestRecordAppendsWhatIsReadBack(t *testing.T) {
	r := repotest.Lucid(t)
	gittest.WriteFile(t, r.Top, "a.go", "package a\nfunc A() {}\n")
	e, err := Record(r, "claude/1", logformat.KindFact, "A is exported", r.Top, []string{"a.go:2"})
	if err != nil {
		t.Fatal(err)
	}
	got, invalid := logged(t, r.LogPath())
	if len(got) != 1 || invalid != 0 {
		t.Fatalf("the log holds %v (%d invalid), want the one entry", got, invalid)
	}
	g := got[0]
	if g.ID != e.ID || g.Agent != "claude/1" || g.Kind != logformat.KindFact || g.Text != "A is exported" {
		t.Fatalf("read back %+v, want %+v", g, e)
	}
	if len(g.Evidence) != 1 || g.Evidence[0].Path != "a.go" || g.Evidence[0].Line != 2 || g.Evidence[0].Text != "func A() {}" {
		t.Fatalf("evidence read back: %+v", g.Evidence)
	}
}

// Any error is found before anything is written.
func TestRecordRefusalsWriteNothing(t *testing.T) {
	r := repotest.Lucid(t)
	gittest.WriteFile(t, r.Top, "a.go", "x\n")
	for _, c := range []struct {
		text  string
		specs []string
		want  string
	}{
		{"  \n", nil, "the text is empty"},
		{"fine", []string{"a.go", "missing.go"}, "missing.go: no such file"},
		{"fine", []string{"a.go:9"}, "past the end"},
	} {
		if _, err := Record(r, "a", logformat.KindNote, c.text, r.Top, c.specs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Record(%q, %v): %v, want an error saying %q", c.text, c.specs, err, c.want)
		}
	}
	if got, _ := logged(t, r.LogPath()); len(got) != 0 {
		t.Fatalf("refused records wrote %v", got)
	}
}

func TestRecordNeedsLucidSetUp(t *testing.T) {
	r, err := gitstore.Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Record(r, "a", logformat.KindNote, "x", r.Top, nil); err != gitstore.ErrNotInitialised {
		t.Fatalf("Record without lucid init: %v", err)
	}
	if _, err := Supersede(r, "a", logformat.NewID(time.Now()), "x", false, r.Top, nil); err != gitstore.ErrNotInitialised {
		t.Fatalf("Supersede without lucid init: %v", err)
	}
}

func TestSupersedeAndRetire(t *testing.T) {
	r := repotest.Lucid(t)
	old, err := Record(r, "a", logformat.KindDecision, "use tabs", r.Top, nil)
	if err != nil {
		t.Fatal(err)
	}
	// An id is taken as `lucid log` shows it, whatever its case and spaces.
	by, err := Supersede(r, "b", " "+strings.ToLower(old.ID)+" ", "use spaces", false, r.Top, nil)
	if err != nil {
		t.Fatal(err)
	}
	if by.Kind != logformat.KindSupersede || by.Supersedes != old.ID || by.Retired || by.Text != "use spaces" {
		t.Fatalf("the replacement: %+v", by)
	}
	if _, err := Supersede(r, "c", old.ID, "use both", false, r.Top, nil); err == nil || !strings.Contains(err.Error(), "already superseded by "+by.ID) {
		t.Fatalf("a second replacement of %s: %v", old.ID, err)
	}
	ret, err := Supersede(r, "c", by.ID, "no longer matters", true, r.Top, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ret.Retired || ret.Supersedes != by.ID {
		t.Fatalf("the retirement: %+v", ret)
	}
	if _, err := Supersede(r, "c", by.ID, "again", false, r.Top, nil); err == nil || !strings.Contains(err.Error(), "already retired by "+ret.ID) {
		t.Fatalf("replacing a retired entry: %v", err)
	}
	if _, err := Supersede(r, "c", ret.ID, "undo", false, r.Top, nil); err == nil || !strings.Contains(err.Error(), "is a retirement") {
		t.Fatalf("replacing a retirement: %v", err)
	}
	if got, _ := logged(t, r.LogPath()); len(got) != 3 {
		t.Fatalf("the log holds %d entries, want 3: %v", len(got), got)
	}
}

func TestSupersedeRefusals(t *testing.T) {
	r := repotest.Lucid(t)
	missing := logformat.NewID(time.Now())
	for _, c := range []struct {
		id, text string
		retire   bool
		want     string
	}{
		{missing, "", false, "the new text is empty"},
		{missing, " ", true, "say why the entry no longer holds"},
		{"not-an-id", "x", false, `"NOT-AN-ID" is not an entry id`},
		{missing, "x", false, "no entry has the id " + missing},
	} {
		if _, err := Supersede(r, "a", c.id, c.text, c.retire, r.Top, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Supersede(%q, %q, retire %v): %v, want an error saying %q", c.id, c.text, c.retire, err, c.want)
		}
	}
}

// The check made before the lock is made again under it: a replacement
// appended by someone else in between is seen, also when the log was
// rewritten (a checkout) rather than appended to.
func TestSupersedeSeesWhatChangedBeforeTheLock(t *testing.T) {
	r := repotest.Lucid(t)
	target, err := Record(r, "a", logformat.KindFact, "x", r.Top, nil)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := r.Lock()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		_, err := Supersede(r, "b", target.ID, "mine", false, r.Top, nil)
		done <- err
	}()
	// While Supersede waits for the lock (or before it reads), the log is
	// rewritten, an entry from another branch before the target, and a
	// replacement of the target after it.
	before := logformat.NewEntry(time.Now(), "c", logformat.KindNote, "from another branch")
	other := logformat.NewEntry(time.Now(), "c", logformat.KindSupersede, "theirs")
	other.Supersedes = target.ID
	var content []byte
	for _, e := range []logformat.Entry{before, target, other} {
		line, _ := logformat.EncodeEntry(e)
		content = append(content, line...)
	}
	if err := gitstore.WriteFileAtomic(r.LogPath(), content, 0o644); err != nil {
		t.Fatal(err)
	}
	lock.Unlock()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "already superseded by "+other.ID) {
		t.Fatalf("Supersede after another replacement: %v", err)
	}
}

func TestDreamNeedsTheDigest(t *testing.T) {
	r := repotest.Lucid(t)
	if _, err := Dream(r, "a", r.Top); err == nil || !strings.Contains(err.Error(), gitstore.DigestName) {
		t.Fatalf("Dream without a digest: %v", err)
	}
	os.WriteFile(r.DigestPath(), nil, 0o644)
	if _, err := Dream(r, "a", r.Top); err == nil {
		t.Fatal("Dream with an empty digest wrote an entry")
	}
	os.WriteFile(filepath.Join(r.Top, gitstore.DigestName), []byte("# digest\n"), 0o644)
	e, err := Dream(r, "a", r.Top)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := logged(t, r.LogPath())
	if len(got) != 1 || got[0].ID != e.ID || got[0].Kind != logformat.KindDream {
		t.Fatalf("the log holds %v, want the dream point", got)
	}
}
