package lichguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// t0 is the time of the first edit in these tests.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

// lichRepo makes a repository with one commit and a.go, b.go, and returns
// its top and its git dir as git reports it.
func lichRepo(t *testing.T) (top, gitDir string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	top = filepath.Join(dir, "repo")
	gittest.Run(t, dir, "init", "-q", top)
	for _, f := range []string{"a.go", "b.go"} {
		os.WriteFile(filepath.Join(top, f), []byte("package a\n"), 0o644)
	}
	gittest.Run(t, top, "add", ".")
	gittest.Run(t, top, "commit", "-q", "-m", "first")
	return top, gittest.Run(t, top, "rev-parse", "--absolute-git-dir")
}

// fakeLich writes a stand-in for the lich binary that counts its runs in
// a file and then runs body; it returns the binary and a run counter.
func fakeLich(t *testing.T, body string) (bin string, runs func() int) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "lich")
	count := filepath.Join(dir, "runs")
	script := "#!/bin/sh\necho \"$*\" >> '" + count + "'\n" + body + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, func() int {
		b, err := os.ReadFile(count)
		if errors.Is(err, os.ErrNotExist) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if line != "sessions --json" {
				t.Fatalf("lich was run with %q", line)
			}
		}
		return strings.Count(string(b), "\n")
	}
}

const roster = `[{"id":"lich-a","label":"quiet-comet","name":"repo-7c0e","project":"repo","kind":"claude","state":"working"},` +
	`{"id":"lich-c","label":"amber-fox","name":"repo-11aa","project":"repo","kind":"claude","state":"idle"}]`

func mustAfter(t *testing.T, l *Session, now time.Time, paths ...string) {
	t.Helper()
	if warn := l.After(paths, now); warn != nil {
		t.Fatalf("After(%v): %v", paths, warn)
	}
}

func mustBefore(t *testing.T, l *Session, path string, now time.Time) string {
	t.Helper()
	note, warn := l.Before(path, now)
	if warn != nil {
		t.Fatalf("Before(%s): %v", path, warn)
	}
	return note
}

func markers(t *testing.T, gitDir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(gitDir, "lich-edits"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestLichNoteInsideTheWindow(t *testing.T) {
	top, _ := lichRepo(t)
	a, b := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}
	file := filepath.Join(top, "a.go")
	if note := mustBefore(t, a, file, t0); note != "" {
		t.Fatalf("a first edit got a note: %s", note)
	}
	mustAfter(t, a, t0, file)

	note := mustBefore(t, b, file, at(9*time.Minute))
	for _, want := range []string{file, "lich-a", "2026-03-01T12:00:00.000Z", "(9 min ago)", "Read the file again", "send_to_session", "lich send"} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
	if note := mustBefore(t, b, file, at(30*time.Second)); !strings.Contains(note, "(under a minute ago)") {
		t.Errorf("30 s later: %s", note)
	}
	if note := mustBefore(t, b, file, at(3*time.Minute+59*time.Second)); !strings.Contains(note, "(3 min ago)") {
		t.Errorf("3 min 59 s later: %s", note)
	}
	if note := mustBefore(t, b, file, at(11*time.Minute)); note != "" {
		t.Errorf("11 min later a note: %s", note)
	}
}

func TestLichNoNoteForOwnEditOrAnotherFile(t *testing.T) {
	top, gitDir := lichRepo(t)
	a, b := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}
	fa, fb := filepath.Join(top, "a.go"), filepath.Join(top, "b.go")
	mustAfter(t, a, t0, fa)
	if note := mustBefore(t, a, fa, at(time.Minute)); note != "" {
		t.Errorf("a session re-editing its own file: %s", note)
	}
	if note := mustBefore(t, b, fb, at(time.Minute)); note != "" {
		t.Errorf("another file: %s", note)
	}
	mustAfter(t, b, at(time.Minute), fb)
	if got := markers(t, gitDir); len(got) != 2 {
		t.Fatalf("markers %v, want one for each file", got)
	}
	for _, c := range []struct{ file, session string }{{fa, "lich-a"}, {fb, "lich-b"}} {
		r, _ := gitstore.Find(c.file)
		m, err := lichstore.ReadMarker(r, c.file)
		if err != nil || m == nil || m.Session != c.session {
			t.Errorf("marker of %s: %+v, %v", c.file, m, err)
		}
	}
}

