// Package gittest runs git for tests: in a folder, with a fixed identity
// and none of the machine's or the user's configuration, failing the test
// with git's output when git fails.
package gittest

import (
	"os"
	"os/exec"
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
