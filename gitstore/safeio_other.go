//go:build !unix

package gitstore

// openSafeFlags: elsewhere the Lstat before the open and the fstat after
// it are the checks.
const openSafeFlags = 0

func isLinkErr(error) bool { return false }