// TestLichNewsIsWhatCameAfterOwnEdit: a session that edited the file after
// another is not told again about that other edit, and hears of every
// session that edited it since, inside the window.
func TestLichNewsIsWhatCameAfterOwnEdit(t *testing.T) {
	top, _ := lichRepo(t)
	a, b, c, d := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}, &Session{Name: "lich-c"}, &Session{Name: "lich-d"}
	file := filepath.Join(top, "a.go")
	mustAfter(t, b, t0, file)
	mustAfter(t, a, at(1*time.Minute), file)
	if note := mustBefore(t, a, file, at(2*time.Minute)); note != "" {
		t.Errorf("a edited after b, and is told about b again: %s", note)
	}
	mustAfter(t, b, at(3*time.Minute), file)
	mustAfter(t, c, at(4*time.Minute), file)
	note := mustBefore(t, a, file, at(5*time.Minute))
	if !strings.Contains(note, "lich-b at 2026-03-01T12:03:00.000Z (2 min ago)") ||
		!strings.Contains(note, "lich-c at 2026-03-01T12:04:00.000Z (1 min ago)") ||
		strings.Index(note, "lich-c") > strings.Index(note, "lich-b") {
		t.Errorf("note should name lich-c, then lich-b:\n%s", note)
	}
	// d never edited: every session is news while inside the window.
	note = mustBefore(t, d, file, at(10*time.Minute+59*time.Second))
	if !strings.Contains(note, "lich-a at 2026-03-01T12:01:00.000Z (9 min ago)") || !strings.Contains(note, "3 other lich sessions") {
		t.Errorf("at +10:59 all three are inside the window:\n%s", note)
	}
	note = mustBefore(t, d, file, at(11*time.Minute+30*time.Second))
	if strings.Contains(note, "lich-a") || !strings.Contains(note, "lich-b") || !strings.Contains(note, "lich-c") {
		t.Errorf("at +11:30 lich-a's edit (+1 min) is out of the window:\n%s", note)
	}
}

func TestLichWriteInNewFoldersAndNotebook(t *testing.T) {
	top, gitDir := lichRepo(t)
	a, b := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}
	fresh := filepath.Join(top, "new", "deep", "x.go") // a Write that makes new folders
	notebook := filepath.Join(top, "nb.ipynb")         // NotebookEdit's notebook_path
	for _, file := range []string{fresh, notebook} {
		if note := mustBefore(t, a, file, t0); note != "" {
			t.Fatalf("%s: note before any edit: %s", file, note)
		}
		if strings.HasSuffix(file, "x.go") {
			os.MkdirAll(filepath.Dir(file), 0o755)
		}
		os.WriteFile(file, []byte("{}\n"), 0o644)
		mustAfter(t, a, t0, file)
		if _, err := os.Stat(filepath.Join(gitDir, "lich-edits", lichstore.Hash(file))); err != nil {
			t.Fatalf("%s: no marker in the git dir: %v", file, err)
		}
		if note := mustBefore(t, b, file, at(2*time.Minute)); !strings.Contains(note, "lich-a") || !strings.Contains(note, file) {
			t.Errorf("%s: note %q", file, note)
		}
	}
	// The folders not made yet: the nearest existing folder finds the git dir.
	ghost := filepath.Join(top, "not", "yet", "y.go")
	mustAfter(t, a, t0, ghost)
	if _, err := os.Stat(filepath.Join(gitDir, "lich-edits", lichstore.Hash(ghost))); err != nil {
		t.Fatalf("no marker for a path whose folders do not exist: %v", err)
	}
	if _, err := os.Stat(filepath.Join(top, "not")); err == nil {
		t.Fatal("After made the file's folders")
	}
}

