package foldfs_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/testkit/foldfs"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// helperEnv makes the test binary a helper for the tests that run it: a
// program run from the mount, or a test whose mount must go when it ends.
const helperEnv = "FOLDFS_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "hello" {
		fmt.Println("hello from the mount")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b     string
		fold     bool // under FoldCase
		foldNorm bool // under FoldCaseNorm
	}{
		{"Auth.go", "auth.go", true, true},
		{"AUTH.GO", "auth.go", true, true},
		{"auth.go", "auth.go", true, true},
		{"auth.go", "auth.g", false, false},
		{"caf\u00e9", "cafe\u0301", false, true},
		{"CAF\u00c9", "cafe\u0301", false, true},
		{"\u212a", "k", true, true}, // the Kelvin sign folds to k
		{"stra\u00dfe", "STRASSE", false, false},
		{"\xff", "\xfe", false, false}, // not UTF-8: byte for byte
		{"a\xff", "A\xff", false, false},
	} {
		if got := foldfs.FoldCase.Same(c.a, c.b); got != c.fold {
			t.Errorf("FoldCase.Same(%+q, %+q) = %v", c.a, c.b, got)
		}
		if got := foldfs.FoldCaseNorm.Same(c.a, c.b); got != c.foldNorm {
			t.Errorf("FoldCaseNorm.Same(%+q, %+q) = %v", c.a, c.b, got)
		}
	}
}

// The names a Mac's user would give one file; every one of them is that file.
var spellings = []string{"src/Auth.go", "src/auth.go", "SRC/AUTH.GO", "Src/aUTH.gO"}

// Both modes fold case: each test of case runs in both.
var modes = []foldfs.Mode{foldfs.FoldCase, foldfs.FoldCaseNorm}

func eachMode(t *testing.T, test func(t *testing.T, dir string)) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) { test(t, foldfs.Mount(t, mode)) })
	}
}

func TestEverySpellingIsTheFile(t *testing.T) {
	eachMode(t, func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "src", "Auth.go"), "package auth\n")
		first, err := os.Stat(filepath.Join(dir, spellings[0]))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range spellings {
			p := filepath.Join(dir, name)
			if got := read(t, p); got != "package auth\n" {
				t.Errorf("%s reads %q", name, got)
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if !os.SameFile(first, fi) {
				t.Errorf("os.SameFile(%s, %s) is false", spellings[0], name)
			}
		}
	})
}

func TestCreateInAnotherCaseOpensTheFile(t *testing.T) {
	eachMode(t, func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "A.go"), "one\n")
		write(t, filepath.Join(dir, "a.go"), "two\n")
		if got := names(t, dir); !slices.Equal(got, []string{"A.go"}) {
			t.Errorf("after writing A.go then a.go, the folder holds %q, want [A.go]", got)
		}
		if got := read(t, filepath.Join(dir, "A.go")); got != "two\n" {
			t.Errorf("A.go reads %q after a.go was written: want two", got)
		}
		// O_EXCL, as git's lock files and lucid's own use it.
		_, err := os.OpenFile(filepath.Join(dir, "a.GO"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, os.ErrExist) {
			t.Errorf("O_EXCL create of a.GO while A.go is there: %v, want it to exist", err)
		}
		// Each kind of name: none is made beside a spelling of itself.
		if err := os.Mkdir(filepath.Join(dir, "Docs"), 0o755); err != nil {
			t.Fatal(err)
		}
		for what, err := range map[string]error{
			"mkdir docs":        os.Mkdir(filepath.Join(dir, "docs"), 0o755),
			"mkdir a.go":        os.Mkdir(filepath.Join(dir, "a.go"), 0o755),
			"symlink DOCS":      os.Symlink("A.go", filepath.Join(dir, "DOCS")),
			"link A.go as dOcS": os.Link(filepath.Join(dir, "A.go"), filepath.Join(dir, "dOcS")),
			"link A.go as a.GO": os.Link(filepath.Join(dir, "A.go"), filepath.Join(dir, "a.GO")),
		} {
			if !errors.Is(err, os.ErrExist) {
				t.Errorf("%s: %v, want it to exist", what, err)
			}
		}
	})
}

