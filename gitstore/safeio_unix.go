//go:build unix

package gitstore

import (
	"errors"
	"syscall"
)

// openSafeFlags: a FIFO must not block the open, and a final link that
// appeared after the Lstat must not be followed.
const openSafeFlags = syscall.O_NONBLOCK | syscall.O_NOFOLLOW

func isLinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }
