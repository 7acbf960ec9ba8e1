package gitstore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// holdLockEnv makes the test binary, started again by holdLock, a process
// that holds the lock of the file it names until its standard input ends.
const holdLockEnv = "LUCID_TEST_HOLDLOCK"

func TestMain(m *testing.M) {
	gittest.QuickRaceExit()
	if path := os.Getenv(holdLockEnv); path != "" {
		l, ok, err := LockFile(path, 0)
		if err != nil || !ok {
			fmt.Fprintln(os.Stderr, "could not take the lock:", ok, err)
			os.Exit(2)
		}
		fmt.Println("held")
		io.Copy(io.Discard, os.Stdin)
		l.Unlock()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// holdLock starts another process that holds the lock on path, and
// returns its pid and a function that ends it (and with it the lock). The
// extra arguments make its command line long.
func holdLock(t *testing.T, path string, args ...string) (int, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$"}, args...)...)
	cmd.Env = append(os.Environ(), holdLockEnv+"="+path)
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
	release := func() {
		stdin.Close()
		cmd.Wait()
	}
	t.Cleanup(release)
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("the lock holder said %q, %v", line, err)
	}
	return cmd.Process.Pid, release
}

// While another process holds the repository's lock, Lock waits the time
// it was given, then gives up with an error that names the lock file and
// the holder; once the holder ends, the lock is free at once.
func TestLockHeldByAnotherProcess(t *testing.T) {
	r, err := Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(r.CommonDir, "lucid", "lock"); r.LockPath() != want {
		t.Fatalf("LockPath %s, want %s", r.LockPath(), want)
	}
	// Take it once here, so that the folder exists for the holder.
	l, err := r.LockWithin(0)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	l.Unlock() // a second Unlock does nothing
	long := strings.Repeat("long-argument-", 10)
	pid, release := holdLock(t, r.LockPath(), long)

	const wait = 50 * time.Millisecond
	start := time.Now()
	l, err = r.LockWithin(wait)
	took := time.Since(start)
	var busy *LockBusyError
	if !errors.As(err, &busy) || l != nil {
		t.Fatalf("LockWithin while another process holds it: %v, %v", l, err)
	}
	if took < wait {
		t.Errorf("LockWithin gave up after %v, before the %v it was given", took, wait)
	}
	msg := err.Error()
	for _, want := range []string{"the lock on " + r.LockPath() + " was held for over 50ms by " + busy.Holder + ": ", "the lock frees itself when its holder ends"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "LUCID_LOCK_WAIT") {
		t.Errorf("a wait given by the caller names LUCID_LOCK_WAIT: %s", msg)
	}
	if runtime.GOOS == "linux" { // where the system names the holder: its pid and command line, cut to 80 characters
		cmdline := os.Args[0] + " -test.run=^$ " + long
		inside, ok := strings.CutPrefix(busy.Holder, fmt.Sprintf("process %d (", pid))
		inside, cut := strings.CutSuffix(inside, "…)")
		if !ok || !cut || len([]rune(inside)) != 79 || !strings.HasPrefix(cmdline, inside) {
			t.Errorf("the holder %q is not process %d with its command line %q cut to 80 characters", busy.Holder, pid, cmdline)
		}
	}

	if _, ok, err := r.TryLock(0); ok || err != nil {
		t.Errorf("TryLock while held: %v, %v", ok, err)
	}

	// The repository's own wait, and the one from LUCID_LOCK_WAIT, which
	// the error names so that the user can wait longer.
	r.LockWait = 20 * time.Millisecond
	if _, err := r.Lock(); !errors.As(err, &busy) || busy.Wait != r.LockWait || strings.Contains(err.Error(), "LUCID_LOCK_WAIT") {
		t.Errorf("Lock with the repository's wait: %v", err)
	}
	r.LockWait = 0
	t.Setenv("LUCID_LOCK_WAIT", "0.02")
	if _, err := r.Lock(); !errors.As(err, &busy) || busy.Wait != 20*time.Millisecond || !strings.HasSuffix(err.Error(), "; LUCID_LOCK_WAIT=SECONDS waits longer") {
		t.Errorf("Lock with LUCID_LOCK_WAIT: %v", err)
	}

	release()
	l, err = r.Lock()
	if err != nil {
		t.Fatalf("Lock after the holder ended: %v", err)
	}
	// Held by this process now: a lock taken on another descriptor waits.
	if _, ok, err := LockFile(r.LockPath(), 0); ok || err != nil {
		t.Errorf("a second lock of the held file: %v, %v", ok, err)
	}
	if h := LockHolder(r.LockPath()); h != "" {
		t.Errorf("the holder of this process's own lock is named: %q", h)
	}
	l.Unlock()
	if l2, ok, err := LockFile(r.LockPath(), 0); !ok || err != nil {
		t.Errorf("the lock after Unlock: %v, %v", ok, err)
	} else {
		l2.Unlock()
	}
}

// A lock that cannot be made says why, with the path.
func TestLockCannotBeMade(t *testing.T) {
	common := filepath.Join(t.TempDir(), "git")
	os.WriteFile(common, nil, 0o644) // a file where the git dir should be
	r := &Repo{CommonDir: common}
	if _, err := r.LockWithin(0); err == nil || !strings.HasPrefix(err.Error(), "lucid lock: ") {
		t.Errorf("a lock under a file: %v", err)
	}
	if _, _, err := LockFile(filepath.Join(t.TempDir(), "missing", "lock"), 0); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "lucid lock: ") {
		t.Errorf("a lock in a missing folder: %v", err)
	}
	if h := LockHolder(filepath.Join(t.TempDir(), "none")); h != "" {
		t.Errorf("the holder of a missing file: %q", h)
	}
}

func TestLockWaitFromEnv(t *testing.T) {
	for _, c := range []struct {
		val  string
		want time.Duration
	}{
		{"", DefaultLockWait}, {"2", 2 * time.Second}, {" 0.5\n", 500 * time.Millisecond},
		{"0", DefaultLockWait}, {"-1", DefaultLockWait}, {"ten", DefaultLockWait}, {"100000", DefaultLockWait},
	} {
		t.Setenv("LUCID_LOCK_WAIT", c.val)
		if got := LockWaitFromEnv(); got != c.want {
			t.Errorf("LUCID_LOCK_WAIT=%q: %v, want %v", c.val, got, c.want)
		}
	}
}

// Where the system cannot name the holder, the error says how to find it.
func TestLockBusyErrorWithoutHolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows names Resource Monitor instead")
	}
	e := &LockBusyError{Path: "/r/.git/lucid/lock", Wait: time.Second}
	if want := "by another process (find it with `lsof /r/.git/lucid/lock`)"; !strings.Contains(e.Error(), want) {
		t.Errorf("%s\ndoes not say %q", e, want)
	}
}