func TestLichLinkedWorkTreeAndBashFiles(t *testing.T) {
	top, mainGitDir := lichRepo(t)
	linked := filepath.Join(filepath.Dir(top), "linked")
	gittest.Run(t, top, "worktree", "add", "-q", linked)
	linkedGitDir := gittest.Run(t, linked, "rev-parse", "--absolute-git-dir")
	a, b := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}
	// A shell command's changedFiles, across both work trees.
	changed := []string{filepath.Join(linked, "a.go"), filepath.Join(linked, "b.go"), filepath.Join(top, "b.go")}
	mustAfter(t, a, t0, changed...)
	if got := markers(t, linkedGitDir); len(got) != 2 {
		t.Fatalf("linked git dir holds %v, want the markers of a.go and b.go", got)
	}
	if got := markers(t, mainGitDir); len(got) != 1 || got[0] != lichstore.Hash(filepath.Join(top, "b.go")) {
		t.Fatalf("main git dir holds %v, want b.go's marker", got)
	}
	if note := mustBefore(t, b, filepath.Join(top, "a.go"), at(time.Minute)); note != "" {
		t.Errorf("main a.go was not edited: %s", note)
	}
	if note := mustBefore(t, b, filepath.Join(linked, "a.go"), at(time.Minute)); !strings.Contains(note, "lich-a") {
		t.Errorf("linked a.go, edited by a shell command of lich-a: %q", note)
	}
	// The status line of a session in either work tree reads the same news.
	if s := Status(top, "lich-b", at(2*time.Minute)); s != "a.go also edited by lich-a" {
		t.Errorf("status from the main work tree: %q", s)
	}
}

// snapshot lists every file and folder under dir.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		b.WriteString(p + "\n")
		return nil
	})
	return b.String()
}

func TestLichOutsideGit(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	file := filepath.Join(dir, "a.go")
	os.WriteFile(file, []byte("x\n"), 0o644)
	bin, runs := fakeLich(t, "echo '"+roster+"'")
	before := snapshot(t, dir)
	a, b := &Session{Name: "lich-a", Bin: bin}, &Session{Name: "lich-b", Bin: bin}
	mustAfter(t, a, t0, file, filepath.Join(dir, "new", "b.go"))
	if note := mustBefore(t, b, file, at(time.Minute)); note != "" {
		t.Errorf("note outside git: %s", note)
	}
	mustAfter(t, b, at(time.Minute), file)
	if after := snapshot(t, dir); after != before {
		t.Errorf("outside git the folder changed:\n%s\nwas\n%s", after, before)
	}
	if n := runs(); n != 0 {
		t.Errorf("lich was asked %d times outside git", n)
	}
	if s := Status(dir, "lich-b", at(time.Minute)); s != "" {
		t.Errorf("status outside git: %q", s)
	}
}

func oneLine(t *testing.T, warn error) {
	t.Helper()
	if warn == nil {
		t.Fatal("no warning")
	}
	if !strings.HasPrefix(warn.Error(), "lucid lich: ") || strings.ContainsAny(warn.Error(), "\r\n") {
		t.Fatalf("warning is not one line starting \"lucid lich: \": %q", warn)
	}
}

