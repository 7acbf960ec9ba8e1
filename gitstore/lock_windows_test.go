//go:build windows

package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// On Windows the lock is LockFileEx on one byte far past the file's end,
// not an flock: another handle, in this process or another, is refused it
// while it is held, and gets it once it is released.
func TestWindowsLockExcludesAnotherHandle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	l, ok, err := LockFile(path, 0)
	if !ok || err != nil {
		t.Fatalf("the first lock: %v, %v", ok, err)
	}
	// Another goroutine, with a handle of its own, waits its time and is
	// refused.
	refused := make(chan error, 1)
	go func() {
		l2, ok, err := LockFile(path, 50*time.Millisecond)
		switch {
		case err != nil:
			refused <- err
		case ok:
			l2.Unlock()
			refused <- errors.New("a second handle took the held lock")
		default:
			refused <- nil
		}
	}()
	if err := <-refused; err != nil {
		t.Fatal(err)
	}
	// Unlock frees it for the next taker at once, not when Windows gets
	// round to the closed handle.
	l.Unlock()
	for i := range 20 {
		l2, ok, err := LockFile(path, 0)
		if !ok || err != nil {
			t.Fatalf("take %d, just after an Unlock: %v, %v", i, ok, err)
		}
		l2.Unlock()
	}
}

// A holder that dies without unlocking (killed) leaves the lock free:
// Windows releases a dead process's locks, though not at the instant it
// ends, so the taker gets the time a hook would wait.
func TestWindowsLockFreedWhenTheHolderDies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	pid, _ := holdLock(t, path)
	if _, ok, err := LockFile(path, 20*time.Millisecond); ok || err != nil {
		t.Fatalf("the lock while process %d holds it: %v, %v", pid, ok, err)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	l, ok, err := LockFile(path, 10*time.Second)
	if !ok || err != nil {
		t.Fatalf("the lock of a killed holder was not freed within 10 s: %v, %v", ok, err)
	}
	l.Unlock()
}

// Windows locks are mandatory for the bytes they cover; lucid's covers
// none a file has, so while another process holds the log's lock, the log
// is still read whole and appended to (the append then waits for the lock
// itself, but its reads and writes are never refused).
func TestWindowsLockLeavesTheBytesFree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	holdLock(t, path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("second\n"); err != nil {
		t.Fatalf("a write to a file whose lock another process holds: %v", err)
	}
	f.Close()
	if b, err := os.ReadFile(path); err != nil || string(b) != "first\nsecond\n" {
		t.Fatalf("the file reads %q, %v", b, err)
	}
}

// Windows does not say who holds a lock: LockHolder is empty, and the
// error sends the user to Resource Monitor instead of lsof.
func TestWindowsLockBusyNamesResourceMonitor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	holdLock(t, path)
	if h := LockHolder(path); h != "" {
		t.Errorf("LockHolder on Windows: %q", h)
	}
	err := (&LockBusyError{Path: path, Wait: time.Second, Holder: LockHolder(path)}).Error()
	if !strings.Contains(err, "Resource Monitor") || strings.Contains(err, "lsof") {
		t.Errorf("the busy lock's error does not say how to find the holder on Windows:\n%s", err)
	}
}
