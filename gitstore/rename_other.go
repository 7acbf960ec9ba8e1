//go:build !windows

package gitstore

import "os"

// ReplaceFile renames tmp over path, the last step of an atomic write: on
// these systems a rename replaces a file that others have open, who keep
// reading the old one.
func ReplaceFile(tmp, path string) error { return os.Rename(tmp, path) }
