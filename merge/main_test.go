package merge

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// TestMain puts lucid, built as it ships, on the PATH of the git commands
// the tests run, as bin/lucid, which git runs as the merge driver: a
// script that notes each run in $LUCID_TEST_RUNS and runs it. Not this
// test binary: built with -race, it takes longer to start and to merge at
// every merge git makes; the driver's code runs under the race detector
// in the package's own tests (driver_test.go).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lucid-merge-test-*")
	var lucid string
	if err == nil {
		lucid, err = gittest.BuildLucid(dir)
	}
	if err == nil {
		testBin = filepath.Join(dir, "bin")
		err = os.Mkdir(testBin, 0o755)
	}
	if err == nil {
		script := "#!/bin/sh\n" +
			`[ -z "$LUCID_TEST_RUNS" ] || echo "$*" >> "$LUCID_TEST_RUNS"` + "\n" +
			"exec '" + lucid + `' "$@"` + "\n"
		err = os.WriteFile(filepath.Join(testBin, "lucid"), []byte(script), 0o755)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testBin holds `lucid`, the script that runs the build.
var testBin string

// origPath is PATH as the tests found it (newSandbox changes it).
var origPath = os.Getenv("PATH")

// gitEnv is the environment of every git command of the tests: a home of
// their own, no system config, fixed names, and lucid on PATH when
// withLucid, which notes each of its runs in runsFile.
func gitEnv(t *testing.T, withLucid bool) []string {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"), 0o644)
	path := origPath
	if withLucid {
		path = testBin + string(os.PathListSeparator) + path
	}
	env := []string{"PATH=" + path}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "LUCID_TEST_RUNS="+filepath.Join(home, "driver-runs"), "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	return append(env, gittest.Identity...)
}

// sandbox is a folder of git repositories whose commands run with env.
type sandbox struct {
	t   *testing.T
	dir string
	env []string
}

func newSandbox(t *testing.T, withLucid bool) *sandbox {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s := &sandbox{t: t, dir: t.TempDir(), env: gitEnv(t, withLucid)}
	// The package's own git calls (Install, Check) read the environment.
	for _, kv := range s.env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return s
}

// git runs git in dir (relative to the sandbox) and returns its output;
// it fails the test when git fails.
func (s *sandbox) git(dir string, args ...string) string {
	s.t.Helper()
	out, err := s.try(dir, args...)
	if err != nil {
		s.t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return out
}

// try runs git in dir and returns its combined output and error.
func (s *sandbox) try(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = s.path(dir)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (s *sandbox) path(rel string) string { return filepath.Join(s.dir, rel) }

// driverRuns returns how many times git ran lucid's driver so far.
func (s *sandbox) driverRuns() int {
	for _, kv := range s.env {
		if path, ok := strings.CutPrefix(kv, "LUCID_TEST_RUNS="); ok {
			data, _ := os.ReadFile(path)
			return strings.Count(string(data), "\n")
		}
	}
	return 0
}

func (s *sandbox) repo(dir string) *gitstore.Repo {
	s.t.Helper()
	r, err := gitstore.Find(s.path(dir))
	if err != nil {
		s.t.Fatal(err)
	}
	return r
}

// newRepo makes a repository with lucid set up (log, attribute, driver)
// and one commit, on main.
func (s *sandbox) newRepo(dir string) *gitstore.Repo {
	s.t.Helper()
	s.git("", "init", "-q", dir)
	r := s.repo(dir)
	if _, err := r.Init(); err != nil {
		s.t.Fatal(err)
	}
	if _, err := Install(r, false); err != nil {
		s.t.Fatal(err)
	}
	s.git(dir, "add", "-A")
	s.git(dir, "commit", "-q", "-m", "lucid init")
	return r
}

// clock hands out entry times that differ, one millisecond apart, from a
// fixed start, so that tests make the same ids' order every run.
type clock struct{ t time.Time }

func newClock() *clock { return &clock{t: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)} }

func (c *clock) next() time.Time { c.t = c.t.Add(time.Millisecond); return c.t }

// appendEntries appends entries with the given texts to the log of dir
// and commits them.
func (s *sandbox) appendEntries(dir string, c *clock, texts ...string) []logformat.Entry {
	s.t.Helper()
	r := s.repo(dir)
	var out []logformat.Entry
	for _, text := range texts {
		e := logformat.NewEntry(c.next(), "agent-"+filepath.Base(dir), logformat.KindFact, text)
		if err := logstore.Append(r.LogPath(), e); err != nil {
			s.t.Fatal(err)
		}
		out = append(out, e)
	}
	s.git(dir, "commit", "-q", "-am", "log: "+strings.Join(texts, ", "))
	return out
}

// logLines returns the lines of the log of dir, without their newlines,
// and fails the test when the log does not end with a newline.
func (s *sandbox) logLines(dir string) []string {
	s.t.Helper()
	data, err := os.ReadFile(s.repo(dir).LogPath())
	if err != nil {
		s.t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		s.t.Fatalf("the log of %s does not end with a newline:\n%s", dir, data)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// logTexts returns the texts of the log's entries, in order, and fails the
// test on a line that is not an entry or an id seen twice.
func (s *sandbox) logTexts(dir string) []string {
	s.t.Helper()
	var texts []string
	seen := map[string]bool{}
	for _, line := range s.logLines(dir) {
		e, err := logformat.DecodeEntry([]byte(line))
		if err != nil {
			s.t.Fatalf("the log of %s has a line that is not an entry: %q", dir, line)
		}
		if seen[e.ID] {
			s.t.Fatalf("the log of %s has entry %s (%q) twice", dir, e.ID, e.Text)
		}
		seen[e.ID] = true
		texts = append(texts, e.Text)
	}
	return texts
}

// writeFile writes content to the sandbox file rel.
func (s *sandbox) writeFile(rel, content string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.path(rel)), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(s.path(rel), []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// appendFile appends text to the sandbox file rel.
func (s *sandbox) appendFile(rel, text string) {
	s.t.Helper()
	f, err := os.OpenFile(s.path(rel), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		s.t.Fatal(err)
	}
}

func (s *sandbox) readFile(rel string) string {
	s.t.Helper()
	data, err := os.ReadFile(s.path(rel))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(data)
}

// entryLine returns an entry's line, with its newline, at time at.
func entryLine(t *testing.T, at time.Time, text string) string {
	t.Helper()
	line, err := logformat.EncodeEntry(logformat.NewEntry(at, "tester", logformat.KindNote, text))
	if err != nil {
		t.Fatal(err)
	}
	return string(line)
}

func equalLists(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
