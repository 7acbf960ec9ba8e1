package gitstore

import (
	"os"
	"path/filepath"
	"strings"
)

// maxLinks is how many symbolic links one resolution follows, as Linux's
// path walk does (ELOOP past 40).
const maxLinks = 40

// ResolvePath resolves the absolute path as the kernel does when a program
// opens it: component by component, each symbolic link replaced by its
// target (a relative target from the link's folder), and ".." taken from
// the folder the component before it resolved to, not from the text. A
// final component that is a link, dangling or not, is followed too: a
// write through it lands on its target. Where a component does not exist,
// the rest of the path is taken as written (cleaned). A loop of links
// gives the path as far as it was resolved.
//
// This differs from filepath.Clean and filepath.EvalSymlinks where it
// matters to a guard: with deep a link to src/deep, "deep/../a.go" is
// src/a.go to the kernel and a.go to Clean, and EvalSymlinks gives up on a
// dangling link, which a write follows to create its target.
func ResolvePath(path string) string {
	return resolvePath(path, os.Lstat, os.Readlink)
}

func resolvePath(path string, lstat func(string) (os.FileInfo, error), readlink func(string) (string, error)) string {
	if !filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	done := "/"      // resolved so far: an existing folder, or a path with no links left
	rest := path[1:] // what is left to walk
	links := 0
	exists := true
	for rest != "" {
		var name string
		name, rest, _ = strings.Cut(rest, "/")
		switch name {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, name)
		if !exists {
			done = next
			continue
		}
		fi, err := lstat(next)
		switch {
		case err != nil:
			exists = false // the rest is created, or fails: as written
			done = next
		case fi.Mode()&os.ModeSymlink != 0 && links < maxLinks:
			links++
			target, err := readlink(next)
			if err != nil {
				done = next
				continue
			}
			if filepath.IsAbs(target) {
				done = "/"
			}
			if rest != "" {
				target += "/" + rest
			}
			rest = strings.TrimPrefix(target, "/")
		default:
			done = next
		}
	}
	return done
}
