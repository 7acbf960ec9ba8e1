package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Lock is the exclusive lock on <common git dir>/lucid/lock that makes a
// read-decide-write transaction on shared state atomic across processes and
// linked work trees: an flock on Unix, LockFileEx on Windows. The kernel
// releases it when its holder dies.
type Lock struct{ f *os.File }

// DefaultLockWait is how long a command waits for the repository's lock
// before it gives up and names the holder; LUCID_LOCK_WAIT (seconds)
// changes it. The hooks wait less (Repo.LockWait), well inside the timeout
// their client gives them.
const DefaultLockWait = 10 * time.Second

// LockWaitFromEnv is LUCID_LOCK_WAIT in seconds (fractions allowed), or
// DefaultLockWait when it is unset or not a positive number.
func LockWaitFromEnv() time.Duration {
	s, err := strconv.ParseFloat(strings.TrimSpace(os.Getenv("LUCID_LOCK_WAIT")), 64)
	if err != nil || s <= 0 || s > 86400 {
		return DefaultLockWait
	}
	return time.Duration(s * float64(time.Second))
}

// LockPath is the lock file of the repository.
func (r *Repo) LockPath() string { return filepath.Join(r.CommonDir, "lucid", "lock") }

// LockBusyError says that another process held a lock of lucid's (the
// repository's, or the log's own) for the whole wait.
type LockBusyError struct {
	Path   string
	Wait   time.Duration
	Holder string // "process 1234 (lucid supersede ...)", or "" where the system does not say
	knob   bool   // the wait was LUCID_LOCK_WAIT's: say how to change it
}

func (e *LockBusyError) Error() string {
	holder := e.Holder
	switch {
	case holder != "":
	case runtime.GOOS == "windows":
		holder = "another process (Resource Monitor finds it: CPU, Associated Handles, search for the file's name)"
	default:
		holder = "another process (find it with `lsof " + e.Path + "`)"
	}
	msg := fmt.Sprintf("the lock on %s was held for over %v by %s: wait for it to finish, or end it if it is stuck (the lock frees itself when its holder ends)",
		e.Path, e.Wait, holder)
	if e.knob {
		msg += "; LUCID_LOCK_WAIT=SECONDS waits longer"
	}
	return msg
}

// Lock takes the repository's lock, waiting for it at most r.LockWait
// (LockWaitFromEnv when zero); past that it returns a *LockBusyError that
// names the holder, so that nothing of lucid's waits without end behind a
// stuck process.
func (r *Repo) Lock() (*Lock, error) {
	if r.LockWait > 0 {
		return r.LockWithin(r.LockWait)
	}
	l, err := r.LockWithin(LockWaitFromEnv())
	if busy, ok := err.(*LockBusyError); ok {
		busy.knob = true
	}
	return l, err
}

// LockWithin takes the repository's lock if it comes free within wait, and
// otherwise returns a *LockBusyError that names the holder.
func (r *Repo) LockWithin(wait time.Duration) (*Lock, error) {
	l, ok, err := r.TryLock(wait)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &LockBusyError{Path: r.LockPath(), Wait: wait, Holder: LockHolder(r.LockPath())}
	}
	return l, nil
}

// TryLock takes the repository's lock if it comes free within wait;
// ok is false when another process held it all that time.
func (r *Repo) TryLock(wait time.Duration) (l *Lock, ok bool, err error) {
	path := r.LockPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false, fmt.Errorf("lucid lock: %w", err)
	}
	return LockFile(path, wait)
}

// LockFile takes an exclusive lock on the file at path (created if need
// be) if it comes free within wait; ok is false when another process held
// it all that time.
func LockFile(path string, wait time.Duration) (l *Lock, ok bool, err error) {
	f, err := openFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("lucid lock: %w", err)
	}
	got, err := LockWithin(f, wait)
	if err != nil || !got {
		f.Close()
		if err != nil {
			return nil, false, fmt.Errorf("lucid lock %s: %w", path, err)
		}
		return nil, false, nil
	}
	return &Lock{f: f}, true, nil
}

// LockWithin takes an exclusive lock on f if it comes free within wait.
// It polls, since a blocking lock cannot be given a deadline; the step
// grows to 10 ms, and a lock is held for microseconds to milliseconds, so
// the first retries come quickly.
func LockWithin(f *os.File, wait time.Duration) (bool, error) {
	deadline := time.Now().Add(wait)
	step := time.Millisecond
	for {
		got, err := tryLockFile(f)
		if err != nil || got || !time.Now().Before(deadline) {
			return got, err
		}
		time.Sleep(min(step, time.Until(deadline)))
		step = min(step*2, 10*time.Millisecond)
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l != nil && l.f != nil {
		unlockFile(l.f)
		l.f.Close() // closing the last descriptor releases the lock
		l.f = nil
	}
}
