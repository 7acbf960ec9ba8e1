package gitstore

import (
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
func (r *Repo) Names() Names {
	config := filepath.Join(r.CommonDir, "config")
	var n Names
	if configBool(config, "core", "ignorecase") {
		n |= FoldsCase
	}
	if configBool(config, "core", "precomposeunicode") {
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
