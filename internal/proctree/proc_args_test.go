//go:build darwin || linux

package proctree

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// holdEnv makes the test binary, started again, a process that waits for
// its standard input to end.
const holdEnv = "PROCTREE_TEST_HOLD"

func init() {
	if os.Getenv(holdEnv) != "" {
		buf := make([]byte, 1)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				os.Exit(0)
			}
		}
	}
}

// A child's arguments and environment are read as it was started with
// them: on Linux from /proc, on a Mac from kern.procargs2, whose layout
// (argc, the executable's path, padding, the arguments, the environment)
// proc_darwin.go parses itself. Its parent is this process; once it has
// ended it is not read as this process's child.
func TestChildArgsAndEnv(t *testing.T) {
	args := []string{"-test.run=^$", "two words", "x"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = []string{holdEnv + "=1", "PROCTREE_MARK=a=b c", "GORACE=atexit_sleep_ms=0"}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	p, ok := read(cmd.Process.Pid)
	if !ok {
		t.Fatal("the running child is not read")
	}
	if p.PID != cmd.Process.Pid || p.PPID != os.Getpid() {
		t.Errorf("the child read as pid %d, parent %d; want %d, %d", p.PID, p.PPID, cmd.Process.Pid, os.Getpid())
	}
	// The system may cut the name (Linux keeps 15 bytes, a Mac 16); the
	// test binary's is shorter.
	if name := filepath.Base(os.Args[0]); p.Name != name[:min(len(name), 15)] {
		t.Errorf("the child's name %q, want %q", p.Name, name)
	}
	if want := append([]string{os.Args[0]}, args...); !slices.Equal(p.Args, want) {
		t.Errorf("the child's arguments %q, want %q", p.Args, want)
	}
	if got := p.Getenv("PROCTREE_MARK"); got != "a=b c" || p.Getenv(holdEnv) != "1" {
		t.Errorf("the child's environment %q: PROCTREE_MARK=%q", p.Env, got)
	}
	stdin.Close()
	cmd.Wait()
	if p, ok := read(cmd.Process.Pid); ok && p.PPID == os.Getpid() {
		t.Errorf("the ended child is still read as this process's child: %+v", p)
	}
}
