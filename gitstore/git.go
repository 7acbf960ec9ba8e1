package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// RunGit runs git with args in dir and returns its standard output. It is
// how lucid runs git everywhere: the installers, lucid doctor, the claims
// shared through a remote, and the few hook calls that must ask git (a
// shell line with a whole-tree git command, a log that git rewrote); the
// common hook call runs none. A command that fails returns a *GitError.
func RunGit(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := GitCommand(ctx, dir, args...)
	// ssh, which git may start, can outlive git and hold the pipes open.
	cmd.WaitDelay = time.Second
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return stdout.Bytes(), &GitError{Args: args, Code: -1, Reason: fmt.Sprintf("cannot run git (%v): install git, or put it on PATH", err)}
		}
		return stdout.Bytes(), &GitError{Args: args, Code: ee.ExitCode(), Reason: gitReason(stderr.Bytes(), err)}
	}
	return stdout.Bytes(), nil
}

// GitCommand is git with args to run in dir, in GitEnv, for the caller
// that talks with it as it runs (git cat-file --batch); RunGit is the
// rest's.
func GitCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = GitEnv()
	return cmd
}

// GitError is a git command that failed, with its first line of
// explanation.
type GitError struct {
	Args   []string
	Code   int // the exit code; -1 when git did not run or did not finish
	Reason string
}

func (e *GitError) Error() string {
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), e.Reason)
}

// GitExitCode returns the exit code of a git command that failed, or -1.
func GitExitCode(err error) int {
	var ge *GitError
	if errors.As(err, &ge) {
		return ge.Code
	}
	return -1
}

// GitEnv is the environment of the git processes lucid runs: the user's,
// without what would point git at another repository, with messages in
// English (lucid reads some of them), and with no prompt for a password on
// a terminal that an agent cannot answer.
func GitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX", "LC_ALL", "LANGUAGE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
}

// gitReason is the line of git's standard error that says what went wrong:
// the first "fatal:" or "error:" line, else the first line.
func gitReason(stderr []byte, err error) string {
	var first string
	for line := range strings.SplitSeq(string(stderr), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		for _, p := range []string{"fatal: ", "error: "} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				return rest
			}
		}
		if first == "" {
			first = line
		}
	}
	if first == "" {
		return err.Error()
	}
	return first
}
