package gitstore

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// replaceWait bounds how long ReplaceFile waits for readers of path to
// close it.
const replaceWait = time.Second

// ReplaceFile renames tmp over path. Windows refuses to replace a file
// that another process has open without FILE_SHARE_DELETE, which Go's
// os.Open does not ask for: a hook reading the claims without the lock
// would make a save fail. Such readers hold a file for moments, so the
// rename is tried again, as Git for Windows does, for up to replaceWait.
func ReplaceFile(tmp, path string) error {
	deadline := time.Now().Add(replaceWait)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		err := os.Rename(tmp, path)
		if err == nil || !sharingRefused(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(pause)
	}
}

// sharingRefused reports whether err is Windows refusing a rename because
// the file is open elsewhere.
func sharingRefused(err error) bool {
	const errorSharingViolation syscall.Errno = 32
	return errors.Is(err, syscall.ERROR_ACCESS_DENIED) || errors.Is(err, errorSharingViolation)
}
