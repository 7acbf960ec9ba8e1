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

// Links is how many names the file has (its hard links); 1 where the
// system does not say.
func Links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// Foreign reports whether the file belongs to another user than the one
// running lucid: a file of lucid's state it did not write.
func Foreign(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) != os.Getuid()
}
