package logstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

func TestCiteRecordsPathHashAndLine(t *testing.T) {
	r := repotest.Lucid(t)
	gittest.WriteFile(t, r.Top, "src/a.go", "package a\r\n\n   func A() {}   \n")
	sub := filepath.Join(r.Top, "src")
	for _, c := range []struct {
		cwd, spec string
		want      logformat.Evidence
	}{
		{r.Top, "src/a.go", logformat.Evidence{Path: "src/a.go"}},
		{sub, "a.go", logformat.Evidence{Path: "src/a.go"}},
		{sub, filepath.Join(sub, "a.go") + ":3", logformat.Evidence{Path: "src/a.go", Line: 3, Text: "func A() {}"}},
		{r.Top, "src/a.go:1", logformat.Evidence{Path: "src/a.go", Line: 1, Text: "package a"}},
		{r.Top, "src/a.go:2", logformat.Evidence{Path: "src/a.go", Line: 2}},
	} {
		c.want.Blake3 = HashHex([]byte("package a\r\n\n   func A() {}   \n"))
		got, err := Cite(r, c.cwd, c.spec)
		if err != nil || got != c.want {
			t.Errorf("Cite(%s, %s) = %+v, %v; want %+v", c.cwd, c.spec, got, err, c.want)
		}
	}
}

func TestCiteKeepsLongLinesShort(t *testing.T) {
	r := repotest.Lucid(t)
	gittest.WriteFile(t, r.Top, "long.txt", strings.Repeat("y", 500))
	ev, err := Cite(r, r.Top, "long.txt:1")
	if err != nil || ev.Text != strings.Repeat("y", maxLineText) {
		t.Fatalf("Cite of a 500-byte line: %q, %v", ev.Text, err)
	}
}

// A file whose name ends in ":NUMBER" or ":WORD" is cited as the file.
func TestCiteOfAFileNamedWithAColon(t *testing.T) {
	r := repotest.Lucid(t)
	gittest.WriteFile(t, r.Top, "a:1", "x\ny\n")
	gittest.WriteFile(t, r.Top, "b:c", "z\n")
	for _, spec := range []string{"a:1", "b:c"} {
		ev, err := Cite(r, r.Top, spec)
		if err != nil || ev.Path != spec || ev.Line != 0 {
			t.Errorf("Cite(%s) = %+v, %v; want the file %s, no line", spec, ev, err, spec)
		}
	}
}

func TestCiteRefusals(t *testing.T) {
	r := repotest.Lucid(t)
	gittest.WriteFile(t, r.Top, "a.go", "one\ntwo\n")
	gittest.WriteFile(t, r.Top, "empty", "")
	os.Mkdir(filepath.Join(r.Top, "dir"), 0o755)
	outside := gittest.WriteFile(t, t.TempDir(), "out.go", "x\n")
	for spec, want := range map[string]string{
		"":          "evidence is empty",
		"a.go:0":    "line numbers start at 1",
		"a.go:3":    "line 3 is past the end of the file (2 lines)",
		"gone.go":   "evidence gone.go: no such file",
		"gone.go:4": "evidence gone.go:4: no such file",
		"gone.go:x": "evidence gone.go:x: no such file",
		"empty:1":   "line 1 is past the end of the file (0 lines)",
		"dir":       "is a folder; cite a file",
		outside:     "is outside the work tree",
		".git/HEAD": "inside .git",
	} {
		ev, err := Cite(r, r.Top, spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Cite(%q) = %+v, %v; want an error saying %q", spec, ev, err, want)
		}
	}
}

