package gitstore

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FoldsCase reports whether the work tree's file system takes names that
// differ only in case for one name, as APFS and NTFS do by default: git
// probes the file system when it makes the repository (git init, git
// clone) and records the answer as core.ignorecase. Where it does, every
// comparison of paths lucid makes must fold case too, or a claim on
// match.go would not cover a write of Match.go, the same file.
func (r *Repo) FoldsCase() bool {
	return configBool(filepath.Join(r.CommonDir, "config"), "core", "ignorecase")
}

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

// SameName reports whether a and b name one path: equal, or, where fold is
// set, equal once case is folded.
func SameName(fold bool, a, b string) bool {
	return a == b || fold && FoldCase(a) == FoldCase(b)
}

// InsideFolded is Inside for a file system that folds case (fold set):
// path is inside dir when it is once case is folded, and rel keeps path's
// own spelling.
func InsideFolded(fold bool, dir, path string) (rel string, ok bool) {
	if rel, ok = Inside(dir, path); ok || !fold {
		return rel, ok
	}
	if _, ok = Inside(FoldCase(dir), FoldCase(path)); !ok {
		return "", false
	}
	// Folding keeps every separator and the count of path elements, so
	// path's own elements after dir's are rel.
	n := len(strings.Split(filepath.Clean(dir), string(filepath.Separator)))
	parts := strings.Split(filepath.Clean(path), string(filepath.Separator))
	if n >= len(parts) {
		return ".", true
	}
	return filepath.Join(parts[n:]...), true
}
