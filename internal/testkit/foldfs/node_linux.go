//go:build linux

package foldfs

import (
	"context"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"
)

// tree is one mount: its backing folder and how names fold in it.
type tree struct {
	dir  string // the backing folder
	mode Mode
	// names serialises the calls that make, remove or move an entry, so
	// that two spellings of one name are never made side by side: the
	// backing folder holds at most one entry of each folded name, which
	// is what lets an entry spelled exactly as asked be taken for the one.
	names sync.Mutex
}

// node is a file, folder or link of the mount. The kernel knows it by the
// names it was looked up with, spelled as the caller spelled them; its
// backing entry is the one of that spelling or, where none is, the one its
// folding finds.
type node struct {
	fs.Inode
	tree *tree
	// alias: the node is its backing entry under a spelling other than
	// the entry's own, or a folder below such a node. The kernel takes two
	// names of one inode for hard links, and a rename from one to the
	// other for nothing at all (rename(2)), so that a rename changing only
	// the case would not reach the file system: a name spelled otherwise
	// is another inode, with the same inode number (os.SameFile holds).
	// A folder is one name only (the kernel moves a folder's one dentry to
	// wherever it is found), so a folder below an alias is an alias too.
	alias bool
}

var (
	_ fs.NodeLookuper   = (*node)(nil)
	_ fs.NodeGetattrer  = (*node)(nil)
	_ fs.NodeSetattrer  = (*node)(nil)
	_ fs.NodeOpener     = (*node)(nil)
	_ fs.NodeCreater    = (*node)(nil)
	_ fs.NodeMkdirer    = (*node)(nil)
	_ fs.NodeMknoder    = (*node)(nil)
	_ fs.NodeSymlinker  = (*node)(nil)
	_ fs.NodeLinker     = (*node)(nil)
	_ fs.NodeReadlinker = (*node)(nil)
	_ fs.NodeUnlinker   = (*node)(nil)
	_ fs.NodeRmdirer    = (*node)(nil)
	_ fs.NodeRenamer    = (*node)(nil)
	_ fs.NodeStatfser   = (*node)(nil)

	_ fs.NodeOpendirHandler = (*node)(nil)
	_ fs.NodeGetxattrer     = (*node)(nil)
	_ fs.NodeSetxattrer     = (*node)(nil)
	_ fs.NodeRemovexattrer  = (*node)(nil)
	_ fs.NodeListxattrer    = (*node)(nil)
)

// rel is the node's path in the mount as the kernel spelled it.
func (n *node) rel() string { return n.Path(n.Root()) }

// at runs op on the backing path of the mount's path rel: first on rel as
// spelled, which is the backing path wherever the caller spelled each name
// as it was created, then, if that is missing, on the path folding finds.
// It returns the path op ran on last.
func (t *tree) at(rel string, op func(path string) error) (string, syscall.Errno) {
	p := filepath.Join(t.dir, rel)
	err := op(p)
	if err == nil || !(errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)) {
		return p, errno(err)
	}
	q, e := t.find(rel)
	if e != 0 || q == p {
		return p, errno(err)
	}
	return q, errno(op(q))
}

// find is the backing path of rel, each name in it folded.
func (t *tree) find(rel string) (string, syscall.Errno) {
	p := t.dir
	if rel == "" {
		return p, 0
	}
	for name := range strings.SplitSeq(rel, "/") {
		real, e := t.name(p, name)
		if e != 0 {
			return "", e
		}
		p = filepath.Join(p, real)
	}
	return p, 0
}

// name is the entry of the backing folder dir that name folds to.
func (t *tree) name(dir, name string) (string, syscall.Errno) {
	var st unix.Stat_t
	err := unix.Lstat(filepath.Join(dir, name), &st)
	if err == nil {
		return name, 0
	}
	if err != unix.ENOENT {
		return "", errno(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return "", fs.ToErrno(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return "", fs.ToErrno(err)
	}
	for _, e := range names {
		if t.mode.Same(e, name) {
			return e, 0
		}
	}
	return "", syscall.ENOENT
}

// dir is the backing folder of n, for a call that makes or removes a name
// in it.
func (n *node) dir() (string, syscall.Errno) {
	var st unix.Stat_t
	return n.tree.at(n.rel(), func(p string) error { return unix.Lstat(p, &st) })
}

func errno(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	return fs.ToErrno(err)
}

// lstat is lstat(2) as statx(2), for the birth time that tells a file from
// an earlier one that had its inode number.
func lstat(path string, x *unix.Statx_t) error {
	return unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW,
		unix.STATX_BASIC_STATS|unix.STATX_BTIME, x)
}

func fstat(fd int, x *unix.Statx_t) error {
	return unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_BASIC_STATS|unix.STATX_BTIME, x)
}

