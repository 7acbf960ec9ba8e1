//go:build unix

package gitstore_test

import "syscall"

// mkfifo makes a FIFO at path, for the tests of what lucid does with one.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
