//go:build linux

package foldfs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"
)

// The file system is served by a process of its own: the test binary run
// again, which this package's init turns into the server. Served from the
// test's own process, it would deadlock the test, now and then, as soon as
// the test runs a program in the mount (git, with cmd.Dir there): Go forks
// with clone(CLONE_VFORK) by a raw system call that keeps its thread's
// scheduler slot, the child's chdir waits on the file system, and the
// runtime, stopping the world for a collection, waits on that thread,
// while the goroutines that would answer the chdir wait on the runtime
// (golang/go#11155; bazil/fuse settled on the same separation).
//
// The server mounts, says "ready" (or "error: ...") on its standard
// output, and serves until its standard input closes, which the test's
// process does to unmount, and which its death does too: the server then
// unmounts, says "unmounted" (or "error: ..."), and ends.
const (
	serveEnv   = "FOLDFS_SERVE" // the mode, as a number
	backingEnv = "FOLDFS_BACKING"
	dirEnv     = "FOLDFS_DIR"
)

func init() {
	if os.Getenv(serveEnv) == "" {
		return
	}
	mode, err := strconv.Atoi(os.Getenv(serveEnv))
	if err != nil {
		fmt.Printf("error: %s=%q is no mode\n", serveEnv, os.Getenv(serveEnv))
		os.Exit(2)
	}
	os.Exit(serve(os.Getenv(backingEnv), os.Getenv(dirEnv), Mode(mode)))
}

func serve(backing, dir string, mode Mode) int {
	direct := os.Geteuid() == 0
	server, err := mountHere(backing, dir, mode, direct)
	if err != nil {
		fmt.Printf("error: %s\n", oneLine(err))
		return 1
	}
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	if err := unmountHere(server, dir, direct); err != nil {
		fmt.Printf("error: %s\n", oneLine(err))
		return 1
	}
	fmt.Println("unmounted")
	return 0
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

func mountHere(backing, dir string, mode Mode, direct bool) (*fuse.Server, error) {
	root := &node{tree: &tree{dir: backing, mode: mode}}
	// No caching of names, positive or negative, nor of attributes: the
	// kernel's dentries are per spelling, and a name made, removed or
	// renamed under one spelling would leave the others stale. Every
	// lookup comes here, which costs a test little.
	var zero time.Duration
	return gofs.Mount(dir, root, &gofs.Options{
		EntryTimeout:    &zero,
		AttrTimeout:     &zero,
		NegativeTimeout: &zero,
		MountOptions: fuse.MountOptions{
			FsName: backing,
			Name:   "foldfs",
			// Root mounts by mount(2) and needs no fusermount.
			DirectMountStrict: direct,
			// flock(2) goes to the backing file, so that two
			// spellings of one name lock one file, as on a Mac;
			// fcntl(2)'s locks stay with the kernel, which keeps
			// their per-process rules, per spelling.
			EnableLocks:          true,
			DisabledCapabilities: fuse.CAP_POSIX_LOCKS,
			Options:              []string{"default_permissions"},
		},
	})
}

// unmountHere unmounts dir and waits for its server to stop. Where the
// mount is busy it aborts the connection (what waits on it fails) and
// detaches the mount, so that nothing is left hanging on it, and says so.
func unmountHere(server *fuse.Server, dir string, direct bool) error {
	if !direct {
		err := server.Unmount()
		if err == nil {
			return nil
		}
		if lazy := exec.Command(fusermount(), "-u", "-z", dir).Run(); lazy != nil {
			return fmt.Errorf("%v (forced: fusermount -u -z failed too: %v)", err, lazy)
		}
		return fmt.Errorf("%v (forced: detached the mount)", err)
	}
	// umount(2) is busy for a moment after the last file on the mount is
	// closed, until the kernel has sent the file's release.
	var err error
	for try := range 6 {
		if err = unix.Unmount(dir, 0); err != unix.EBUSY {
			break
		}
		time.Sleep(5 * time.Millisecond << try)
	}
	if err == nil {
		server.Wait()
		return nil
	}
	if err == unix.EBUSY {
		err = errors.New("busy: a file is still open on it, or a process has its working folder there")
	}
	// MNT_FORCE aborts a FUSE connection, then unmounts if nothing holds
	// the mount; MNT_DETACH takes it out of the tree all the same.
	if unix.Unmount(dir, unix.MNT_FORCE) == nil {
		return fmt.Errorf("%w (forced: unmounted after aborting the connection)", err)
	}
	if derr := unix.Unmount(dir, unix.MNT_DETACH); derr != nil {
		return fmt.Errorf("%w (forced: aborted the connection, but could not detach the mount: %v)", err, derr)
	}
	return fmt.Errorf("%w (forced: aborted the connection and detached the mount)", err)
}
