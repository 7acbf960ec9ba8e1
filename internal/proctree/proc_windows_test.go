//go:build windows

package proctree

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// waitEnv makes the test binary, started again by the tests below, a
// process that waits for its standard input to end.
const waitEnv = "PROCTREE_TEST_WAIT"

func init() {
	if os.Getenv(waitEnv) != "" {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
}

// The snapshot finds this process, with its parent and the name of its
// executable; Ancestors starts at the parent. (proctree_test.go's tests of
// environments skip here: Windows keeps another process's environment
// from a reader.)
func TestWindowsReadsThisProcess(t *testing.T) {
	p, ok := read(os.Getpid())
	if !ok {
		t.Fatal("this process is not in the system's snapshot")
	}
	exe := filepath.Base(os.Args[0])
	if !strings.HasSuffix(strings.ToLower(exe), ".exe") {
		exe += ".exe"
	}
	if p.PID != os.Getpid() || p.PPID != os.Getppid() || !strings.EqualFold(p.Name, exe) {
		t.Errorf("read this process as %+v, want pid %d, parent %d, name %s", p, os.Getpid(), os.Getppid(), exe)
	}
	if p.Env != nil {
		t.Errorf("an environment was read on Windows: %d variables", len(p.Env))
	}
	procs, _ := Ancestors() // ok may be false: a grandparent may be gone
	if len(procs) == 0 || procs[0].PID != os.Getppid() {
		t.Errorf("Ancestors starts at %+v, want the parent %d", procs, os.Getppid())
	}
	if Orphan() {
		t.Error("the test process took itself for an orphan")
	}
}

// A running child is found as this process's child; once it has ended it
// is not (its pid may already be another process's, but not one of ours).
func TestWindowsFinishedChildIsGone(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), waitEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	p, ok := read(pid)
	if !ok || p.PPID != os.Getpid() || !strings.EqualFold(p.Name, filepath.Base(cmd.Path)) {
		t.Errorf("the running child %d read as %+v, %v; want this process's child %s", pid, p, ok, filepath.Base(cmd.Path))
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if p, ok := read(pid); ok && p.PPID == os.Getpid() {
		t.Errorf("the ended child %d is still read as this process's child: %+v", pid, p)
	}
}
