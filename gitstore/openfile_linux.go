package gitstore

import (
	"os"
	"syscall"
)

// openFile is os.OpenFile for a regular file, without the poller (see
// openfile.go): os.NewFile of a blocking descriptor leaves it out.
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
