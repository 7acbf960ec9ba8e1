//go:build unix

package gitstore

import (
	"errors"
	"os"
	"syscall"
)

// OpenSafe opens path as os.OpenFile would, adding the flags of the rules
// in safeio.go: a FIFO must not block the open (O_NONBLOCK), and a final
// link that appeared after the Lstat must not be followed (O_NOFOLLOW).
//
// A file os opens non-blocking goes to the runtime's poller, whose start
// (an epoll instance, an eventfd, and a poll of it at every idle turn of
// the scheduler) is paid by every hook that reads its agent's record. A
// regular file reads the same blocking or not, so it is handed to os
// blocking; anything else stays non-blocking, so that the callers, which
// refuse it after their fstat, never wait on it.
func OpenSafe(path string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := syscall.Open(path, flag|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		syscall.SetNonblock(fd, false)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// noFollowOpen: O_NOFOLLOW refuses a final link (ELOOP).
const noFollowOpen = true

func isLinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }
