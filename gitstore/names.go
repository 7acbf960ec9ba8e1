package gitstore

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Names is how a work tree's file system compares names, as git recorded
// it when it made the repository (git init and git clone probe the file
// system). Every comparison of paths lucid makes must compare as the file
// system does, or a claim on match.go would not cover a write of
// Match.go where that is the same file. The zero Names compares bytes.
type Names uint8

const (
	// FoldsCase: names that differ only in case are one name, as on
	// APFS, HFS+ and NTFS by default (core.ignorecase).
	FoldsCase Names = 1 << iota
	// Precomposes: the NFC and NFD spellings of a name (é as one code
	// point, or as e and a combining accent) are one name, as on a Mac
	// (core.precomposeunicode).
	Precomposes
)

// Names reads how the work tree's file system compares names.
// It reads the config once for the Repo, both keys at once: every
// writing hook call asks, from several places, and git sets them only
// when it makes the repository.
func (r *Repo) Names() Names {
	if v := r.names.Load(); v != 0 {
		return Names(v - 1)
	}
	n := readNames(filepath.Join(r.CommonDir, "config"))
	r.names.Store(uint32(n) + 1)
	return n
}

// readNames reads how names compare from the git config at path.
func readNames(path string) Names {
	data, err := readFile(path)
	if err != nil {
		return 0
	}
	var n Names
	if dataBool(data, "core", "ignorecase") {
		n |= FoldsCase
	}
	if dataBool(data, "core", "precomposeunicode") {
		n |= Precomposes
	}
	return n
}

// Key is name as n compares it: two names are one where their keys are
// equal.
func (n Names) Key(name string) string {
	if n&Precomposes != 0 {
		name = norm.NFC.String(name)
	}
	if n&FoldsCase != 0 {
		name = FoldCase(name)
	}
	return name
}

// Same reports whether a and b are one name under n.
func (n Names) Same(a, b string) bool { return a == b || n != 0 && n.Key(a) == n.Key(b) }

// FoldCase is name as a file system that folds case compares it: each
// letter replaced by the smallest of the letters that fold to it (A for
// a and A, K for k, K and the Kelvin sign), every other byte kept.
func FoldCase(name string) string {
	i := strings.IndexFunc(name, func(r rune) bool { return foldRune(r) != r })
	if i < 0 {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	b.WriteString(name[:i])
	for _, r := range name[i:] {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune is the smallest rune of r's orbit under simple case folding.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		if r != 'k' && r != 's' {
			return r
		}
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// InsideNamed is Inside as n compares names: path is inside dir when it
// is once both are keyed, and rel keeps path's own spelling.
func InsideNamed(n Names, dir, path string) (rel string, ok bool) {
	if rel, ok = Inside(dir, path); ok || n == 0 {
		return rel, ok
	}
	if _, ok = Inside(n.Key(dir), n.Key(path)); !ok {
		return "", false
	}
	// A key keeps every separator and the count of path elements, so
	// path's own elements after dir's are rel.
	depth := len(strings.Split(filepath.Clean(dir), string(filepath.Separator)))
	parts := strings.Split(filepath.Clean(path), string(filepath.Separator))
	if depth >= len(parts) {
		return ".", true
	}
	return filepath.Join(parts[depth:]...), true
}

// OnDisk is rel (relative to the folder top, with slashes) spelled as
// the file system holds it where n folds names: each element that exists
// replaced by its folder's entry of the same name under n, the rest (a
// file not made yet) kept as given. Where n is zero it is rel. A name
// that is there as spelled is kept, so a folder that (on a file system
// that does not fold) holds both spellings keeps the one given.
//
// Two spellings of one file have one OnDisk, which is what a file's marker
// of edits is named by: lich's guard names a marker by the path its tool
// wrote, and a tool writes the spelling on disk nearly always. top is
// taken as it is spelled: a work tree's top is the folder git found, which
// on a Mac is spelled as on disk.
func OnDisk(n Names, top, rel string) string {
	if n == 0 || rel == "" || rel == "." {
		return rel
	}
	parts := strings.Split(rel, "/")
	dir := top
	for i, part := range parts {
		name, ok := entryNamed(n, dir, part)
		if !ok {
			break
		}
		parts[i] = name
		dir = filepath.Join(dir, name)
	}
	return strings.Join(parts, "/")
}

// entryNamed is the entry of folder dir that is name under n: name itself
// when it is there as spelled, else the first entry that is the same.
func entryNamed(n Names, dir, name string) (string, bool) {
	if name == "." || name == ".." || name == "" {
		return "", false
	}
	f, err := os.Open(dir)
	if err != nil {
		return "", false
	}
	defer f.Close()
	same := n.sameAs(name)
	found := ""
	for {
		names, err := f.Readdirnames(256)
		for _, e := range names {
			if e == name {
				return e, true
			}
			if found == "" && same(e) {
				found = e
			}
		}
		if err != nil {
			return found, found != ""
		}
	}
}

// sameAs returns the test of a name against name under n, made once for
// the many entries of a folder: where case alone folds, or both names are
// ASCII, without a copy of each.
func (n Names) sameAs(name string) func(string) bool {
	if n&Precomposes == 0 {
		return func(e string) bool { return strings.EqualFold(e, name) }
	}
	key := n.Key(name)
	if !isASCII(name) {
		return func(e string) bool { return n.Key(e) == key }
	}
	return func(e string) bool {
		if isASCII(e) {
			return e == name || n&FoldsCase != 0 && strings.EqualFold(e, name)
		}
		return n.Key(e) == key // the Kelvin sign is K in NFC
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
