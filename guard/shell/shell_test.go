package shell

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/gitpredict"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// The corpus is testdata/shellwrites/*.txt at the top of the repository;
// its README says how it is written.
const corpusDir = "../../testdata/shellwrites"

// shellCase is one command of the corpus and the writes expected of it.
type shellCase struct {
	file    string
	line    int
	cwd     string
	command string
	want    []Write
	git     []string // the git ops expected, as formatGitOps writes them
	unsure  string   // the Analysis.Unsure expected
	home    string
	fs      *testFS
}

// testFS is the imaginary disk of the corpus: the folders, files and
// symbolic links its lines declare, and every folder above them.
type testFS struct {
	kinds map[string]realpath.Kind
	links map[string]string // link -> target
	files map[string]string // file -> content
}

func newTestFS() *testFS {
	fsys := &testFS{kinds: map[string]realpath.Kind{}, links: map[string]string{}, files: map[string]string{}}
	fsys.add("/repo/sub", realpath.Dir)
	return fsys
}

// with is a copy of fsys, so that a declaration holds only for the cases
// after it.
func (fsys *testFS) with() *testFS {
	return &testFS{kinds: maps.Clone(fsys.kinds), links: maps.Clone(fsys.links), files: maps.Clone(fsys.files)}
}

// add declares path, and every folder above it.
func (fsys *testFS) add(path string, k realpath.Kind) {
	fsys.kinds[path] = k
	for d := filepath.Dir(path); d != "/"; d = filepath.Dir(d) {
		fsys.kinds[d] = realpath.Dir
	}
}

// The disk calls resolve a path as the kernel does, the links in it
// followed (the last one too, but for lstat and readlink).

func (fsys *testFS) Lstat(p string) realpath.Kind { return fsys.kinds[fsys.real(p, false)] }

func (fsys *testFS) Readlink(p string) (string, bool) {
	t, ok := fsys.links[fsys.real(p, false)]
	return t, ok
}

func (fsys *testFS) readDir(p string, max int) ([]string, bool) {
	p = fsys.real(p, true)
	if fsys.kinds[p] != realpath.Dir {
		return nil, false
	}
	var names []string
	for q := range fsys.kinds {
		if filepath.Dir(q) == p && q != p {
			names = append(names, filepath.Base(q))
		}
	}
	slices.Sort(names)
	return names[:min(len(names), max)], len(names) > max
}

func (fsys *testFS) readFile(p string, max int) ([]byte, bool, bool) {
	p = fsys.real(p, true)
	if fsys.kinds[p] != realpath.File {
		return nil, false, false
	}
	b := fsys.files[p]
	return []byte(b[:min(len(b), max)]), len(b) > max, true
}

// real is where the kernel takes the path p on this disk.
func (fsys *testFS) real(p string, followLast bool) string {
	r, _ := realpath.Resolve(declared{fsys}, "/", p, followLast)
	return r
}

// declared is a testFS as declared, paths taken as they are spelled.
type declared struct{ *testFS }

func (d declared) Lstat(p string) realpath.Kind { return d.kinds[p] }

