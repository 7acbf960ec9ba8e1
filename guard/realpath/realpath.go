// Package realpath resolves paths as the kernel does when a program opens
// them: each symbolic link followed, and ".." taken after the component
// before it is resolved. The shell analysis resolves the paths a command
// writes with it, over the disk as the command will have left it; the git
// predictions and the hooks over the disk as it is.
package realpath

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Kind is what a path names on disk.
type Kind uint8

const (
	None Kind = iota
	File
	Dir
	Link // only from Lstat: a symbolic link, followed or not
)

// FS is what Resolve reads of a disk: what a path names, and where a
// symbolic link points.
type FS interface {
	// Lstat is what path names; a final symbolic link is Link.
	Lstat(path string) Kind
	// Readlink is the target of the symbolic link path, as written.
	Readlink(path string) (string, bool)
}

// OS is the real disk.
type OS struct{}

func (OS) Lstat(path string) Kind {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return None
	case fi.Mode()&os.ModeSymlink != 0:
		return Link
	case fi.IsDir():
		return Dir
	}
	return File
}

func (OS) Readlink(path string) (string, bool) {
	t, err := os.Readlink(path)
	return t, err == nil
}

// maxLinkHops is how many symbolic links Linux follows in one path before
// it fails with ELOOP.
const maxLinkHops = 40

// Resolve resolves the path rel from the folder base as the kernel
// resolves a path from its working directory: component by component,
// following each symbolic link (a relative target from the link's folder,
// an absolute one from /, on Windows from its volume's root), and taking
// a .. after the component before it is resolved, so that link/.. is the
// folder above the link's target. A final link is followed only with
// followLast, or when a slash follows it.
// From a component that does not exist (or is not a folder) on, the rest
// is taken as written, cleaned.
//
// base is taken as the folder it names, unresolved (the shell's directory
// as it spells it; "/" for an absolute path), until a .. climbs out of
// it: only then are its own links resolved, since only then do they
// matter. The result is absolute and clean; kind is what it names
// (None past a missing component, Link for a final link not
// followed).
func Resolve(fsys FS, base, rel string, followLast bool) (path string, kind Kind) {
	done, rest := base, rel
	if base == "/" {
		done, rest = root(rel)
	}
	kind = Dir
	resolved := base == "/" // done is spelled as the kernel spells it
	below := 0              // folders entered below done's unresolved part
	hops := 0
	lost := false // a component did not exist: the rest is literal
	for rest != "" {
		var c string
		c, rest = nextComponent(rest)
		switch c {
		case "", ".":
			continue
		case "..":
			switch {
			case lost || resolved:
			case below > 0:
				below--
			default:
				done, _ = Resolve(fsys, "/", done, true)
				resolved = true
			}
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, c)
		if lost {
			done = next
			continue
		}
		switch kind = fsys.Lstat(next); kind {
		case Link:
			if rest == "" && !followLast {
				break
			}
			target, ok := fsys.Readlink(next)
			if !ok || hops == maxLinkHops {
				lost = rest != "" // the kernel fails here: what follows is not reached
				break
			}
			hops++
			if filepath.IsAbs(target) {
				done, target = root(target)
				resolved = true
			}
			rest = target + "/" + rest
			continue
		case None:
			lost = true
		case File:
			lost = rest != "" // a file is no folder to go on from
		case Dir:
			below++
		}
		done = next
	}
	if lost {
		kind = None
	}
	return done, kind
}

// root splits the absolute path p into the root Resolve starts it from
// and the rest: "/" on Unix; on Windows its volume's root (C:\,
// \\srv\share\), since "/" there is no volume's but the current drive's.
func root(p string) (dir, rest string) {
	if runtime.GOOS == "windows" {
		if v := filepath.VolumeName(p); v != "" {
			return v + `\`, p[len(v):]
		}
	}
	return "/", p
}

// nextComponent splits the first component off p, after any slashes
// (and, on Windows, backslashes); rest keeps the slash after it, so that
// "" means c was the last.
func nextComponent(p string) (c, rest string) {
	if runtime.GOOS == "windows" {
		p = strings.TrimLeft(p, `/\`)
		if i := strings.IndexAny(p, `/\`); i >= 0 {
			return p[:i], p[i:]
		}
		return p, ""
	}
	p = strings.TrimLeft(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// Of resolves the absolute path as the kernel does when a program
// opens it for writing: component by component, each symbolic link
// followed (the last one too, dangling or not: a write through it lands on
// its target), and ".." taken after the component before it is resolved,
// so that with deep a link to src/deep, "deep/../a.go" is src/a.go, where
// filepath.Clean says a.go. Past a component that does not exist the rest
// is taken as written.
func Of(path string) string {
	if !filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	p, _ := Resolve(OS{}, "/", path, true)
	return p
}

// InDir is path as a tool that runs in dir takes it: itself where it is
// absolute, else joined to dir; clean either way.
func InDir(dir, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// Stat is what the absolute path p names once every link in it is
// followed.
func Stat(p string) Kind {
	_, k := Resolve(OS{}, "/", p, true)
	return k
}