func TestLichCorruptMarker(t *testing.T) {
	top, gitDir := lichRepo(t)
	file := filepath.Join(top, "a.go")
	marker := filepath.Join(gitDir, "lich-edits", lichstore.Hash(file))
	os.MkdirAll(filepath.Dir(marker), 0o755)
	os.WriteFile(marker, []byte(`{"path":"`+file+`","sess`), 0o644)
	a, b := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}

	note, warn := b.Before(file, t0)
	if note != "" {
		t.Errorf("note from a corrupt marker: %s", note)
	}
	oneLine(t, warn)
	if !strings.Contains(warn.Error(), "corrupt") {
		t.Errorf("warning does not say the marker is corrupt: %v", warn)
	}
	mustAfter(t, a, t0, file) // the edit goes on, and its marker replaces the corrupt one
	if note := mustBefore(t, b, file, at(time.Minute)); !strings.Contains(note, "lich-a") {
		t.Errorf("after the repair: %q", note)
	}
}

// TestLichUnwritableMarkers: a lich-edits that cannot be written (a
// read-only folder, or, as root, where permissions do not bite, a file
// in its place) is a warning, and nothing else.
func TestLichUnwritableMarkers(t *testing.T) {
	top, gitDir := lichRepo(t)
	file := filepath.Join(top, "a.go")
	edits := filepath.Join(gitDir, "lich-edits")
	if os.Geteuid() == 0 {
		os.WriteFile(edits, []byte("in the way\n"), 0o644)
	} else {
		os.Mkdir(edits, 0o555)
		t.Cleanup(func() { os.Chmod(edits, 0o755) })
	}
	a, b := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}
	warn := a.After([]string{file, filepath.Join(top, "b.go")}, t0)
	oneLine(t, warn)
	if !strings.Contains(warn.Error(), "a.go") || !strings.Contains(warn.Error(), "b.go") {
		t.Errorf("warning should name both files: %v", warn)
	}
	note, warn := b.Before(file, at(time.Minute))
	if note != "" {
		t.Errorf("note with no marker: %s", note)
	}
	if warn != nil {
		oneLine(t, warn)
	}
}

func TestLichLabels(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       string // how the note names lich-a
		runs       int
		warns      bool
	}{
		{"on the roster", "echo '" + roster + "'", `"quiet-comet" at`, 1, false},
		{"LICH_BIN unset", "", "lich-a at", 0, false},
		{"exit 1", "echo '" + roster + "'; exit 1", "lich-a at", 1, true},
		{"times out", "sleep 30; echo '" + roster + "'", "lich-a at", 1, true},
		{"not JSON", "echo 'lich: no server running'", "lich-a at", 1, true},
		{"no ids (lich before 0.60.0)", `echo '[{"label":"quiet-comet","name":"repo-7c0e","project":"repo"}]'`, "lich-a at", 1, false},
		{"session not listed", `echo '[{"id":"lich-z","label":"quiet-comet"}]'`, "lich-a at", 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			top, _ := lichRepo(t)
			file := filepath.Join(top, "a.go")
			bin, runs := fakeLich(t, c.body)
			if c.name == "LICH_BIN unset" {
				bin = ""
			}
			a := &Session{Name: "lich-a", Bin: bin}
			b := &Session{Name: "lich-b", Bin: bin, RosterTimeout: 300 * time.Millisecond}
			mustAfter(t, a, t0, file)
			if n := runs(); n != 0 {
				t.Fatalf("After asked lich %d times", n)
			}
			start := time.Now()
			note, warn := b.Before(file, at(time.Minute))
			if elapsed := time.Since(start); elapsed > 10*time.Second {
				t.Fatalf("Before waited %v on a lich that sleeps 30 s", elapsed)
			}
			if !strings.Contains(note, "the lich session "+c.want) {
				t.Errorf("note names lich-a as? want %q:\n%s", c.want, note)
			}
			if c.want != `"quiet-comet" at` && strings.Contains(note, "quiet-comet") {
				t.Errorf("label used though lich did not give it for lich-a: %s", note)
			}
			if c.warns {
				oneLine(t, warn)
			} else if warn != nil {
				t.Errorf("warning %v", warn)
			}
			if n := runs(); n != c.runs {
				t.Errorf("lich asked %d times, want %d", n, c.runs)
			}
			// No news, no roster.
			if note := mustBefore(t, a, file, at(2*time.Minute)); note != "" {
				t.Errorf("a's own file: %s", note)
			}
			if n := runs(); n != c.runs {
				t.Errorf("lich asked %d times without a note", n-c.runs)
			}
		})
	}
}

