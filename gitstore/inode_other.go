//go:build !unix

package gitstore

import "os"

// Inode is 0 where a FileInfo carries no inode (Windows): a cursor then
// tells a replaced log by its size, time and the hash of its tail.
func Inode(fi os.FileInfo) uint64 { return 0 }