func TestNamesKeepTheCaseTheyWereMadeIn(t *testing.T) {
	eachMode(t, func(t *testing.T, dir string) {
		for _, name := range []string{"Makefile", "README.md", "go.mod"} {
			write(t, filepath.Join(dir, name), name)
		}
		write(t, filepath.Join(dir, "src", "Auth.go"), "")
		// Looking a name up in another case does not change it.
		for _, name := range []string{"makefile", "readme.MD", "GO.MOD", "SRC/auth.GO"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := names(t, dir), []string{"Makefile", "README.md", "go.mod", "src"}; !slices.Equal(got, want) {
			t.Errorf("the folder lists %q, want %q", got, want)
		}
		if got, want := names(t, filepath.Join(dir, "SRC")), []string{"Auth.go"}; !slices.Equal(got, want) {
			t.Errorf("SRC lists %q, want %q", got, want)
		}
	})
}

func TestRenameThatChangesOnlyTheCase(t *testing.T) {
	eachMode(t, func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "Src", "Auth.go"), "auth\n")
		rename(t, dir, "Src/Auth.go", "Src/auth.go")
		if got := names(t, filepath.Join(dir, "Src")); !slices.Equal(got, []string{"auth.go"}) {
			t.Errorf("after renaming Auth.go to auth.go the folder lists %q", got)
		}
		rename(t, dir, "Src", "src")
		if got := names(t, dir); !slices.Equal(got, []string{"src"}) {
			t.Errorf("after renaming Src to src the top lists %q", got)
		}
		if got := read(t, filepath.Join(dir, "SRC", "AUTH.GO")); got != "auth\n" {
			t.Errorf("the renamed file reads %q", got)
		}
		// Onto another file in another case: that one is replaced.
		write(t, filepath.Join(dir, "src", "b.go"), "b\n")
		rename(t, dir, "src/b.go", "src/AUTH.go")
		if got := names(t, filepath.Join(dir, "src")); len(got) != 1 || !strings.EqualFold(got[0], "auth.go") {
			t.Errorf("after renaming b.go onto AUTH.go the folder lists %q", got)
		}
		if got := read(t, filepath.Join(dir, "src", "auth.go")); got != "b\n" {
			t.Errorf("auth.go reads %q after b.go replaced it", got)
		}
	})
}

func TestRemoveThroughAnotherSpelling(t *testing.T) {
	eachMode(t, func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "src", "Auth.go"), "")
		if err := os.Remove(filepath.Join(dir, "SRC", "AUTH.GO")); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, "Src")); err != nil {
			t.Fatal(err)
		}
		if got := names(t, dir); len(got) != 0 {
			t.Errorf("after removing the file and its folder, the top lists %q", got)
		}
		if _, err := os.Stat(filepath.Join(dir, "src", "Auth.go")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the removed file: %v", err)
		}
	})
}

func TestLinksAndShell(t *testing.T) {
	eachMode(t, func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "Target.txt"), "target\n")
		if err := os.Symlink("target.TXT", filepath.Join(dir, "Link")); err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(dir, "LINK")); got != "target\n" {
			t.Errorf("LINK reads %q", got)
		}
		if got, err := os.Readlink(filepath.Join(dir, "link")); err != nil || got != "target.TXT" {
			t.Errorf("readlink link: %q, %v", got, err)
		}
		out := run(t, dir, nil, "sh", "-c", "echo one > Notes.txt && echo two >> NOTES.TXT && cat notes.txt")
		if out != "one\ntwo\n" {
			t.Errorf("the shell's redirections: %q", out)
		}
		if got := names(t, dir); !slices.Equal(got, []string{"Link", "Notes.txt", "Target.txt"}) {
			t.Errorf("the folder lists %q", got)
		}
	})
}

