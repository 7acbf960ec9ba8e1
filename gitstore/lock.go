package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Lock is the exclusive flock on <common git dir>/lucid/lock that makes a
// read-decide-write transaction on shared state atomic across processes and
// linked work trees. The kernel releases it when its holder dies.
type Lock struct{ f *os.File }

// LockPath is the lock file of the repository.
func (r *Repo) LockPath() string { return filepath.Join(r.CommonDir, "lucid", "lock") }

// Lock waits for the repository's lock and takes it.
func (r *Repo) Lock() (*Lock, error) {
	path := r.LockPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lucid lock: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lucid lock: %w", err)
	}
	if err := flock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lucid lock %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// TryLock takes the repository's lock if it comes free within wait;
// ok is false when another process held it all that time.
func (r *Repo) TryLock(wait time.Duration) (l *Lock, ok bool, err error) {
	path := r.LockPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false, fmt.Errorf("lucid lock: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("lucid lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return &Lock{f: f}, true, nil
		case err != syscall.EWOULDBLOCK && err != syscall.EINTR:
			f.Close()
			return nil, false, fmt.Errorf("lucid lock %s: %w", path, err)
		case time.Now().After(deadline):
			f.Close()
			return nil, false, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l != nil && l.f != nil {
		l.f.Close() // closing the last descriptor releases the flock
		l.f = nil
	}
}

// flock takes an exclusive flock on f, waiting for it; closing f releases it.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}
