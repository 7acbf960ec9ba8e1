//go:build linux

package foldfs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The bounds of the waits on the server: a mount, an unmount, and the time
// before a test's deadline at which a mount still up is aborted.
const (
	mountWait   = 20 * time.Second
	unmountWait = 20 * time.Second
	deadlineGap = 30 * time.Second
)

// Mount mounts a folder whose names fold as mode says over a new, empty
// backing folder, both temporary, and returns the folder (a temporary
// folder of t's, with its links resolved). A process of its own serves it
// (serve_linux.go says why). The mount goes when the test does, however
// the test ends, and fails the test if it cannot go cleanly (a file left
// open on it, a process still in it). Where FUSE cannot be used, Mount
// skips the test with Available's reason.
func Mount(t testing.TB, mode Mode) string {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
	backing, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := mount(backing, dir, mode)
	if err != nil {
		t.Fatalf("foldfs: mount %s over %s: %v", dir, backing, err)
	}
	// A test that hangs on the mount would run into go test's -timeout,
	// whose panic skips the cleanups. Ending the server first makes every
	// call waiting on the mount fail, and the test with it, in time for
	// the cleanup below.
	var aborted atomic.Bool
	var watchdog *time.Timer
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok && time.Until(deadline) > 2*deadlineGap {
			watchdog = time.AfterFunc(time.Until(deadline)-deadlineGap, func() {
				aborted.Store(true)
				m.cmd.Process.Kill()
			})
		}
	}
	t.Cleanup(func() {
		if watchdog != nil {
			watchdog.Stop()
		}
		if aborted.Load() {
			t.Errorf("foldfs: the server of %s was ended %v before the test's deadline: something on the mount hung", dir, deadlineGap)
		}
		if err := m.unmount(); err != nil {
			t.Errorf("foldfs: unmount %s: %v", dir, err)
		}
	})
	return dir
}

var availability struct {
	once sync.Once
	err  error
}

// Available says why FUSE cannot be used here (no /dev/fuse, no right to
// open it, no way to mount), or nil where it can: it mounts and unmounts
// a folder once to know.
func Available() error {
	availability.once.Do(func() { availability.err = probe() })
	return availability.err
}

func probe() error {
	f, err := os.OpenFile("/dev/fuse", os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("foldfs: no /dev/fuse: the kernel has no fuse module loaded, or the container was started without the device")
	case err != nil:
		return fmt.Errorf("foldfs: FUSE's device cannot be opened: %w", err)
	}
	f.Close()
	if os.Geteuid() != 0 && fusermount() == "" {
		return errors.New("foldfs: not root, and no fusermount3 or fusermount to mount as a user with (Debian: apt-get install fuse3)")
	}
	sweep()
	// What the checks cannot tell (no CAP_SYS_ADMIN in a container, a
	// fusermount that refuses), a mount does.
	top, err := os.MkdirTemp("", "foldfs-probe-")
	if err != nil {
		return fmt.Errorf("foldfs: %w", err)
	}
	defer os.RemoveAll(top)
	backing, dir := filepath.Join(top, "backing"), filepath.Join(top, "mount")
	for _, d := range []string{backing, dir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return fmt.Errorf("foldfs: %w", err)
		}
	}
	m, err := mount(backing, dir, FoldCase)
	if err != nil {
		return fmt.Errorf("foldfs: FUSE cannot mount here: %w", err)
	}
	if err := m.unmount(); err != nil {
		return fmt.Errorf("foldfs: a trial mount would not unmount: %w", err)
	}
	return nil
}

// sweep detaches the mounts of foldfs whose server is gone: one killed
// (SIGKILL does not let it unmount) leaves its mount behind, answering
// ENOTCONN to whatever looks at it.
func sweep() {
	for _, point := range mountPoints("fuse.foldfs") {
		// A live mount may be slow to answer, or hung: wait a little,
		// and leave it be.
		dead := make(chan bool, 1)
		go func() {
			var st unix.Stat_t
			dead <- unix.Stat(point, &st) == unix.ENOTCONN
		}()
		select {
		case d := <-dead:
			if d {
				unix.Unmount(point, unix.MNT_DETACH)
			}
		case <-time.After(time.Second):
		}
	}
}

// mountPoints lists the mount points of /proc/self/mountinfo, those of the
// file system type fstype where it is not "".
func mountPoints(fstype string) []string {
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	var points []string
	for line := range strings.Lines(string(info)) {
		// ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAGS...] - TYPE SOURCE ...
		fields := strings.Fields(line)
		sep := slices.Index(fields, "-")
		if sep < 5 || sep+1 >= len(fields) || (fstype != "" && fields[sep+1] != fstype) {
			continue
		}
		points = append(points, unescapeMountinfo(fields[4]))
	}
	return points
}

