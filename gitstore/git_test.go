package gitstore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// RunGit gives git's output; a failure is a *GitError with git's exit code
// and the line of its standard error that says what went wrong.
func TestRunGit(t *testing.T) {
	gittest.Setenv(t)
	top := gittest.Committed(t)
	out, err := RunGit(context.Background(), top, nil, "rev-parse", "--show-toplevel")
	if err != nil || strings.TrimSpace(string(out)) != top {
		t.Fatalf("rev-parse: %q, %v", out, err)
	}
	out, err = RunGit(context.Background(), top, []byte("hello\n"), "hash-object", "--stdin")
	if want := gittest.Run(t, top, "hash-object", gittest.WriteFile(t, t.TempDir(), "f", "hello\n")); err != nil || strings.TrimSpace(string(out)) != want {
		t.Errorf("hash-object of stdin: %q, %v; want %s", out, err, want)
	}

	_, err = RunGit(context.Background(), top, nil, "rev-parse", "--verify", "no-such-branch")
	var ge *GitError
	if !errors.As(err, &ge) || ge.Code != 128 || GitExitCode(err) != 128 {
		t.Fatalf("a failed command: %#v", err)
	}
	if err.Error() != "git rev-parse --verify no-such-branch: Needed a single revision" {
		t.Errorf("the error: %s", err)
	}
	// A command that says nothing on failure: its exit status stands.
	_, err = RunGit(context.Background(), top, nil, "diff", "--quiet", "--exit-code", "HEAD", "HEAD~0")
	if err != nil {
		t.Fatalf("an empty diff: %v", err)
	}
	gittest.WriteFile(t, top, "f", "x\n")
	gittest.Run(t, top, "add", "f")
	_, err = RunGit(context.Background(), top, nil, "diff", "--cached", "--quiet")
	if GitExitCode(err) != 1 || err.Error() != "git diff --cached --quiet: exit status 1" {
		t.Errorf("a silent failure: %v", err)
	}
	if GitExitCode(errors.New("other")) != -1 || GitExitCode(nil) != -1 {
		t.Error("an error not from git has an exit code")
	}
}

// Without git on PATH the error says to install it.
func TestRunGitWithoutGit(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := RunGit(context.Background(), t.TempDir(), nil, "status")
	if GitExitCode(err) != -1 || !strings.Contains(err.Error(), "cannot run git") || !strings.HasSuffix(err.Error(), "install git, or put it on PATH") {
		t.Errorf("no git: %v", err)
	}
}

// git run by lucid works on the repository of its folder, whatever the
// environment of a hook points at, and speaks English without prompting.
func TestGitEnv(t *testing.T) {
	gittest.Setenv(t)
	top := gittest.Committed(t)
	other := gittest.Init(t)
	t.Setenv("GIT_DIR", other+"/.git")
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("LC_ALL", "fr_FR.UTF-8")
	t.Setenv("LANGUAGE", "fr")
	out, err := RunGit(context.Background(), top, nil, "rev-parse", "--show-toplevel")
	if err != nil || strings.TrimSpace(string(out)) != top {
		t.Errorf("with GIT_DIR of another repository, git ran in %q, %v", out, err)
	}
	env := GitEnv()
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_WORK_TREE=") || strings.HasPrefix(kv, "LANGUAGE=") || kv == "LC_ALL=fr_FR.UTF-8" {
			t.Errorf("GitEnv keeps %s", kv)
		}
	}
	if !slices.Contains(env, "LC_ALL=C") || !slices.Contains(env, "GIT_TERMINAL_PROMPT=0") || !slices.Contains(env, "GIT_AUTHOR_NAME=t") {
		t.Errorf("GitEnv: %v", env)
	}
}

// The reason of a failure is git's first fatal: or error: line, else its
// first line, else how it ended.
func TestGitReason(t *testing.T) {
	ended := errors.New("exit status 3")
	for _, c := range []struct{ stderr, want string }{
		{"hint: something\nfatal: the reason\nerror: later\n", "the reason"},
		{"warning: w\n  error: indented\n", "indented"},
		{"\n  first line  \nsecond\n", "first line"},
		{"", ended.Error()},
	} {
		if got := gitReason([]byte(c.stderr), ended); got != c.want {
			t.Errorf("gitReason(%q) = %q, want %q", c.stderr, got, c.want)
		}
	}
}
