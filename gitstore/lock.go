package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
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
