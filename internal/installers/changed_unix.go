//go:build unix

package installers

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// changed is when f last changed: the later of its modification time and
// its inode's change time, which nothing but the kernel sets (touch -d
// sets the first back, and moves the second to now).
func changed(f *os.File, fi os.FileInfo) time.Time {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return fi.ModTime()
	}
	if c := time.Unix(st.Ctim.Unix()); c.After(fi.ModTime()) {
		return c
	}
	return fi.ModTime()
}