func TestLichRosterOncePerNote(t *testing.T) {
	top, _ := lichRepo(t)
	file := filepath.Join(top, "a.go")
	bin, runs := fakeLich(t, "echo '"+roster+"'")
	for i, s := range []string{"lich-a", "lich-b", "lich-c"} {
		mustAfter(t, &Session{Name: s, Bin: bin}, at(time.Duration(i)*time.Minute), file)
	}
	d := &Session{Name: "lich-d", Bin: bin}
	note := mustBefore(t, d, file, at(3*time.Minute))
	if n := runs(); n != 1 {
		t.Fatalf("a note naming three sessions asked lich %d times", n)
	}
	for _, want := range []string{`"amber-fox" at 2026-03-01T12:02:00.000Z (1 min ago)`, `lich-b at 2026-03-01T12:01:00.000Z (2 min ago)`, `"quiet-comet" at 2026-03-01T12:00:00.000Z (3 min ago)`, "3 other lich sessions", "send_to_session", "lich send"} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
	mustBefore(t, d, filepath.Join(top, "b.go"), at(3*time.Minute))
	mustBefore(t, d, file, at(20*time.Minute))
	if n := runs(); n != 1 {
		t.Fatalf("lich asked %d times in all, want only for the one note", n)
	}
}

func TestStatus(t *testing.T) {
	top, _ := lichRepo(t)
	fa, fb := filepath.Join(top, "a.go"), filepath.Join(top, "b.go")
	bin, _ := fakeLich(t, "echo '"+roster+"'")
	a, b, c := &Session{Name: "lich-a", Bin: bin}, &Session{Name: "lich-b", Bin: bin}, &Session{Name: "lich-c", Bin: bin}
	if s := Status(top, "lich-b", t0); s != "" {
		t.Fatalf("status with no news: %q", s)
	}
	mustAfter(t, a, t0, fa)
	if s := Status(top, "lich-b", at(time.Minute)); s != "" {
		t.Fatalf("status before any note was given: %q", s)
	}
	mustBefore(t, b, fa, at(3*time.Minute))
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{3 * time.Minute, `a.go also edited by "quiet-comet"`}, {9*time.Minute + 59*time.Second, `a.go also edited by "quiet-comet"`}, {10 * time.Minute, ""}} {
		if s := Status(top, "lich-b", at(c.d)); s != c.want {
			t.Errorf("at +%v: %q, want %q", c.d, s, c.want)
		}
	}
	if s := Status(top, "lich-a", at(4*time.Minute)); s != "" {
		t.Errorf("lich-a was told nothing, its status is %q", s)
	}
	// A newer note replaces the older: b.go, edited by lich-c at +8.
	mustAfter(t, c, at(8*time.Minute), fb)
	mustBefore(t, b, fb, at(9*time.Minute))
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{9 * time.Minute, `b.go also edited by "amber-fox"`}, {12 * time.Minute, `b.go also edited by "amber-fox"`}, {18 * time.Minute, ""}} {
		if s := Status(top, "lich-b", at(c.d)); s != c.want {
			t.Errorf("at +%v: %q, want %q", c.d, s, c.want)
		}
	}
	// A newer note about an older edit still replaces: the newest note wins.
	mustAfter(t, a, at(10*time.Minute), fa)
	mustBefore(t, c, fa, at(17*time.Minute)) // c is told about a's edit of +10
	mustAfter(t, b, at(17*time.Minute), fb)
	mustBefore(t, c, fb, at(18*time.Minute)) // then about b's edit of +17
	if s := Status(top, "lich-c", at(19*time.Minute)); s != "b.go also edited by lich-b" {
		t.Errorf("after two notes: %q", s)
	}
}

