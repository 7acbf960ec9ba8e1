//go:build !linux

package gitstore

import "os"

// openFile is os.OpenFile: elsewhere os leaves regular files out of the
// poller itself.
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}