func fillAttr(a *fuse.Attr, x *unix.Statx_t) {
	a.Ino = x.Ino
	a.Size = x.Size
	a.Blocks = x.Blocks
	a.Atime, a.Atimensec = uint64(x.Atime.Sec), x.Atime.Nsec
	a.Mtime, a.Mtimensec = uint64(x.Mtime.Sec), x.Mtime.Nsec
	a.Ctime, a.Ctimensec = uint64(x.Ctime.Sec), x.Ctime.Nsec
	a.Mode = uint32(x.Mode)
	a.Nlink = x.Nlink
	a.Uid, a.Gid = x.Uid, x.Gid
	a.Rdev = uint32(unix.Mkdev(x.Rdev_major, x.Rdev_minor))
	a.Blksize = x.Blksize
}

// child is the node of the entry real of n's backing folder, found as name.
func (n *node) child(ctx context.Context, name, real string, x *unix.Statx_t) *fs.Inode {
	id := fs.StableAttr{Mode: uint32(x.Mode) & syscall.S_IFMT, Ino: x.Ino, Gen: 1}
	if x.Mask&unix.STATX_BTIME != 0 {
		id.Gen = uint64(x.Btime.Sec)*1e9 + uint64(x.Btime.Nsec)
	}
	alias := name != real || (n.alias && id.Mode == syscall.S_IFDIR)
	if alias {
		// One node for each spelling in each folder, for as long as
		// the entry is the same file.
		h := fnv.New64a()
		p := n.StableAttr()
		for _, v := range []uint64{p.Ino, p.Gen, id.Gen} {
			var b [8]byte
			for i := range b {
				b[i] = byte(v >> (8 * i))
			}
			h.Write(b[:])
		}
		h.Write([]byte(name))
		id.Gen = h.Sum64() | 1<<63
	}
	return n.NewInode(ctx, &node{tree: n.tree, alias: alias}, id)
}

func (n *node) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	var x unix.Statx_t
	p, e := n.tree.at(filepath.Join(n.rel(), name), func(p string) error { return lstat(p, &x) })
	if e != 0 {
		return nil, e
	}
	fillAttr(&out.Attr, &x)
	return n.child(ctx, name, filepath.Base(p), &x), 0
}

func (n *node) Getattr(ctx context.Context, f fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	if g, ok := f.(fs.FileGetattrer); ok {
		return g.Getattr(ctx, out)
	}
	var x unix.Statx_t
	_, e := n.tree.at(n.rel(), func(p string) error { return lstat(p, &x) })
	if e == 0 {
		fillAttr(&out.Attr, &x)
	}
	return e
}

func (n *node) Setattr(ctx context.Context, f fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	if s, ok := f.(fs.FileSetattrer); ok {
		return s.Setattr(ctx, in, out)
	}
	_, e := n.tree.at(n.rel(), func(p string) error { return setattr(p, in) })
	if e != 0 {
		return e
	}
	return n.Getattr(ctx, nil, out)
}

// setattr applies in to the backing path p, which may be a link: chmod,
// chown, truncate, then the times, so that a truncate does not undo them.
func setattr(p string, in *fuse.SetAttrIn) error {
	if m, ok := in.GetMode(); ok {
		if err := unix.Chmod(p, m); err != nil {
			return err
		}
	}
	uid, uok := in.GetUID()
	gid, gok := in.GetGID()
	if uok || gok {
		u, g := -1, -1
		if uok {
			u = int(uid)
		}
		if gok {
			g = int(gid)
		}
		if err := unix.Fchownat(unix.AT_FDCWD, p, u, g, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return err
		}
	}
	if size, ok := in.GetSize(); ok {
		if err := unix.Truncate(p, int64(size)); err != nil {
			return err
		}
	}
	mtime, mok := in.GetMTime()
	atime, aok := in.GetATime()
	if mok || aok {
		ts := []unix.Timespec{{Nsec: unix.UTIME_OMIT}, {Nsec: unix.UTIME_OMIT}}
		var err error
		if aok {
			if ts[0], err = unix.TimeToTimespec(atime); err != nil {
				return err
			}
		}
		if mok {
			if ts[1], err = unix.TimeToTimespec(mtime); err != nil {
				return err
			}
		}
		return unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
	}
	return nil
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	// O_APPEND: the kernel sends each write at its offset (pwrite(2)
	// with O_APPEND would append it anyway). O_CLOEXEC: the tests run
	// processes, which must not inherit the backing files (nor their
	// flocks).
	flags = flags&^(syscall.O_APPEND|syscall.O_CREAT|syscall.O_EXCL|fuse.FMODE_EXEC) | syscall.O_CLOEXEC
	fd := -1
	_, e := n.tree.at(n.rel(), func(p string) error {
		var err error
		fd, err = unix.Open(p, int(flags), 0)
		return err
	})
	if e != 0 {
		return nil, 0, e
	}
	return fs.NewLoopbackFile(fd), 0, 0
}

