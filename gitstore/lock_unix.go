//go:build unix

package gitstore

import (
	"os"
	"syscall"
)

// tryLockFile takes an exclusive flock on f if it is free; closing f
// releases it.
func tryLockFile(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case syscall.EWOULDBLOCK:
			return false, nil
		case syscall.EINTR:
			continue
		}
		return false, err
	}
}

// unlockFile does nothing: closing f releases its flock at once.
func unlockFile(*os.File) {}
