package guard

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The corpus is testdata/shellwrites/*.txt at the top of the repository;
// its README says how it is written.
const corpusDir = "../testdata/shellwrites"

// shellCase is one command of the corpus and the writes expected of it.
type shellCase struct {
	file    string
	line    int
	cwd     string
	command string
	want    []ShellWrite
	unsure  string // the ShellAnalysis.Unsure expected
	kinds   map[string]pathKind
}

// readCorpus parses every corpus file.
func readCorpus(t testing.TB) []shellCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", corpusDir, err)
	}
	var cases []shellCase
	for _, name := range files {
		cases = append(cases, readCorpusFile(t, name)...)
	}
	return cases
}

func readCorpusFile(t testing.TB, name string) []shellCase {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	base := filepath.Base(name)
	cwd := "/repo/sub"
	kinds := map[string]pathKind{"/repo": kindDir, "/repo/sub": kindDir}
	var cases []shellCase
	var cur *shellCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fail := func(msg string) { t.Fatalf("%s:%d: %s: %q", base, n, msg, line) }
		switch {
		case strings.HasPrefix(line, "$ "):
			cases = append(cases, shellCase{file: base, line: n, cwd: cwd, command: line[2:], kinds: kinds})
			cur = &cases[len(cases)-1]
		case line == "|" || strings.HasPrefix(line, "| "):
			if cur == nil || len(cur.want) > 0 {
				fail("a continuation line belongs right after its $ line")
			}
			cur.command += "\n" + strings.TrimPrefix(strings.TrimPrefix(line, "|"), " ")
		case strings.HasPrefix(line, "> "):
			open := strings.LastIndex(line, " [")
			if cur == nil || open < 0 || !strings.HasSuffix(line, "]") {
				fail("want `> /abs/path [by]` after a $ line")
			}
			sw := ShellWrite{Path: line[2:open], By: line[open+2 : len(line)-1]}
			if path, under, ok := strings.Cut(sw.Path, " ("); ok && strings.HasSuffix(under, ")") {
				sw.Path, sw.Under = path, under[:len(under)-1]
			}
			cur.want = append(cur.want, sw)
		case strings.HasPrefix(line, "? "):
			if cur == nil || cur.unsure != "" {
				fail("want one `? reason` after a $ line")
			}
			cur.unsure = line[2:]
		case line == "" || strings.HasPrefix(line, "#"):
			cur = nil
		case strings.HasPrefix(line, "cwd "):
			cwd = line[4:]
		case strings.HasPrefix(line, "dir "):
			kinds[line[4:]] = kindDir
		case strings.HasPrefix(line, "file "):
			kinds[line[5:]] = kindFile
		default:
			fail("unknown line")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func (c shellCase) kind(p string) pathKind { return c.kinds[p] }

func formatWrites(ws []ShellWrite) string {
	if len(ws) == 0 {
		return "  (nothing)\n"
	}
	var b strings.Builder
	for _, w := range ws {
		if w.Under != "" {
			fmt.Fprintf(&b, "  > %s (%s) [%s]\n", w.Path, w.Under, w.By)
			continue
		}
		fmt.Fprintf(&b, "  > %s [%s]\n", w.Path, w.By)
	}
	return b.String()
}

func TestShellWritesCorpus(t *testing.T) {
	cases := readCorpus(t)
	if len(cases) < 150 {
		t.Errorf("the corpus has %d commands; it should keep at least 150", len(cases))
	}
	for _, c := range cases {
		got := analyzeShell(c.command, c.cwd, c.kind)
		if formatWrites(got.Writes) != formatWrites(c.want) {
			t.Errorf("%s:%d: $ %s\ngot:\n%swant:\n%s", c.file, c.line, c.command, formatWrites(got.Writes), formatWrites(c.want))
		}
		if got.Unsure != c.unsure {
			t.Errorf("%s:%d: $ %s\nunsure %q, want %q", c.file, c.line, c.command, got.Unsure, c.unsure)
		}
	}
}

// TestShellWritesDisk checks the folder detection on a real disk: cp and
// mv into an existing folder keep the source's name, into a new name they
// do not, and git checkout of an existing file is a path, not a branch.
func TestShellWritesDisk(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want []ShellWrite
	}{
		{"cp logo.png assets", []ShellWrite{{Path: filepath.Join(dir, "assets", "logo.png"), By: "cp"}}},
		{"cp logo.png fresh", []ShellWrite{{Path: filepath.Join(dir, "fresh"), By: "cp"}}},
		{"mv a.txt assets", []ShellWrite{{Path: filepath.Join(dir, "a.txt"), By: "mv"}, {Path: filepath.Join(dir, "assets", "a.txt"), By: "mv"}}},
		{"git checkout main.go", []ShellWrite{{Path: filepath.Join(dir, "main.go"), By: "git checkout"}}},
		{"git checkout develop", nil},
	} {
		got := ShellWrites(tc.cmd, dir)
		if formatWrites(got) != formatWrites(tc.want) {
			t.Errorf("$ %s\ngot:\n%swant:\n%s", tc.cmd, formatWrites(got), formatWrites(tc.want))
		}
	}
}

// checkWrites asserts what every result must be, whatever the command:
// absolute clean paths, nothing unknown in them, no device, each once.
func checkWrites(t *testing.T, cmd string, ws []ShellWrite) {
	t.Helper()
	seen := map[string]bool{}
	for _, w := range ws {
		switch {
		case !filepath.IsAbs(w.Path) || filepath.Clean(w.Path) != w.Path:
			t.Fatalf("%q: path %q is not absolute and clean", cmd, w.Path)
		case strings.Contains(w.Path, shUnknown):
			t.Fatalf("%q: path %q holds an unknown part", cmd, w.Path)
		case strings.HasPrefix(w.Path, "/dev/"):
			t.Fatalf("%q: device %q reported", cmd, w.Path)
		case w.By == "":
			t.Fatalf("%q: %q has no writer", cmd, w.Path)
		case seen[w.Path+"\x00"+w.Under]:
			t.Fatalf("%q: %q (%q) reported twice", cmd, w.Path, w.Under)
		}
		seen[w.Path+"\x00"+w.Under] = true
	}
}

func FuzzShellWrites(f *testing.F) {
	for _, c := range readCorpus(f) {
		f.Add(c.command)
	}
	dirs := func(string) pathKind { return kindDir }
	f.Fuzz(func(t *testing.T, cmd string) {
		checkWrites(t, cmd, shellWrites(cmd, "/repo/sub", dirs))
		checkWrites(t, cmd, shellWrites(cmd, "/repo/sub", func(string) pathKind { return kindNone }))
		// Without a known directory only absolute paths can come out, and
		// each of them also comes out when the directory is known.
		known := shellWrites(cmd, "/repo/sub", dirs)
		for _, w := range shellWrites(cmd, "", dirs) {
			if !slices.ContainsFunc(known, func(k ShellWrite) bool { return k.Path == w.Path && k.Under == w.Under }) {
				t.Fatalf("%q: %q found only without a directory", cmd, w.Path)
			}
		}
	})
}

// BenchmarkShellWrites measures the analysis on commands of the kind the
// hook sees on every Bash call, and on the whole corpus.
func BenchmarkShellWrites(b *testing.B) {
	for _, bc := range []struct{ name, cmd string }{
		{"readonly", `go test ./... 2>&1 | tail -20`},
		{"typical", `cd web && npm run build > build.log 2>&1 && cp -r dist ../public`},
		{"sed", `sed -i -e 's/foo/bar/g' internal/a.go internal/b.go`},
		{"heredoc", "python3 - <<'EOF'\nimport json\nd = json.load(open('package.json'))\nd['version'] = '2.0.0'\nwith open('package.json', 'w') as f:\n    json.dump(d, f, indent=2)\nEOF"},
		{"nested", `bash -c "cd docs && sed -i 's/v1/v2/' index.md" && git checkout -- go.sum`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				ShellWrites(bc.cmd, "/repo/sub")
			}
		})
	}
	// The parse alone, for comparison: the rest of "typical" is the walk.
	b.Run("parse-typical", func(b *testing.B) {
		for b.Loop() {
			parseShell(`cd web && npm run build > build.log 2>&1 && cp -r dist ../public`)
		}
	})
	cases := readCorpus(b)
	b.Run("corpus", func(b *testing.B) {
		for b.Loop() {
			for _, c := range cases {
				ShellWrites(c.command, c.cwd)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/command")
	})
}

// TestShellLimits checks that a command past the step budget or the size
// limit is reported as not read whole, with what was found before it.
func TestShellLimits(t *testing.T) {
	long := "touch early.txt; " + strings.Repeat("true; ", maxShellSteps) + "touch late.txt"
	got := AnalyzeShell(long, "/repo")
	if got.Unsure != unsureSteps {
		t.Errorf("%d statements: unsure %q, want %q", maxShellSteps+2, got.Unsure, unsureSteps)
	}
	if want := []ShellWrite{{Path: "/repo/early.txt", By: "touch"}}; formatWrites(got.Writes) != formatWrites(want) {
		t.Errorf("%d statements: got\n%swant\n%s", maxShellSteps+2, formatWrites(got.Writes), formatWrites(want))
	}
	if got := AnalyzeShell("touch a.txt; "+strings.Repeat("true; ", 100), "/repo"); got.Unsure != "" {
		t.Errorf("a short command is unsure: %q", got.Unsure)
	}
}

// TestShellHugeCommand feeds the analysis a 20 MiB command, the size of
// payload a hook can receive: it must answer at once, and say it did not
// read it.
func TestShellHugeCommand(t *testing.T) {
	huge := "cat > big.json <<'EOF'\n" + strings.Repeat(`{"k": "lucid fact x"},`+"\n", 20<<20/22) + "EOF\n"
	start := time.Now()
	got := AnalyzeShell(huge, "/repo")
	if took := time.Since(start); took > time.Second/4 {
		t.Errorf("AnalyzeShell of %d bytes took %v", len(huge), took)
	}
	if got.Unsure != unsureBytes || len(got.Writes) != 0 {
		t.Errorf("AnalyzeShell of %d bytes = %+v, want only Unsure %q", len(huge), got, unsureBytes)
	}
}
