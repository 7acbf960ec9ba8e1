//go:build !unix

package gitstore

import "os"

// inode is 0 where a FileInfo carries no inode (Windows): a cursor then
// tells a replaced log by its size, time and the hash of its tail.
func inode(fi os.FileInfo) uint64 { return 0 }
