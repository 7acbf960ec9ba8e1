package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// holdLockMain is lucid-holdlock [FILE] (see TestMain): the repository's
// lock, or FILE's.
func holdLockMain() {
	repo, err := gitstore.Find(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var l *gitstore.Lock
	var ok bool
	if len(os.Args) > 1 {
		l, ok, err = gitstore.LockFile(os.Args[1], 5*time.Second)
	} else {
		l, ok, err = repo.TryLock(5 * time.Second)
	}
	if err != nil || !ok {
		fmt.Fprintln(os.Stderr, "lucid-holdlock: could not take the lock", err)
		os.Exit(2)
	}
	fmt.Println("held")
	io.Copy(io.Discard, os.Stdin)
	l.Unlock()
	os.Exit(0)
}

// holdLock starts a child process that holds the repository's lock (or
// the lock of the file named) until the test ends, and returns its pid.
func holdLock(t *testing.T, repo *gitstore.Repo, file ...string) int {
	t.Helper()
	cmd := exec.Command("lucid-holdlock", file...)
	cmd.Dir = repo.Top
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "held\n" {
		t.Fatalf("lucid-holdlock: %q, %v", line, err)
	}
	return cmd.Process.Pid
}

// hookRun runs `lucid hook EVENT` with payload and returns its stdout,
// stderr and how long it took.
func hookRun(t *testing.T, repo *gitstore.Repo, event, payload string) (string, string, time.Duration) {
	t.Helper()
	cmd := lucidCmd(repo, "", "hook", event)
	cmd.Stdin = strings.NewReader(payload)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("lucid hook %s: %v\n%s", event, err, errOut.String())
	}
	return out.String(), errOut.String(), time.Since(start)
}

// hookWithin is how long a hook may take with the lock held: its budget
// (1 s) and a process's start, with room for -race and a busy machine, and
// still well inside the 10 s lucid registers.
const hookWithin = 4 * time.Second

// TestHooksLockHeld: with the repository's lock held by another process,
// the prompt and tool-call hooks of an agent with news pending give up on
// the lock within their budget, fail open with one line on stderr that
// names the holder, and a claimed path is still denied.
func TestHooksLockHeld(t *testing.T) {
	repo := newLucidRepo(t)
	const session = "6a0e5c4e-1f53-4c3a-9a57-3f3d0d0d7a11"
	payload := func(event, extra string) string {
		return fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q%s}`, session, repo.Top, event, extra)
	}
	if _, errOut, _ := hookRun(t, repo, "SessionStart", payload("SessionStart", `,"source":"startup"`)); errOut != "" {
		t.Fatalf("SessionStart: %s", errOut)
	}
	for _, args := range [][]string{{"fact", "news for the agent"}, {"claim", "src/**", "--for", "the login"}} {
		if out, err := lucidCmd(repo, "someone-else", args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	pid := holdLock(t, repo)
	edit := func(path string) string {
		return fmt.Sprintf(`,"tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"}`, repo.Top+"/"+path)
	}
	for _, c := range []struct {
		name, event, extra string
		deny               bool
	}{
		{"UserPromptSubmit", "UserPromptSubmit", `,"prompt":"go on"`, false},
		{"PreToolUse on a free path", "PreToolUse", edit("docs/a.md"), false},
		{"PreToolUse on a claimed path", "PreToolUse", edit("src/a.go"), true},
	} {
		out, errOut, took := hookRun(t, repo, c.event, payload(c.event, c.extra))
		if took > hookWithin {
			t.Errorf("%s took %v with the lock held, want within %v", c.name, took, hookWithin)
		}
		if c.deny {
			if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "src/a.go is claimed by") {
				t.Errorf("%s with the lock held: not denied: %s (stderr %s)", c.name, out, errOut)
			}
			continue
		}
		if out != "" {
			t.Errorf("%s with the lock held printed %s, want nothing (fail open)", c.name, out)
		}
		if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "lock") || !strings.Contains(errOut, "process "+strconv.Itoa(pid)) {
			t.Errorf("%s with the lock held: stderr %q, want one line naming the lock's holder, process %d", c.name, errOut, pid)
		}
	}
	// The news was not lost: once the lock is free, it comes.
}

// TestStopsLockHeld: with the lock held, the hooks that end claims wait
// no longer than their budget (SessionEnd 0.5 s, Stop and SubagentStop 1 s,
// all their waits together), then fail open saying so; the claims are left
// to expire.
func TestStopsLockHeld(t *testing.T) {
	repo := newLucidRepo(t)
	const session = "6a0e5c4e-1f53-4c3a-9a57-3f3d0d0d7a11"
	payload := func(event string) string {
		return fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q}`, session, repo.Top, event)
	}
	if out, err := lucidCmd(repo, session, "claim", "src/**", "--for", "the login").CombinedOutput(); err != nil {
		t.Fatalf("claim: %v\n%s", err, out)
	}
	holdLock(t, repo)
	for _, c := range []struct {
		event, budget string
		within        time.Duration
	}{{"SessionEnd", "500ms", time.Second}, {"Stop", "1s", 2 * time.Second}} {
		_, errOut, took := hookRun(t, repo, c.event, payload(c.event))
		if !strings.Contains(errOut, "stayed locked through this hook's wait for the lock ("+c.budget+" in all") {
			t.Errorf("%s with the lock held: stderr %q, want that it waited %s", c.event, errOut, c.budget)
		}
		if took > c.within {
			t.Errorf("%s with the lock held took %v, want within %v (its budget is %s)", c.event, took, c.within, c.budget)
		}
	}
}

