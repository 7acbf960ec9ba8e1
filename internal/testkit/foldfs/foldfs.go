// Package foldfs mounts, for tests, a folder whose names fold as they do on
// a Mac or on Windows: a loopback FUSE file system over a temporary backing
// folder in which `src/Auth.go`, `src/auth.go` and `SRC/AUTH.GO` name one
// file, as they do on APFS and NTFS, while the tests run on Linux, whose
// file systems tell them apart. lucid's claims on files must hold on those
// systems; a test that mounts one here sees what a user there would see:
// the same file through every spelling of its name (os.SameFile agrees), a
// create in another case opening the file that is there, names listed in
// the case they were made in, a rename that changes only the case; and,
// under FoldCaseNorm, the NFC and NFD spellings of a name as one. git, the
// shell, programs run from the mount, flock and O_EXCL work on it; git
// init there sets core.ignorecase by itself.
//
// Mount makes the folder, served by a process of its own, and unmounts it
// when the test ends, however it ends; Available says why FUSE cannot be
// used on a machine, and Mount skips the test with that reason there.
// Linux only: elsewhere Available says so and Mount skips.
//
// Where it is not a Mac: fcntl (POSIX) locks taken through two spellings
// of one name do not see each other (flock's do, but /proc/locks names the
// server as their holder); where the kernel cannot pass files through to
// the backing ones (before Linux 6.9, or not root), a file mapped through
// one spelling may miss a write through another; names fold as
// strings.EqualFold folds them (Unicode simple folding), not by APFS's or
// NTFS's own tables; and every lookup goes to the server, as the kernel
// caches no name, which costs a few milliseconds a file (git add of a
// thousand files: four seconds; a commit of one: 50 ms).
package foldfs

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Mode is how names fold.
type Mode int

const (
	// FoldCase folds case only, as NTFS does and as APFS's and HFS+'s
	// default, case-insensitive but case-preserving, formats do: a lookup
	// of any case spelling finds the one entry, and the NFC and NFD
	// spellings of é are two names.
	FoldCase Mode = iota
	// FoldCaseNorm folds case and Unicode normalisation, as APFS does on
	// a Mac: the NFC and NFD spellings of a name (é as one code point, or
	// as e and a combining accent) also find one entry.
	FoldCaseNorm
)

func (m Mode) String() string {
	switch m {
	case FoldCase:
		return "FoldCase"
	case FoldCaseNorm:
		return "FoldCaseNorm"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Same reports whether the names a and b are one name under m. Names that
// are not UTF-8 are compared byte for byte: folding would take any two
// invalid bytes for one character (APFS refuses such names; NTFS cannot
// hold them).
func (m Mode) Same(a, b string) bool {
	if a == b {
		return true
	}
	if !utf8.ValidString(a) || !utf8.ValidString(b) {
		return false
	}
	if m == FoldCaseNorm {
		a, b = norm.NFD.String(a), norm.NFD.String(b)
	}
	return strings.EqualFold(a, b)
}