func TestCheckSaysHowEvidenceWentStale(t *testing.T) {
	r := repotest.Lucid(t)
	const before = "package a\n\nfunc A() {}\n\nfunc B() {}\n"
	files := []string{"same.go", "whole.go", "kept.go", "moved.go", "gone.go", "rewritten.go", "blank.go", "removed.go"}
	for _, f := range files {
		gittest.WriteFile(t, r.Top, f, before)
	}
	var evidence []logformat.Evidence
	for _, spec := range []string{"same.go:3", "whole.go", "kept.go:3", "moved.go:3", "gone.go:3", "rewritten.go:3", "blank.go:2", "removed.go"} {
		ev, err := Cite(r, r.Top, spec)
		if err != nil {
			t.Fatal(err)
		}
		evidence = append(evidence, ev)
	}
	if stale := NewChecker(r).Check(evidence); stale != nil {
		t.Fatalf("nothing changed, yet stale: %v", stale)
	}
	gittest.WriteFile(t, r.Top, "whole.go", before+"// more\n")
	gittest.WriteFile(t, r.Top, "kept.go", before+"// more\n")
	gittest.WriteFile(t, r.Top, "moved.go", "// a comment\n// another\n"+before)
	gittest.WriteFile(t, r.Top, "gone.go", "package a\n\nfunc B() {}\n")
	gittest.WriteFile(t, r.Top, "rewritten.go", "func A() {}\n\n\n\n\n\n\nfunc A() {}\n")
	gittest.WriteFile(t, r.Top, "blank.go", "package b\n\n")
	os.Remove(filepath.Join(r.Top, "removed.go"))

	got := NewChecker(r).Check(evidence)
	want := []string{
		"⚠stale: whole.go changed",
		"⚠stale: kept.go changed (line 3 still reads the same)",
		"⚠stale: moved.go changed (line 3 is now at 5)",
		"⚠stale: gone.go changed (line 3's text is gone)",
		"⚠stale: rewritten.go changed (line 3 is now at 1)", // the nearest of two
		"⚠stale: blank.go changed",
		"⚠stale: removed.go is gone",
	}
	if len(got) != len(want) {
		t.Fatalf("Check: %v; want %d stale", got, len(want))
	}
	for i, s := range got {
		if s.String() != want[i] {
			t.Errorf("stale %d: %q, want %q", i, s.String(), want[i])
		}
		if s.Index != i+1 || s.Path != evidence[i+1].Path {
			t.Errorf("stale %d names evidence %d (%s), want %d (%s)", i, s.Index, s.Path, i+1, evidence[i+1].Path)
		}
	}
}

// A path from the log that leads out of the work tree, or to what is not
// a regular file, is refused, not read.
func TestCheckRefusesWhatItMustNotRead(t *testing.T) {
	r := repotest.Lucid(t)
	outside := gittest.WriteFile(t, t.TempDir(), "secret", "s\n")
	os.Mkdir(filepath.Join(r.Top, "dir"), 0o755)
	links := true
	if err := os.Symlink(outside, filepath.Join(r.Top, "link")); err != nil {
		links = false
	}
	evidence := []logformat.Evidence{
		{Path: "../secret", Blake3: HashHex([]byte("s\n"))},
		{Path: "dir", Blake3: HashHex(nil)},
	}
	want := []string{
		"⚠stale: ../secret not checked: the path leaves the work tree",
		"⚠stale: dir not checked: it is a folder",
	}
	if links {
		evidence = append(evidence, logformat.Evidence{Path: "link", Blake3: HashHex([]byte("s\n"))})
		want = append(want, "⚠stale: link not checked: it resolves to "+outside+", outside the work tree")
	}
	got := NewChecker(r).Check(evidence)
	if len(got) != len(want) {
		t.Fatalf("Check: %v; want %d refused", got, len(want))
	}
	for i, s := range got {
		if s.String() != want[i] || s.Refused == "" {
			t.Errorf("stale %d: %q (refused %q), want %q", i, s.String(), s.Refused, want[i])
		}
	}
}

// One Checker reads each file once: what it saw of a file holds for the
// whole listing, even if the file changes meanwhile.
func TestCheckerReadsEachFileOnce(t *testing.T) {
	r := repotest.Lucid(t)
	gittest.WriteFile(t, r.Top, "a.go", "one\n")
	ev, err := Cite(r, r.Top, "a.go")
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(r)
	if s := c.Check([]logformat.Evidence{ev}); s != nil {
		t.Fatal(s)
	}
	gittest.WriteFile(t, r.Top, "a.go", "two\n")
	if s := c.Check([]logformat.Evidence{ev}); s != nil {
		t.Fatalf("the same Checker read a.go again: %v", s)
	}
	if s := NewChecker(r).Check([]logformat.Evidence{ev}); len(s) != 1 {
		t.Fatalf("a new Checker does not see the change: %v", s)
	}
}

// A file over MaxEvidence cannot be cited, and a cited file that grew past
// it is not read, and says so.
func TestEvidenceOverTheLimit(t *testing.T) {
	r := repotest.Lucid(t)
	path := gittest.WriteFile(t, r.Top, "big.bin", "small\n")
	ev, err := Cite(r, r.Top, "big.bin")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, gitstore.MaxEvidence+1); err != nil { // sparse: no time to write
		t.Fatal(err)
	}
	if _, err := Cite(r, r.Top, "big.bin"); err == nil {
		t.Fatal("a file over the limit was cited")
	}
	got := NewChecker(r).Check([]logformat.Evidence{ev})
	if want := "⚠stale: big.bin not checked: it is over " + gitstore.SizeText(gitstore.MaxEvidence); len(got) != 1 || got[0].String() != want {
		t.Fatalf("Check: %v, want %q", got, want)
	}
}