// TestCommandsLockHeld: a command that needs the lock waits LUCID_LOCK_WAIT
// for it, then fails saying which process holds it and what to do; lucid
// supersede of an unknown id does not need the lock at all.
func TestCommandsLockHeld(t *testing.T) {
	repo := newLucidRepo(t)
	out, err := lucidCmd(repo, "", "fact", "first").Output()
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(string(out))
	pid := holdLock(t, repo)
	for _, args := range [][]string{
		{"claim", "src/**", "--for", "t"},
		{"supersede", id, "corrected"},
		{"release"},
	} {
		cmd := lucidCmd(repo, "", args...)
		cmd.Env = append(cmd.Env, "LUCID_LOCK_WAIT=0.3")
		start := time.Now()
		b, err := cmd.CombinedOutput()
		took := time.Since(start)
		if err == nil && args[0] != "release" {
			t.Errorf("lucid %v succeeded with the lock held:\n%s", args, b)
			continue
		}
		if took > hookWithin {
			t.Errorf("lucid %v took %v with LUCID_LOCK_WAIT=0.3", args, took)
		}
		if err == nil {
			continue // nothing to release: no lock needed
		}
		want := []string{"held for over 300ms by process " + strconv.Itoa(pid), "LUCID_LOCK_WAIT"}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("lucid %v with the lock held said %q, want it to contain %q", args, b, w)
			}
		}
	}
	cmd := lucidCmd(repo, "", "supersede", "01JZZZZZZZZZZZZZZZZZZZZZZZ", "x")
	start := time.Now()
	b, _ := cmd.CombinedOutput()
	if !strings.Contains(string(b), "no entry has the id") || time.Since(start) > hookWithin {
		t.Errorf("supersede of an unknown id with the lock held: %q after %v, want the unknown id refused at once", b, time.Since(start))
	}
}

// TestAppendLockHeld: a writer stopped while it holds the log's own lock
// (held for one write) keeps lucid fact waiting two seconds, not for ever:
// then it fails, naming the holder, and writes nothing.
func TestAppendLockHeld(t *testing.T) {
	repo := newLucidRepo(t)
	pid := holdLock(t, repo, repo.LogPath())
	start := time.Now()
	out, err := lucidCmd(repo, "", "fact", "waits").CombinedOutput()
	if err == nil || time.Since(start) > hookWithin || !strings.Contains(string(out), "by process "+strconv.Itoa(pid)) {
		t.Errorf("lucid fact with the log locked: %v after %v: %s", err, time.Since(start), out)
	}
	if b, _ := os.ReadFile(repo.LogPath()); len(b) != 0 {
		t.Errorf("the log holds %q after a failed fact", b)
	}
}
