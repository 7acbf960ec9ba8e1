// Package gittest runs git for tests: in a folder, with a fixed identity
// and none of the machine's or the user's configuration, failing the test
// with git's output when git fails; makes the temporary repositories tests
// work in; and builds lucid for the tests that run it as a process.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Identity is the environment that gives git a fixed author and committer
// and keeps the machine's configuration out, as KEY=VALUE.
var Identity = []string{"GIT_CONFIG_NOSYSTEM=1",
	"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

// Run runs git with args in dir and returns its output, trimmed.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOME="+t.TempDir()), Identity...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Setenv gives the test's own process git's fixed identity, a HOME of its
// own and no system configuration, for code under test that runs git
// itself. Like t.Setenv, it cannot be used in a parallel test.
func Setenv(t testing.TB) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	for _, kv := range Identity {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// Init makes a git repository in a new temporary folder and returns its
// top as git names it (the folder's links resolved, so that paths built
// on it compare equal to the ones lucid finds).
func Init(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	Run(t, dir, "init", "-q")
	return dir
}

// Committed makes a repository with one (empty) commit in the folder
// "repo" of a new temporary folder, and returns its top as git names it.
func Committed(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	top := filepath.Join(dir, "repo")
	Run(t, dir, "init", "-q", top)
	Run(t, top, "commit", "-q", "--allow-empty", "-m", "first")
	return top
}

// WriteFile writes content to the file rel under dir, making its folders.
func WriteFile(t testing.TB, dir, rel, content string) string {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// CommitAll stages every change in the work tree dir and commits it.
func CommitAll(t testing.TB, dir, message string) {
	t.Helper()
	Run(t, dir, "add", "-A")
	Run(t, dir, "commit", "-q", "--allow-empty", "-m", message)
}

// QuickRaceExit makes the programs a test starts from its own binary (a
// -race build of lucid, say) exit at once: the race detector otherwise
// sleeps a second at every exit (GORACE's atexit_sleep_ms), which made a
// script of 300 lucid commands take five minutes and hid how long a claim
// holds the lock. Call it first thing in TestMain.
func QuickRaceExit() {
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
}