func (d declared) Readlink(p string) (string, bool) {
	t, ok := d.links[p]
	return t, ok
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
	cwd, home := "/repo/sub", ""
	fsys := newTestFS()
	var cases []shellCase
	var cur *shellCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fail := func(msg string) { t.Fatalf("%s:%d: %s: %q", base, n, msg, line) }
		switch {
		case strings.HasPrefix(line, "$ "):
			cases = append(cases, shellCase{file: base, line: n, cwd: cwd, command: line[2:], home: home, fs: fsys})
			cur = &cases[len(cases)-1]
		case line == "|" || strings.HasPrefix(line, "| "):
			if cur == nil || len(cur.want) > 0 || len(cur.git) > 0 {
				fail("a continuation line belongs right after its $ line")
			}
			cur.command += "\n" + strings.TrimPrefix(strings.TrimPrefix(line, "|"), " ")
		case strings.HasPrefix(line, "> "):
			open := strings.LastIndex(line, " [")
			if cur == nil || open < 0 || !strings.HasSuffix(line, "]") {
				fail("want `> /abs/path [by]` after a $ line")
			}
			sw := Write{Path: line[2:open], By: line[open+2 : len(line)-1]}
			if path, under, ok := strings.Cut(sw.Path, " ("); ok && strings.HasSuffix(under, ")") {
				sw.Path, sw.Under = path, under[:len(under)-1]
			}
			cur.want = append(cur.want, sw)
		case strings.HasPrefix(line, "= "):
			if cur == nil {
				fail("want `= git ARGS @ DIR` after a $ line")
			}
			cur.git = append(cur.git, line[2:])
		case strings.HasPrefix(line, "? "):
			if cur == nil || cur.unsure != "" {
				fail("want one `? reason` after a $ line")
			}
			cur.unsure = line[2:]
		case line == "" || strings.HasPrefix(line, "#"):
			cur = nil
		case strings.HasPrefix(line, "cwd "):
			cwd = line[4:]
		case strings.HasPrefix(line, "home "):
			home = line[5:]
		case strings.HasPrefix(line, "dir "):
			fsys = fsys.with()
			fsys.add(line[4:], realpath.Dir)
		case strings.HasPrefix(line, "file "):
			path, content := line[5:], ""
			if i := strings.Index(path, ` "`); i >= 0 {
				var err error
				if content, err = strconv.Unquote(path[i+1:]); err != nil {
					fail("want `file PATH \"CONTENT\"`, CONTENT quoted as in Go")
				}
				path = path[:i]
			}
			fsys = fsys.with()
			fsys.add(path, realpath.File)
			fsys.files[path] = content
		case strings.HasPrefix(line, "archive "):
			words := strings.Fields(line[len("archive "):])
			b, err := makeArchive(words[0], words[1:])
			if err != nil {
				fail(err.Error())
			}
			fsys = fsys.with()
			fsys.add(words[0], realpath.File)
			fsys.files[words[0]] = string(b)
		case strings.HasPrefix(line, "link "):
			path, target, ok := strings.Cut(line[5:], " ")
			if !ok {
				fail("want `link PATH TARGET`")
			}
			fsys = fsys.with()
			fsys.add(path, realpath.Link)
			fsys.links[path] = target
		default:
			fail("unknown line")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func formatWrites(ws []Write) string {
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

// formatGitOps writes each op as the corpus does: `git ARGS @ DIR`, DIR ?
// when not known, and (unknown) when an argument is not.
func formatGitOps(ops []gitpredict.Op) []string {
	var lines []string
	for _, op := range ops {
		dir := op.Dir
		if dir == "" {
			dir = "?"
		}
		line := op.String() + " @ " + dir
		if !op.Known {
			line += " (unknown)"
		}
		lines = append(lines, line)
	}
	return lines
}

func TestWritesCorpus(t *testing.T) {
	cases := readCorpus(t)
	if len(cases) < 150 {
		t.Errorf("the corpus has %d commands; it should keep at least 150", len(cases))
	}
	for _, c := range cases {
		a := analyze(c.command, c.cwd, c.home, c.fs)
		if formatWrites(a.Writes) != formatWrites(c.want) {
			t.Errorf("%s:%d: $ %s\ngot:\n%swant:\n%s", c.file, c.line, c.command, formatWrites(a.Writes), formatWrites(c.want))
		}
		if got := formatGitOps(a.Git); !slices.Equal(got, c.git) {
			t.Errorf("%s:%d: $ %s\ngit ops: %q\nwant:    %q", c.file, c.line, c.command, got, c.git)
		}
		if a.Unsure != c.unsure {
			t.Errorf("%s:%d: $ %s\nunsure %q, want %q", c.file, c.line, c.command, a.Unsure, c.unsure)
		}
	}
}

// TestWritesDisk checks the analysis on a real disk: cp and mv into
// an existing folder keep the source's name, into a new name they do not;
// git checkout of an existing file is a path, not a branch; and symbolic
// links lead where the kernel takes them. Where bash is at hand, each
// command that can run here is run on a fresh copy of the disk, and every
// path it changed must be among those reported.
func TestWritesDisk(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string // paths relative to the top, each written by by
		by   string
		run  bool // bash can run it here
	}{
		{"cp logo.png assets", []string{"sub/assets/logo.png"}, "cp", false},
		{"cp logo.png fresh", []string{"sub/fresh"}, "cp", false},
		{"mv main.go assets", []string{"sub/main.go", "sub/assets/main.go"}, "mv", true},
		{"git checkout main.go", []string{"sub/main.go"}, "git checkout", false},
		{"git checkout develop", nil, "", false},
		{"echo x >> deep/../a.go", []string{"src/a.go"}, ">>", true},
		{"echo x > dangling", []string{"sub/dangling", "claimed.go"}, ">", true},
		{"touch dangling", []string{"sub/dangling", "claimed.go"}, "touch", true},
		{"cp main.go to-a", []string{"sub/to-a", "src/a.go"}, "cp", true},
		{"tee to-a < main.go", []string{"sub/to-a", "src/a.go"}, "tee", true},
		{"rm dangling", []string{"sub/dangling"}, "rm", true},
		{"sed -i s/x/y/ to-a", []string{"sub/to-a"}, "sed -i", true},
		{"cd -P deep/.. && touch there.txt", []string{"src/there.txt"}, "touch", true},
		{"cp main.go deep", []string{"src/deep/main.go"}, "cp", true},
		{"rm ../src/*.go", []string{"src/a.go"}, "rm", true},
		{"cat list | xargs rm", []string{"sub/main.go"}, "rm", true},
		{`for f in main.go list; do rm "$f"; done`, []string{"sub/main.go", "sub/list"}, "rm", true},
		{"tee ../src/{a,b}.go < list", []string{"src/a.go", "src/b.go"}, "tee", true},
		{`cd "$(git rev-parse --show-toplevel)" && echo x >> src/a.go`, []string{"src/a.go"}, ">>", false},
		{`if [ -f list ]; then cd ../src; else cd assets; fi; echo x > f`, []string{"src/f", "sub/assets/f"}, ">", true},
	} {
		top := diskFixture(t)
		var want []Write
		for _, p := range tc.want {
			want = append(want, Write{Path: filepath.Join(top, p), By: tc.by})
		}
		got := Writes(tc.cmd, filepath.Join(top, "sub"))
		if formatWrites(got) != formatWrites(want) {
			t.Errorf("$ %s\ngot:\n%swant:\n%s", tc.cmd, formatWrites(got), formatWrites(want))
		}
		if bash, err := exec.LookPath("bash"); err == nil && tc.run {
			before := diskState(t, top)
			cmd := exec.Command(bash, "-c", tc.cmd)
			cmd.Dir = filepath.Join(top, "sub")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("$ %s: %v\n%s", tc.cmd, err, out)
			}
			after := diskState(t, top)
			for _, p := range slices.Concat(slices.Collect(maps.Keys(before)), slices.Collect(maps.Keys(after))) {
				if before[p] != after[p] && !slices.ContainsFunc(got, func(w Write) bool { return w.Path == p }) {
					t.Errorf("$ %s changed %s, which is not reported", tc.cmd, p)
				}
			}
		}
	}
}

// diskFixture makes a work tree for TestWritesDisk and returns its
// top, its symbolic links resolved as the analysis reports paths:
//
//	.git/  sub/main.go  sub/list (main.go)  sub/assets/  src/a.go  src/deep/
//	sub/deep -> ../src/deep   sub/to-a -> ../src/a.go
//	sub/dangling -> ../claimed.go (which does not exist)
func diskFixture(t *testing.T) string {
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".git", "sub/assets", "src/deep"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for f, content := range map[string]string{"sub/main.go": "package x\n", "src/a.go": "package x\n", "sub/list": "main.go\n"} {
		if err := os.WriteFile(filepath.Join(top, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"sub/deep": "../src/deep", "sub/to-a": "../src/a.go", "sub/dangling": "../claimed.go"} {
		if err := os.Symlink(target, filepath.Join(top, link)); err != nil {
			t.Fatal(err)
		}
	}
	return top
}

// diskState is what each path under top holds: a file's content, a
// link's target, or that it is a folder.
func diskState(t *testing.T, top string) map[string]string {
	state := map[string]string{}
	err := filepath.WalkDir(top, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			state[p] = "link " + target
			return err
		case d.IsDir():
			state[p] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		state[p] = "file " + string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// checkWrites asserts what every result must be, whatever the command:
// absolute clean paths, nothing unknown in them, no device, each once.
func checkWrites(t *testing.T, cmd string, ws []Write) {
	t.Helper()
	seen := map[string]bool{}
	for _, w := range ws {
		switch {
		case !filepath.IsAbs(w.Path) || filepath.Clean(w.Path) != w.Path:
			t.Fatalf("%q: path %q is not absolute and clean", cmd, w.Path)
		case strings.Contains(w.Path, cmdline.Unknown):
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

// allDirs is a disk where every path is an empty folder.
type allDirs struct{}

func (allDirs) Lstat(string) realpath.Kind                { return realpath.Dir }
func (allDirs) Readlink(string) (string, bool)            { return "", false }
func (allDirs) readDir(string, int) ([]string, bool)      { return nil, false }
func (allDirs) readFile(string, int) ([]byte, bool, bool) { return nil, false, false }

func FuzzWrites(f *testing.F) {
	for _, c := range readCorpus(f) {
		f.Add(c.command)
	}
	f.Add("cp -*t 0 /") // an option spelled with a glob, in an unknown directory
	f.Fuzz(func(t *testing.T, cmd string) {
		dirs := analyze(cmd, "/repo/sub", "/home/agent", allDirs{}).Writes
		checkWrites(t, cmd, dirs)
		checkWrites(t, cmd, analyze(cmd, "/repo/sub", "", newTestFS()).Writes)
		// Without a known directory only absolute paths can come out, and
		// each of them also comes out when the directory is known.
		for _, w := range analyze(cmd, "", "/home/agent", allDirs{}).Writes {
			if !slices.ContainsFunc(dirs, func(k Write) bool { return k.Path == w.Path && k.Under == w.Under }) {
				t.Fatalf("%q: %q found only without a directory", cmd, w.Path)
			}
		}
	})
}

// BenchmarkWrites measures the analysis on commands of the kind the
// hook sees on every Bash call, and on the whole corpus.
func BenchmarkWrites(b *testing.B) {
	for _, bc := range []struct{ name, cmd string }{
		{"readonly", `go test ./... 2>&1 | tail -20`},
		{"typical", `cd web && npm run build > build.log 2>&1 && cp -r dist ../public`},
		{"sed", `sed -i -e 's/foo/bar/g' internal/a.go internal/b.go`},
		{"heredoc", "python3 - <<'EOF'\nimport json\nd = json.load(open('package.json'))\nd['version'] = '2.0.0'\nwith open('package.json', 'w') as f:\n    json.dump(d, f, indent=2)\nEOF"},
		{"nested", `bash -c "cd docs && sed -i 's/v1/v2/' index.md" && git checkout -- go.sum`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Writes(bc.cmd, "/repo/sub")
			}
		})
	}
	// The parse alone, for comparison: the rest of "typical" is the walk.
	b.Run("parse-typical", func(b *testing.B) {
		for b.Loop() {
			cmdline.Parse(`cd web && npm run build > build.log 2>&1 && cp -r dist ../public`)
		}
	})
	cases := readCorpus(b)
	b.Run("corpus", func(b *testing.B) {
		for b.Loop() {
			for _, c := range cases {
				Writes(c.command, c.cwd)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/command")
	})
}

// TestShellLimits checks that a command past the step budget or the size
// limit is reported as not read whole, with what was found before it.
func TestShellLimits(t *testing.T) {
	long := "touch early.txt; " + strings.Repeat("true; ", maxShellSteps) + "touch late.txt"
	got := Analyze(long, "/repo")
	if got.Unsure != unsureSteps {
		t.Errorf("%d statements: unsure %q, want %q", maxShellSteps+2, got.Unsure, unsureSteps)
	}
	if want := []Write{{Path: "/repo/early.txt", By: "touch"}}; formatWrites(got.Writes) != formatWrites(want) {
		t.Errorf("%d statements: got\n%swant\n%s", maxShellSteps+2, formatWrites(got.Writes), formatWrites(want))
	}
	if got := Analyze("touch a.txt; "+strings.Repeat("true; ", 100), "/repo"); got.Unsure != "" {
		t.Errorf("a short command is unsure: %q", got.Unsure)
	}
	// Heredocs nested 8 deep, each holding the rest of a line just under
	// the size limit, would have the walk parse 8 MiB.
	var nest strings.Builder
	for i := range 8 {
		fmt.Fprintf(&nest, "bash <<'E%d'\n", i)
	}
	nest.WriteString(strings.Repeat("echo a\n", (cmdline.MaxBytes-200)/7))
	for i := 7; i >= 0; i-- {
		fmt.Fprintf(&nest, "E%d\n", i)
	}
	start := time.Now()
	if got := Analyze(nest.String(), "/repo"); got.Unsure != unsureNested {
		t.Errorf("heredocs nested 8 deep around %d bytes: unsure %q, want %q", nest.Len(), got.Unsure, unsureNested)
	}
	t.Logf("heredocs nested 8 deep around %d bytes: %v", nest.Len(), time.Since(start))
}

// TestShellHugeCommand feeds the analysis a 20 MiB command, the size of
// payload a hook can receive: it must answer at once, and say it did not
// read it. The stamp, the hook's other reading, is held to the same in
// TestStampHugeCommand.
func TestShellHugeCommand(t *testing.T) {
	// How long they take is make bench's (the payloads section).
	huge := "cat > big.json <<'EOF'\n" + strings.Repeat(`{"k": "lucid fact x"},`+"\n", 20<<20/22) + "EOF\n"
	got := Analyze(huge, "/repo")
	if got.Unsure != unsureBytes || len(got.Writes) != 0 {
		t.Errorf("Analyze of %d bytes = %+v, want only Unsure %q", len(huge), got, unsureBytes)
	}
}

// TestShellExpandLimits checks that what hostile input can make expansion
// do is bounded, cheap, and said: too many words, loop runs, folder names,
// folders read, file bytes, or directories to follow.
func TestShellExpandLimits(t *testing.T) {
	big := newTestFS()
	for i := range maxDirNames + 1 {
		big.add("/repo/sub/big/f"+strconv.Itoa(i), realpath.File)
	}
	for i := range maxGlobReads + 1 {
		big.add("/repo/sub/many/d"+strconv.Itoa(i)+"/x", realpath.File)
	}
	big.add("/repo/sub/huge.txt", realpath.File)
	big.files["/repo/sub/huge.txt"] = strings.Repeat("a.go\n", maxFileBytes/5+1)
	var cases strings.Builder
	cases.WriteString("case $1 in ")
	for i := range maxShellDirs + 1 {
		fmt.Fprintf(&cases, "%d) cd d%d ;; ", i, i)
	}
	cases.WriteString("esac; touch f")
	for _, tc := range []struct {
		cmd, unsure string
		writes      int // at least
	}{
		{"touch {1..5000}.txt", unsureWords, 0},
		{"touch {1..70}{1..70}.txt", unsureWords, 0},
		{"touch {1..99999999999}.txt", unsureWords, 0},
		{"touch {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", unsureWords, 0},
		{"for i in {1..300}; do touch $i; done", unsureLoop, maxLoopRuns},
		{"rm big/*", unsureNames, 0},
		{"rm many/*/*", unsureNames, 0},
		{"rm many/*/x", "", maxGlobReads + 1},
		{"cat huge.txt | xargs rm", unsureFile, 0},
		{"xargs -a huge.txt rm", unsureFile, 0},
		{cases.String(), unsureDirs, 0},
		{"touch {1..100}.txt", "", 100},
	} {
		start := time.Now()
		got := analyze(tc.cmd, "/repo/sub", "", big)
		// Work without a bound runs for hours (a billion names, a loop of
		// 10^11 runs); a bounded case takes milliseconds, and under the
		// race detector on a loaded machine a few seconds. The ceiling
		// tells the two apart without timing the bounded work.
		if took := time.Since(start); took > 30*time.Second {
			t.Errorf("%.60s took %v", tc.cmd, took)
		}
		if got.Unsure != tc.unsure || len(got.Writes) < tc.writes {
			t.Errorf("%.60s: %d writes, unsure %q; want at least %d, unsure %q", tc.cmd, len(got.Writes), got.Unsure, tc.writes, tc.unsure)
		}
	}
}

// makeArchive makes the bytes of an archive holding the members named (a
// name ending in / is a folder), each file holding its own name: a zip,
// or a tar, gzip'ed for .tgz and .tar.gz.
func makeArchive(name string, members []string) ([]byte, error) {
	var buf bytes.Buffer
	switch {
	case strings.HasSuffix(name, ".zip"):
		zw := zip.NewWriter(&buf)
		for _, m := range members {
			f, err := zw.Create(m)
			if err != nil {
				return nil, err
			}
			if !strings.HasSuffix(m, "/") {
				f.Write([]byte(m))
			}
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	tw := tar.NewWriter(&buf)
	for _, m := range members {
		h := &tar.Header{Name: m, Mode: 0o644, Size: int64(len(m)), Typeflag: tar.TypeReg}
		if strings.HasSuffix(m, "/") {
			h.Typeflag, h.Size, h.Mode = tar.TypeDir, 0, 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if h.Size > 0 {
			tw.Write([]byte(m))
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	switch {
	case strings.HasSuffix(name, ".tgz") || strings.HasSuffix(name, ".tar.gz"):
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(buf.Bytes())
		zw.Close()
		return gz.Bytes(), nil
	}
	return buf.Bytes(), nil
}
