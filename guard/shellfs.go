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

// memoFS remembers what lstat said of each path during one analysis:
// resolving each written path from / asks about the same folders again.
// It also holds the symbolic links the line makes (link), which the
// disk does not have yet when the line is read.
type memoFS struct {
	shellFS
	kinds map[string]pathKind
	made  map[string]string // link -> its target, as written
}

// link notes that the line makes a symbolic link at path to target (as
// written): from here on, the analysis reads it as on the disk.
func (m *memoFS) link(path, target string) {
	if m.made == nil {
		m.made = map[string]string{}
	}
	if m.kinds == nil {
		m.kinds = map[string]pathKind{}
	}
	m.made[path] = target
	m.kinds[path] = kindLink
	// ln would fail without the link's folder: where the disk does not
	// have it yet (mkdir -p d && ln -s x d/l), the line has made it.
	for d := filepath.Dir(path); d != filepath.Dir(d); d = filepath.Dir(d) {
		if m.lstat(d) != kindNone {
			break
		}
		m.kinds[d] = kindDir
	}
}

func (m *memoFS) readlink(path string) (string, bool) {
	if t, ok := m.made[path]; ok {
		return t, true
	}
	return m.shellFS.readlink(path)
}

func (m *memoFS) lstat(path string) pathKind {
	k, ok := m.kinds[path]
	if !ok {
		k = m.shellFS.lstat(path)
		if m.kinds == nil {
			m.kinds = map[string]pathKind{}
		}
		m.kinds[path] = k
	}
	return k
}

// maxLinkHops is how many symbolic links Linux follows in one path before
// it fails with ELOOP.
const maxLinkHops = 40

// realPath resolves the path rel from the folder base as the kernel
// resolves a path from its working directory: component by component,
// following each symbolic link (a relative target from the link's folder,
// an absolute one from /), and taking a .. after the component before it
// is resolved, so that link/.. is the folder above the link's target. A
// final link is followed only with followLast, or when a slash follows it.
// From a component that does not exist (or is not a folder) on, the rest
// is taken as written, cleaned.
//
// base is taken as the folder it names, unresolved (the shell's directory
// as it spells it; "/" for an absolute path), until a .. climbs out of
// it: only then are its own links resolved, since only then do they
// matter. The result is absolute and clean; kind is what it names
// (kindNone past a missing component, kindLink for a final link not
// followed).
func realPath(fsys shellFS, base, rel string, followLast bool) (path string, kind pathKind) {
	done, rest := base, rel
	kind = kindDir
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
				done, _ = realPath(fsys, "/", done, true)
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
		switch kind = fsys.lstat(next); kind {
		case kindLink:
			if rest == "" && !followLast {
				break
			}
			target, ok := fsys.readlink(next)
			if !ok || hops == maxLinkHops {
				lost = rest != "" // the kernel fails here: what follows is not reached
				break
			}
			hops++
			if filepath.IsAbs(target) {
				done, resolved = "/", true
			}
			rest = target + "/" + rest
			continue
		case kindNone:
			lost = true
		case kindFile:
			lost = rest != "" // a file is no folder to go on from
		case kindDir:
			below++
		}
		done = next
	}
	if lost {
		kind = kindNone
	}
	return done, kind
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

// from splits the absolute path p into the shell's directory and the path
// below it, when it lies there, for realPath to start from the directory
// as the kernel starts from its working directory; otherwise base is "/".
func (st *shState) from(p string) (base, rel string) {
	d := st.dir
	if d != "" && d != "/" && strings.HasPrefix(p, d) && (len(p) == len(d) || p[len(d)] == '/') {
		return d, p[len(d):]
	}
	return "/", p
}

// physical is where a write to the absolute path p lands: p resolved as
// the kernel resolves it from st's directory, its last component not
// followed. With opens (the command opens the file, as > and tee do), a
// last component that is a symbolic link writes the link's target too,
// which is returned as target ("" otherwise): a dangling link's target is
// created.
func (w *shellWalker) physical(st *shState, p string, opens bool) (path, target string) {
	base, rel := st.from(p)
	dir, name := filepath.Split(rel)
	if name == "" || name == "." || name == ".." {
		path, _ = realPath(w.fs, base, rel, true)
		return path, ""
	}
	d, kind := realPath(w.fs, base, dir, true)
	path = filepath.Join(d, name)
	if opens && kind == kindDir && w.fs.lstat(path) == kindLink {
		target, _ = realPath(w.fs, "/", path, true)
	}
	return path, target
}

// kind is what the absolute path p names once every link in it is
// followed, as cp, mv and git see it.
func (w *shellWalker) kind(p string) pathKind { return w.kindAt(&shState{}, p) }

// kindAt is kind, p resolved from st's directory.
func (w *shellWalker) kindAt(st *shState, p string) pathKind {
	base, rel := st.from(p)
	if _, k := realPath(w.fs, base, rel, true); k != kindLink {
		return k
	}
	return kindNone // more links than the kernel follows
}

// ResolvePath resolves the absolute path as the kernel does when a program
// opens it for writing: component by component, each symbolic link
// followed (the last one too, dangling or not: a write through it lands on
// its target), and ".." taken after the component before it is resolved,
// so that with deep a link to src/deep, "deep/../a.go" is src/a.go, where
// filepath.Clean says a.go. Past a component that does not exist the rest
// is taken as written.
func ResolvePath(path string) string {
	if !filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	p, _ := realPath(osFS{}, "/", path, true)
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

// statKind is what the absolute path p names once every link in it is
// followed.
func statKind(p string) pathKind {
	_, k := realPath(osFS{}, "/", p, true)
	return k
}
