//go:build unix

package gitstore

import (
	"os"
	"syscall"
)

// Inode is the file's inode number, so that a cursor tells a log replaced
// by another file of the same size and time from the one it saw.
func Inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