func (n *node) OpendirHandle(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	var ds fs.DirStream
	_, e := n.tree.at(n.rel(), func(p string) error {
		var e syscall.Errno
		if ds, e = fs.NewLoopbackDirStream(p); e != 0 {
			return e
		}
		return nil
	})
	if e != 0 {
		return nil, 0, e
	}
	return ds.(fs.FileHandle), 0, 0
}

func (n *node) Readlink(ctx context.Context) ([]byte, syscall.Errno) {
	var target []byte
	_, e := n.tree.at(n.rel(), func(p string) error {
		for size := 256; ; size *= 2 {
			buf := make([]byte, size)
			k, err := unix.Readlink(p, buf)
			if err != nil {
				return err
			}
			if k < size {
				target = buf[:k]
				return nil
			}
		}
	})
	return target, e
}

func (n *node) Statfs(ctx context.Context, out *fuse.StatfsOut) syscall.Errno {
	var s syscall.Statfs_t
	_, e := n.tree.at(n.rel(), func(p string) error { return syscall.Statfs(p, &s) })
	if e == 0 {
		out.FromStatfsT(&s)
	}
	return e
}

func (n *node) Getxattr(ctx context.Context, attr string, dest []byte) (uint32, syscall.Errno) {
	var size int
	_, e := n.tree.at(n.rel(), func(p string) (err error) {
		size, err = unix.Lgetxattr(p, attr, dest)
		return err
	})
	return uint32(size), e
}

func (n *node) Listxattr(ctx context.Context, dest []byte) (uint32, syscall.Errno) {
	var size int
	_, e := n.tree.at(n.rel(), func(p string) (err error) {
		size, err = unix.Llistxattr(p, dest)
		return err
	})
	return uint32(size), e
}

func (n *node) Setxattr(ctx context.Context, attr string, data []byte, flags uint32) syscall.Errno {
	_, e := n.tree.at(n.rel(), func(p string) error { return unix.Lsetxattr(p, attr, data, int(flags)) })
	return e
}

func (n *node) Removexattr(ctx context.Context, attr string) syscall.Errno {
	_, e := n.tree.at(n.rel(), func(p string) error { return unix.Lremovexattr(p, attr) })
	return e
}

// owned gives the entry p to the caller, as the kernel would have made
// it, where the file system runs as root for another user.
func owned(ctx context.Context, p string) {
	if os.Geteuid() != 0 {
		return
	}
	if caller, ok := fuse.FromContext(ctx); ok {
		unix.Lchown(p, int(caller.Uid), int(caller.Gid))
	}
}

// make makes the entry name in n with mk, as a folding system would: not
// at all where a spelling of name is there already (EEXIST). It returns
// the new entry's node.
func (n *node) make(ctx context.Context, name string, out *fuse.EntryOut, mk func(p string) error) (*fs.Inode, syscall.Errno) {
	n.tree.names.Lock()
	defer n.tree.names.Unlock()
	dir, e := n.dir()
	if e != 0 {
		return nil, e
	}
	switch _, e := n.tree.name(dir, name); e {
	case 0:
		return nil, syscall.EEXIST
	case syscall.ENOENT:
	default:
		return nil, e
	}
	p := filepath.Join(dir, name)
	if err := mk(p); err != nil {
		return nil, errno(err)
	}
	owned(ctx, p)
	var x unix.Statx_t
	if err := lstat(p, &x); err != nil {
		return nil, errno(err)
	}
	fillAttr(&out.Attr, &x)
	return n.child(ctx, name, name, &x), 0
}