// A file open through one spelling reads what was written through another,
// as one file does; a hard link made through another spelling is the file.
func TestOpenFilesAgreeAcrossSpellings(t *testing.T) {
	dir := foldfs.Mount(t, foldfs.FoldCase)
	write(t, filepath.Join(dir, "a.txt"), "old\n")
	f, err := os.Open(filepath.Join(dir, "A.TXT"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := io.ReadAll(f); err != nil || string(b) != "old\n" {
		t.Fatalf("A.TXT reads %q, %v", b, err)
	}
	write(t, filepath.Join(dir, "a.TXT"), "new content\n")
	buf := make([]byte, 64)
	k, err := f.ReadAt(buf, 0)
	if got := string(buf[:k]); got != "new content\n" {
		t.Errorf("A.TXT, open, reads %q (%v) after a.TXT was written", got, err)
	}
	if err := os.Link(filepath.Join(dir, "A.txt"), filepath.Join(dir, "B.txt")); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(filepath.Join(dir, "a.txt"))
	b, _ := os.Stat(filepath.Join(dir, "b.TXT"))
	if a == nil || b == nil || !os.SameFile(a, b) {
		t.Errorf("the hard link B.txt of A.txt is not the same file")
	}
}

// A Go program runs from the mount, through another spelling of its name.
func TestRunAProgramFromTheMount(t *testing.T) {
	dir := foldfs.Mount(t, foldfs.FoldCase)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(filepath.Join(dir, "Hello"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, []string{helperEnv + "=hello"}, filepath.Join(dir, "HELLO")); got != "hello from the mount\n" {
		t.Errorf("the program printed %q", got)
	}
}

// lucid's lock, taken through two spellings of the repository's folder, is
// one lock; so is an O_EXCL create.
func TestLocksHoldAcrossSpellings(t *testing.T) {
	dir := foldfs.Mount(t, foldfs.FoldCase)
	if err := os.MkdirAll(filepath.Join(dir, "Repo", ".git", "lucid"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, ok, err := gitstore.LockFile(filepath.Join(dir, "Repo", ".git", "lucid", "lock"), 0)
	if err != nil || !ok {
		t.Fatalf("the first lock: %v, %v", ok, err)
	}
	other := filepath.Join(dir, "REPO", ".git", "LUCID", "Lock")
	if _, ok, err := gitstore.LockFile(other, 0); err != nil || ok {
		t.Errorf("a second lock through %s while the first is held: got it %v, %v", other, ok, err)
	}
	l.Unlock()
	l2, ok, err := gitstore.LockFile(other, time.Second)
	if err != nil || !ok {
		t.Errorf("the lock through %s once the first is released: %v, %v", other, ok, err)
	}
	l2.Unlock()
	if got := names(t, filepath.Join(dir, "repo", ".git", "lucid")); !slices.Equal(got, []string{"lock"}) {
		t.Errorf("the lock's folder lists %q", got)
	}

	f, err := os.OpenFile(filepath.Join(dir, "repo", "index.lock"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.OpenFile(filepath.Join(dir, "REPO", "Index.Lock"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644); !errors.Is(err, os.ErrExist) {
		t.Errorf("O_EXCL through another spelling of a lock file: %v, want it to exist", err)
	}
}

// NFC and NFD spellings of é: one name under FoldCaseNorm, as on a Mac;
// two under FoldCase, as on Windows.
func TestNormalisation(t *testing.T) {
	const nfc, nfd = "caf\u00e9.go", "cafe\u0301.go"
	t.Run("FoldCaseNorm", func(t *testing.T) {
		dir := foldfs.Mount(t, foldfs.FoldCaseNorm)
		write(t, filepath.Join(dir, nfc), "nfc\n")
		for _, name := range []string{nfd, "CAFE\u0301.GO", "CAF\u00c9.go"} {
			if got := read(t, filepath.Join(dir, name)); got != "nfc\n" {
				t.Errorf("%+q reads %q", name, got)
			}
		}
		a, _ := os.Stat(filepath.Join(dir, nfc))
		b, _ := os.Stat(filepath.Join(dir, nfd))
		if a == nil || b == nil || !os.SameFile(a, b) {
			t.Errorf("the NFC and NFD spellings are not the same file")
		}
		write(t, filepath.Join(dir, nfd), "nfd\n")
		if got := names(t, dir); !slices.Equal(got, []string{nfc}) {
			t.Errorf("after writing the NFD spelling the folder lists %+q, want the NFC name alone", got)
		}
		rename(t, dir, nfc, nfd)
		if got := names(t, dir); !slices.Equal(got, []string{nfd}) {
			t.Errorf("after renaming NFC to NFD the folder lists %+q, want the NFD name", got)
		}
	})
	t.Run("FoldCase", func(t *testing.T) {
		dir := foldfs.Mount(t, foldfs.FoldCase)
		write(t, filepath.Join(dir, nfc), "nfc\n")
		if _, err := os.Stat(filepath.Join(dir, nfd)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the NFD spelling under FoldCase: %v, want it missing", err)
		}
		write(t, filepath.Join(dir, nfd), "nfd\n")
		if got := names(t, dir); len(got) != 2 {
			t.Errorf("the folder lists %+q, want both spellings", got)
		}
	})
}

// git sees a folding file system for what it is, and works on it.
func TestGit(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			start := time.Now()
			dir := foldfs.Mount(t, mode)
			t.Logf("mounted in %v", time.Since(start))
			git(t, dir, "init", "-q", "-b", "main")
			// git init probes: it writes .git/config, then looks
			// for .git/CoNfIg.
			if got := git(t, dir, "config", "core.ignorecase"); got != "true" {
				t.Errorf("git init set core.ignorecase to %q, want true", got)
			}
			// git probes precomposeunicode in its macOS build only.
			pre, _ := gitMay(t, dir, "config", "core.precomposeunicode")
			t.Logf("core.precomposeunicode after git init: %q", pre)

			write(t, filepath.Join(dir, "src", "Auth.go"), "package auth\n")
			write(t, filepath.Join(dir, "README.md"), "readme\n")
			git(t, dir, "add", ".")
			start = time.Now()
			git(t, dir, "commit", "-q", "-m", "first")
			t.Logf("git commit in %v", time.Since(start))
			clean(t, dir)

			// A change through another spelling is a change of the file.
			write(t, filepath.Join(dir, "SRC", "auth.go"), "package auth // changed\n")
			if got := git(t, dir, "status", "--porcelain"); got != "M src/Auth.go" {
				t.Errorf("git status after a change through another spelling: %q", got)
			}
			git(t, dir, "stash", "-q")
			clean(t, dir)
			git(t, dir, "stash", "pop", "-q")
			git(t, dir, "commit", "-q", "-a", "-m", "changed")
			clean(t, dir)

			// A branch that renames the file in case only, and back.
			git(t, dir, "checkout", "-q", "-b", "lower")
			git(t, dir, "mv", "src/Auth.go", "src/auth.go")
			git(t, dir, "commit", "-q", "-m", "lower case")
			clean(t, dir)
			if got := names(t, filepath.Join(dir, "src")); !slices.Equal(got, []string{"auth.go"}) {
				t.Errorf("after git mv src/Auth.go src/auth.go, src lists %q", got)
			}
			git(t, dir, "checkout", "-q", "main")
			clean(t, dir)
			if got := read(t, filepath.Join(dir, "src", "AUTH.GO")); got != "package auth // changed\n" {
				t.Errorf("after checking main out the file reads %q", got)
			}
			git(t, dir, "checkout", "-q", "lower")
			clean(t, dir)
			if got := git(t, dir, "ls-files"); got != "README.md\nsrc/auth.go" {
				t.Errorf("git ls-files on lower: %q", got)
			}
		})
	}
}

// The mount goes when the test ends, however it ends: the test binary runs
// a test that mounts, then panics, fails, leaves a file open on the mount
// (whose unmount must then fail the test, saying why), or is killed.
func TestUnmountsWhateverTheEnd(t *testing.T) {
	if err := foldfs.Available(); err != nil {
		t.Skip(err)
	}
	for _, end := range []string{"panic", "fatal", "busy", "killed"} {
		t.Run(end, func(t *testing.T) {
			helper, dir, said := startHelper(t, end)
			if end == "killed" {
				helper.Process.Kill()
			}
			err := helper.Wait()
			out := said()
			if err == nil {
				t.Fatalf("the helper passed:\n%s", out)
			}
			// The server of a killed test unmounts when it sees
			// the test gone; give it a moment.
			for wait := time.Now().Add(10 * time.Second); mounted(t, dir) && time.Now().Before(wait); {
				time.Sleep(10 * time.Millisecond)
			}
			if mounted(t, dir) {
				t.Errorf("%s is still mounted after the helper's test ended (%s):\n%s", dir, end, out)
			}
			if end == "busy" && !strings.Contains(out, "foldfs: unmount "+dir+": busy") {
				t.Errorf("the helper's unmount failed without saying why:\n%s", out)
			}
		})
	}
}

// startHelper runs TestHelperEnds in a process of its own, to end as end
// says, and returns it once it has mounted, with the mount's folder and a
// function that returns all the process said once it has ended.
func startHelper(t *testing.T, end string) (helper *exec.Cmd, dir string, said func() string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperEnds$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+end)
	cmd.WaitDelay = 5 * time.Second
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	out := bufio.NewReader(r)
	var buf bytes.Buffer
	for {
		line, err := out.ReadString('\n')
		buf.WriteString(line)
		if d, ok := strings.CutPrefix(line, "mounted at "); ok {
			copied := make(chan struct{})
			go func() {
				io.Copy(&buf, out) // to the end of the process
				r.Close()
				close(copied)
			}()
			return cmd, strings.TrimSpace(d), func() string {
				select {
				case <-copied:
				case <-time.After(time.Minute):
					t.Fatal("the helper's output did not end")
				}
				return buf.String()
			}
		}
		if err != nil {
			r.Close()
			cmd.Wait()
			t.Fatalf("the helper did not say where it mounted:\n%s", buf.String())
		}
	}
}

func TestHelperEnds(t *testing.T) {
	end := os.Getenv(helperEnv)
	if end == "" {
		t.Skip("run by TestUnmountsWhateverTheEnd")
	}
	dir := foldfs.Mount(t, foldfs.FoldCase)
	fmt.Printf("mounted at %s\n", dir)
	switch end {
	case "panic":
		panic("the test panics")
	case "fatal":
		t.Fatal("the test fails")
	case "killed":
		time.Sleep(time.Minute) // until it is killed
		t.Fatal("not killed")
	case "busy":
		var err error
		if leftOpen, err = os.Create(filepath.Join(dir, "open")); err != nil {
			t.Fatal(err)
		}
	}
}

// leftOpen is the file the busy helper leaves open on its mount, held here
// so that no finalizer closes it.
var leftOpen *os.File

// mounted reports whether dir is a mount point, from /proc/self/mountinfo.
func mounted(t *testing.T, dir string) bool {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if fields := strings.Fields(s.Text()); len(fields) > 4 && fields[4] == dir {
			return true
		}
	}
	return false
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func rename(t *testing.T, dir, from, to string) {
	t.Helper()
	if err := os.Rename(filepath.Join(dir, from), filepath.Join(dir, to)); err != nil {
		t.Fatal(err)
	}
}

// run runs a command in dir, within a minute, and returns its output.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := command(t, dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func command(t *testing.T, dir string, env []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// git runs git in dir with gittest's identity, within a minute, and
// returns its output trimmed.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitMay(t, dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func gitMay(t *testing.T, dir string, args ...string) (string, error) {
	out, err := command(t, dir, append([]string{"HOME=" + t.TempDir()}, gittest.Identity...), "git", args...)
	return strings.TrimSpace(out), err
}

func clean(t *testing.T, dir string) {
	t.Helper()
	if got := git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status is not clean:\n%s", got)
	}
}
