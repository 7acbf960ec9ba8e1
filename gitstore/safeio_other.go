//go:build !unix

package gitstore

import "os"

// OpenSafe is os.OpenFile: elsewhere the Lstat before the open and the
// fstat after it are the checks.
func OpenSafe(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// noFollowOpen: an open here follows a final link, so the path is checked
// before it.
const noFollowOpen = false

func isLinkErr(error) bool { return false }
