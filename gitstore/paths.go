package gitstore

import (
	"os"
	"path/filepath"
	"strings"
)

// Inside reports whether path is dir or below it, as the system's paths
// go (on Windows another volume is outside, and case does not count), and
// rel, path relative to dir with the system's separators, when it is. It
// reads the two as they are written: a link is not resolved, and an
// absolute path is never inside a relative dir, nor the reverse. A name
// that begins with two dots ("..b") is inside.
func Inside(dir, path string) (rel string, ok bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// SameFile reports whether a and b name the same file or folder: the
// same path, or two paths to one file on disk (a link, another spelling).
func SameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