func (n *node) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.make(ctx, name, out, func(p string) error { return unix.Mkdir(p, mode) })
}

func (n *node) Mknod(ctx context.Context, name string, mode, dev uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.make(ctx, name, out, func(p string) error { return unix.Mknod(p, mode, int(dev)) })
}

func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.make(ctx, name, out, func(p string) error { return unix.Symlink(target, p) })
}

func (n *node) Link(ctx context.Context, target fs.InodeEmbedder, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	t, ok := target.(*node)
	if !ok || t.tree != n.tree {
		return nil, syscall.EXDEV
	}
	return n.make(ctx, name, out, func(p string) error {
		var x unix.Statx_t
		from, e := n.tree.at(t.rel(), func(q string) error { return lstat(q, &x) })
		if e != 0 {
			return e
		}
		return unix.Link(from, p)
	})
}

// Create opens the entry that name folds to where there is one, as a
// folding system does (EEXIST under O_EXCL), and makes name otherwise. The
// kernel asks here only when its lookup found nothing, so the first case
// is a race lost to another creator.
func (n *node) Create(ctx context.Context, name string, flags, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	n.tree.names.Lock()
	defer n.tree.names.Unlock()
	dir, e := n.dir()
	if e != 0 {
		return nil, nil, 0, e
	}
	real, e := n.tree.name(dir, name)
	switch {
	case e == 0 && flags&syscall.O_EXCL != 0:
		return nil, nil, 0, syscall.EEXIST
	case e == 0:
		flags &^= syscall.O_CREAT
	case e == syscall.ENOENT:
		real = name
	default:
		return nil, nil, 0, e
	}
	p := filepath.Join(dir, real)
	fd, err := unix.Open(p, int(flags&^syscall.O_APPEND)|unix.O_CLOEXEC, mode)
	if err != nil {
		return nil, nil, 0, errno(err)
	}
	if real == name {
		owned(ctx, p)
	}
	var x unix.Statx_t
	if err := fstat(fd, &x); err != nil {
		unix.Close(fd)
		return nil, nil, 0, errno(err)
	}
	fillAttr(&out.Attr, &x)
	return n.child(ctx, name, real, &x), fs.NewLoopbackFile(fd), 0, 0
}

// remove removes the entry that name folds to with rm.
func (n *node) remove(name string, rm func(p string) error) syscall.Errno {
	n.tree.names.Lock()
	defer n.tree.names.Unlock()
	dir, e := n.dir()
	if e != 0 {
		return e
	}
	real, e := n.tree.name(dir, name)
	if e != 0 {
		return e
	}
	return errno(rm(filepath.Join(dir, real)))
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	return n.remove(name, unix.Unlink)
}

func (n *node) Rmdir(ctx context.Context, name string) syscall.Errno {
	return n.remove(name, unix.Rmdir)
}

// Rename moves the entry that name folds to. Where newName folds to that
// same entry, the rename changes its spelling only, which a folding system
// allows. Where newName folds to another entry, that one is replaced, and
// the moved entry takes newName's spelling.
func (n *node) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	to, ok := newParent.(*node)
	if !ok || to.tree != n.tree {
		return syscall.EXDEV
	}
	t := n.tree
	t.names.Lock()
	defer t.names.Unlock()
	fromDir, e := n.dir()
	if e != 0 {
		return e
	}
	toDir, e := to.dir()
	if e != 0 {
		return e
	}
	real, e := t.name(fromDir, name)
	if e != 0 {
		return e
	}
	from := filepath.Join(fromDir, real)
	target, e := t.name(toDir, newName)
	switch {
	case e == syscall.ENOENT:
		return rename(from, filepath.Join(toDir, newName), flags)
	case e != 0:
		return e
	case fromDir == toDir && target == real:
		if flags&unix.RENAME_EXCHANGE != 0 {
			return 0 // exchanged with itself
		}
		return rename(from, filepath.Join(toDir, newName), flags&^unix.RENAME_NOREPLACE)
	}
	onto := filepath.Join(toDir, target)
	if e := rename(from, onto, flags); e != 0 || target == newName || flags&unix.RENAME_EXCHANGE != 0 {
		return e
	}
	return rename(onto, filepath.Join(toDir, newName), 0)
}

func rename(from, to string, flags uint32) syscall.Errno {
	if flags == 0 {
		return errno(unix.Rename(from, to))
	}
	return errno(unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, uint(flags)))
}
