package guard

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// shellFS is what the analysis reads of the disk: what a path names, where
// a symbolic link points, the names in a folder, the first bytes of a
// file. The hook reads the real disk (osFS); the tests declare one.
type shellFS interface {
	// lstat is what path names; a final symbolic link is kindLink.
	lstat(path string) pathKind
	// readlink is the target of the symbolic link path, as written.
	readlink(path string) (string, bool)
	// readDir is the names in the folder path, sorted, at most max of
	// them; more reports that it holds more.
	readDir(path string, max int) (names []string, more bool)
	// readFile is the start of the regular file path, at most max bytes;
	// more reports that it is longer.
	readFile(path string, max int) (b []byte, more, ok bool)
}

// pathKind is what a path names on disk.
type pathKind uint8

const (
	kindNone pathKind = iota
	kindFile
	kindDir
	kindLink // only from lstat: a symbolic link, followed or not
)

// osFS is the real disk.
type osFS struct{}

func (osFS) lstat(path string) pathKind {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return kindNone
	case fi.Mode()&os.ModeSymlink != 0:
		return kindLink
	case fi.IsDir():
		return kindDir
	}
	return kindFile
}

func (osFS) readlink(path string) (string, bool) {
	t, err := os.Readlink(path)
	return t, err == nil
}

func (osFS) readDir(path string, max int) ([]string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	names, _ := f.Readdirnames(max + 1)
	more := len(names) > max
	names = names[:min(len(names), max)]
	slices.Sort(names)
	return names, more
}

func (osFS) readFile(path string, max int) ([]byte, bool, bool) {
	// Only a regular file: a FIFO or a terminal would block the hook.
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, false, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, false, false
	}
	return b[:min(len(b), max)], len(b) > max, true
}

// maxLinkHops is how many symbolic links Linux follows in one path before
// it fails with ELOOP.
const maxLinkHops = 40

// realPath resolves the absolute path p as the kernel does: component by
// component from /, following each symbolic link (a relative target from
// the link's folder, an absolute one from /), and taking a .. after the
// component before it is resolved, so that link/.. is the folder above the
// link's target. A final link is followed only with followLast, or when a
// slash follows it. From a component that does not exist (or is not a
// folder) on, the rest is taken as written, cleaned. The result is
// absolute and clean.
func realPath(fsys shellFS, p string, followLast bool) string {
	done, rest := "/", p
	hops := 0
	lost := false // a component did not exist: the rest is literal
	for rest != "" {
		var c string
		c, rest = nextComponent(rest)
		switch c {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, c)
		if lost {
			done = next
			continue
		}
		switch fsys.lstat(next) {
		case kindLink:
			if rest == "" && !followLast {
				break
			}
			target, ok := fsys.readlink(next)
			if !ok || hops == maxLinkHops {
				lost = true // the kernel fails here: what follows is not reached
				break
			}
			hops++
			if filepath.IsAbs(target) {
				done = "/"
			}
			rest = target + "/" + rest
			continue
		case kindNone:
			lost = true
		case kindFile:
			lost = rest != "" // a file is no folder to go on from
		}
		done = next
	}
	return done
}

// nextComponent splits the first component off p, after any slashes; rest
// keeps the slash after it, so that "" means c was the last.
func nextComponent(p string) (c, rest string) {
	p = strings.TrimLeft(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// physical is where a write to the absolute path p lands: p resolved as
// the kernel resolves it, its last component not followed. With opens (the
// command opens the file, as > and tee do), a last component that is a
// symbolic link writes the link's target too, which is returned as target
// ("" otherwise): a dangling link's target is created.
func (w *shellWalker) physical(p string, opens bool) (path, target string) {
	dir, base := filepath.Split(p)
	if base == "" || base == "." || base == ".." {
		return realPath(w.fs, p, true), ""
	}
	d, ok := w.realDirs[dir]
	if !ok {
		d = realPath(w.fs, dir, true)
		if w.realDirs == nil {
			w.realDirs = map[string]string{}
		}
		w.realDirs[dir] = d
	}
	path = filepath.Join(d, base)
	if opens && w.fs.lstat(path) == kindLink {
		target = realPath(w.fs, path, true)
	}
	return path, target
}

// kind is what the absolute path p names once every link in it is
// followed, as cp, mv and git see it.
func (w *shellWalker) kind(p string) pathKind {
	k := w.fs.lstat(realPath(w.fs, p, true))
	if k == kindLink {
		return kindNone // more links than the kernel follows
	}
	return k
}
