//go:build !unix

package gitstore

import "os"

// Inode is 0 where a FileInfo carries no inode (Windows): a cursor then
// tells a replaced log by its size, time and the hash of its tail.
func Inode(fi os.FileInfo) uint64 { return 0 }

// Links is 1 where a FileInfo does not count a file's names (Windows,
// where a hard link to lucid's state is not looked for).
func Links(fi os.FileInfo) uint64 { return 1 }

// Foreign is false where a FileInfo names no owner (Windows).
func Foreign(fi os.FileInfo) bool { return false }
