//go:build windows

package gitstore

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// Windows locks are mandatory for the bytes they cover, so lucid locks one
// byte far past any file's end: readers of the log (whose appends lock it
// too) are never refused its bytes.
const lockOffLow, lockOffHigh = 0xFFFFFFFE, 0x7FFFFFFF

func lockFile(f *os.File, flags uint32) error {
	ol := &windows.Overlapped{Offset: lockOffLow, OffsetHigh: lockOffHigh}
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|flags, 0, 1, 0, ol)
}

// tryLockFile takes an exclusive lock on f if it is free; closing f
// releases it.
func tryLockFile(f *os.File) (bool, error) {
	err := lockFile(f, windows.LOCKFILE_FAIL_IMMEDIATELY)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}

// unlockFile releases f's lock before it is closed: Windows frees the
// locks of a closed handle in its own time, so a lock only closed could
// still refuse the next taker for a while.
func unlockFile(f *os.File) {
	ol := &windows.Overlapped{Offset: lockOffLow, OffsetHigh: lockOffHigh}
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}
