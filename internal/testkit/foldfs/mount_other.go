//go:build !linux

package foldfs

import (
	"errors"
	"testing"
)

// Mount skips the test: foldfs serves its folders on Linux only, where
// the file systems do not fold names. Elsewhere, use the machine's own.
func Mount(t testing.TB, mode Mode) string {
	t.Helper()
	t.Skip(Available())
	return ""
}

// Available says that foldfs is for Linux only.
func Available() error {
	return errors.New("foldfs: Linux only: a Mac's and Windows' own file systems fold names already")
}