// unescapeMountinfo undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func fusermount() string {
	for _, name := range []string{"fusermount3", "fusermount"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// mounted is a mount and the process that serves it (serve_linux.go).
type mounted struct {
	dir    string
	cmd    *exec.Cmd
	stop   *os.File    // the server's standard input: closing it unmounts
	lines  chan string // the server's standard output, a line at a time
	stderr syncBuffer
	done   chan struct{} // closed when the server has ended
}

func mount(backing, dir string, mode Mode) (*mounted, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	stdin, stop, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	lines, stdout, err := os.Pipe()
	if err != nil {
		stdin.Close()
		stop.Close()
		return nil, err
	}
	m := &mounted{dir: dir, stop: stop, lines: make(chan string, 8), done: make(chan struct{})}
	m.cmd = exec.Command(exe)
	m.cmd.Env = append(os.Environ(), serveEnv+"="+strconv.Itoa(int(mode)), backingEnv+"="+backing, dirEnv+"="+dir,
		// A test binary built with -race sleeps a second as it exits,
		// by default: at every unmount, here.
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	m.cmd.Stdin, m.cmd.Stdout, m.cmd.Stderr = stdin, stdout, &m.stderr
	// A group of its own: a ^C at the terminal, which goes to the test's
	// group, would end the server before the test's cleanup unmounts.
	m.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = m.cmd.Start()
	stdin.Close()
	stdout.Close()
	if err != nil {
		stop.Close()
		lines.Close()
		return nil, err
	}
	go func() {
		defer close(m.lines)
		for s := bufio.NewScanner(lines); s.Scan(); {
			m.lines <- s.Text()
		}
		lines.Close()
	}()
	go func() {
		m.cmd.Wait()
		close(m.done)
	}()
	word, err := m.word(mountWait)
	if err == nil && word == "ready" {
		return m, nil
	}
	if err == nil {
		err = fmt.Errorf("the server said %q", word)
	}
	return nil, fmt.Errorf("%w%s", err, m.kill())
}

// word is the server's next line, within wait; an error line is returned
// as the error it tells.
func (m *mounted) word(wait time.Duration) (string, error) {
	select {
	case line, ok := <-m.lines:
		switch {
		case !ok:
			select { // for all it wrote on its standard error
			case <-m.done:
			case <-time.After(5 * time.Second):
			}
			return "", fmt.Errorf("the server ended without a word%s", m.said())
		case strings.HasPrefix(line, "error: "):
			return "", serverError(strings.TrimPrefix(line, "error: "))
		}
		return line, nil
	case <-time.After(wait):
		return "", fmt.Errorf("no answer from the server in %v%s", wait, m.said())
	}
}

// said is what the server wrote on its standard error, if anything.
func (m *mounted) said() string {
	if s := strings.TrimSpace(m.stderr.String()); s != "" {
		return "; it said: " + s
	}
	return ""
}

// unmount has the server unmount and end, within unmountWait. Where the
// server cannot unmount, it forces the mount off and says so; where it
// does not answer, unmount ends it and takes the mount off itself.
func (m *mounted) unmount() error {
	m.stop.Close()
	word, err := m.word(unmountWait)
	if err == nil && word != "unmounted" {
		err = fmt.Errorf("the server said %q", word)
	}
	var told serverError
	if err == nil || errors.As(err, &told) {
		// The server has unmounted, or failed to and forced the
		// mount off: it ends by itself.
		select {
		case <-m.done:
		case <-time.After(unmountWait):
			return fmt.Errorf("the server did not end in %v after unmounting%s", unmountWait, m.kill())
		}
		return err
	}
	return fmt.Errorf("%w%s", err, m.kill())
}

// kill ends the server, which aborts its connection (what waits on the
// mount fails with ENOTCONN), and detaches the mount, if it is there; it
// says what it did, for an error message.
func (m *mounted) kill() string {
	m.cmd.Process.Kill()
	select {
	case <-m.done:
	case <-time.After(unmountWait):
		return fmt.Sprintf(" (forced: the server, killed, did not end in %v)", unmountWait)
	}
	if !isMount(m.dir) {
		return " (forced: ended the server)"
	}
	var err error
	if os.Geteuid() == 0 {
		err = unix.Unmount(m.dir, unix.MNT_DETACH)
	} else {
		err = exec.Command(fusermount(), "-u", "-z", m.dir).Run()
	}
	if err != nil {
		return fmt.Sprintf(" (forced: ended the server, but could not detach the mount: %v)", err)
	}
	return " (forced: ended the server and detached the mount)"
}

// isMount reports whether dir is a mount point, from /proc/self/mountinfo.
func isMount(dir string) bool {
	for _, point := range mountPoints("") {
		if point == dir {
			return true
		}
	}
	return false
}

// serverError is an error the server told of: it has done what it could.
type serverError string

func (e serverError) Error() string { return string(e) }

// syncBuffer is a bytes.Buffer that the server's standard error is
// copied into while the test may read it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