// TestLichReadsLichsOwnMarker: a marker exactly as lich's guard writes it
// gives the note, and lucid's edit over it keeps lich's session as recent.
func TestLichReadsLichsOwnMarker(t *testing.T) {
	top, gitDir := lichRepo(t)
	file := filepath.Join(top, "a.go")
	edits := filepath.Join(gitDir, "lich-edits")
	os.MkdirAll(edits, 0o755)
	lichAt := at(-2 * time.Minute).UnixMilli()
	os.WriteFile(filepath.Join(edits, lichstore.Hash(file)),
		[]byte(`{"path":"`+file+`","session":"s1","at":`+itoa(lichAt)+`}`), 0o644)
	b := &Session{Name: "s2"}
	if note := mustBefore(t, b, file, t0); !strings.Contains(note, "the lich session s1 at 2026-03-01T11:58:00.000Z (2 min ago)") {
		t.Fatalf("note on lich's marker: %q", note)
	}
	mustAfter(t, b, t0, file)
	if note := mustBefore(t, &Session{Name: "s3"}, file, at(time.Minute)); !strings.Contains(note, "s2 at") || !strings.Contains(note, "s1 at") {
		t.Fatalf("after lucid's edit over lich's marker: %q", note)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestFromEnv(t *testing.T) {
	t.Setenv("LICH_SESSION_ID", "")
	t.Setenv("LICH_BIN", "/opt/lich")
	if l := FromEnv(); l != nil {
		t.Fatalf("outside lich: %+v", l)
	}
	t.Setenv("LICH_SESSION_ID", "lich-a")
	if l := FromEnv(); l == nil || l.Name != "lich-a" || l.Bin != "/opt/lich" {
		t.Fatalf("inside lich: %+v", l)
	}
}

// BenchmarkLichBeforeNoNews is the cost PreToolUse pays on every edit
// inside lich when nobody else edited the file.
func BenchmarkLichBeforeNoNews(b *testing.B) {
	dir, _ := filepath.EvalSymlinks(b.TempDir())
	top := filepath.Join(dir, "repo")
	gittest.Run(b, dir, "init", "-q", top)
	file := filepath.Join(top, "src", "a.go")
	os.MkdirAll(filepath.Dir(file), 0o755)
	l := &Session{Name: "lich-a", Bin: "/nonexistent/lich"}
	if warn := l.After([]string{file}, t0); warn != nil {
		b.Fatal(warn)
	}
	b.ResetTimer()
	for b.Loop() {
		if note, warn := l.Before(file, at(time.Minute)); note != "" || warn != nil {
			b.Fatal(note, warn)
		}
	}
}

// Where the file system folds case, a session's edit of A.GO and another's
// of a.go meet in one marker, named and written as lich's guard writes the
// marker of an edit of a.go: lich's sessions whose tool writes the file's
// own spelling, as tools do, share it.
func TestLichFoldsCase(t *testing.T) {
	top, gitDir := lichRepo(t)
	gittest.Run(t, top, "config", "core.ignorecase", "true")
	a, b := &Session{Name: "lich-a"}, &Session{Name: "lich-b"}
	mustAfter(t, a, t0, filepath.Join(top, "A.GO"))
	file := filepath.Join(top, "a.go")
	want := `{"path":` + strconv.Quote(file) + `,"session":"lich-a","at":` + strconv.FormatInt(t0.UnixMilli(), 10) + `}`
	got, err := os.ReadFile(filepath.Join(gitDir, gitstore.LichEditsDir, lichstore.Hash(file)))
	if err != nil || string(got) != want {
		t.Fatalf("the marker of a.go: %q (%v), want %q", got, err, want)
	}
	if note := mustBefore(t, b, filepath.Join(top, "a.GO"), at(time.Minute)); !strings.Contains(note, "lich-a") {
		t.Errorf("an edit of a.GO after A.GO's: note %q", note)
	}
}
