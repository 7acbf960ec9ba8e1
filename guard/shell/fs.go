package shell

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/guard/realpath"
)

// shellFS is what the analysis reads of the disk: what a path names, where
// a symbolic link points, the names in a folder, the first bytes of a
// file. The hook reads the real disk (osFS); the tests declare one.
type shellFS interface {
	realpath.FS
	// readDir is the names in the folder path, sorted, at most max of
	// them; more reports that it holds more.
	readDir(path string, max int) (names []string, more bool)
	// readFile is the start of the regular file path, at most max bytes;
	// more reports that it is longer.
	readFile(path string, max int) (b []byte, more, ok bool)
}

// osFS is the real disk.
type osFS struct{ realpath.OS }

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
	kinds map[string]realpath.Kind
	made  map[string]string // link -> its target, as written
}

// link notes that the line makes a symbolic link at path to target (as
// written): from here on, the analysis reads it as on the disk.
func (m *memoFS) link(path, target string) {
	if m.made == nil {
		m.made = map[string]string{}
	}
	if m.kinds == nil {
		m.kinds = map[string]realpath.Kind{}
	}
	m.made[path] = target
	m.kinds[path] = realpath.Link
	// ln would fail without the link's folder: where the disk does not
	// have it yet (mkdir -p d && ln -s x d/l), the line has made it.
	for d := filepath.Dir(path); d != filepath.Dir(d); d = filepath.Dir(d) {
		if m.Lstat(d) != realpath.None {
			break
		}
		m.kinds[d] = realpath.Dir
	}
}

func (m *memoFS) Readlink(path string) (string, bool) {
	if t, ok := m.made[path]; ok {
		return t, true
	}
	return m.shellFS.Readlink(path)
}

func (m *memoFS) Lstat(path string) realpath.Kind {
	k, ok := m.kinds[path]
	if !ok {
		k = m.shellFS.Lstat(path)
		if m.kinds == nil {
			m.kinds = map[string]realpath.Kind{}
		}
		m.kinds[path] = k
	}
	return k
}

// from splits the absolute path p into the shell's directory and the path
// below it, when it lies there, for realpath.Resolve to start from the directory
// as the kernel starts from its working directory; otherwise base is "/".
func (st *shState) from(p string) (base, rel string) {
	d := st.dir
	if d != "" && d != "/" && strings.HasPrefix(p, d) && (len(p) == len(d) || os.IsPathSeparator(p[len(d)])) {
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
func (w *walker) physical(st *shState, p string, opens bool) (path, target string) {
	base, rel := st.from(p)
	dir, name := filepath.Split(rel)
	if name == "" || name == "." || name == ".." {
		path, _ = realpath.Resolve(w.fs, base, rel, true)
		return path, ""
	}
	d, kind := realpath.Resolve(w.fs, base, dir, true)
	path = filepath.Join(d, name)
	if opens && kind == realpath.Dir && w.fs.Lstat(path) == realpath.Link {
		target, _ = realpath.Resolve(w.fs, "/", path, true)
	}
	return path, target
}

// kind is what the absolute path p names once every link in it is
// followed, as cp, mv and git see it.
func (w *walker) kind(p string) realpath.Kind { return w.kindAt(&shState{}, p) }

// kindAt is kind, p resolved from st's directory.
func (w *walker) kindAt(st *shState, p string) realpath.Kind {
	base, rel := st.from(p)
	if _, k := realpath.Resolve(w.fs, base, rel, true); k != realpath.Link {
		return k
	}
	return realpath.None // more links than the kernel follows
}
