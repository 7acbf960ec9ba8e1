package proctree

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// A process started with an empty environment under a shell that had a
// mark in its own still reads the mark among its ancestors': what a
// command line cannot erase.
func TestAncestorsKeepTheirEnvironment(t *testing.T) {
	if os.Getenv("PROCTREE_CHILD") != "" {
		procs, ok := Ancestors()
		for _, p := range procs {
			os.Stdout.WriteString(p.Name + " " + p.Getenv("PROCTREE_MARK") + "\n")
		}
		if !ok {
			os.Stdout.WriteString("not ok\n")
		}
		os.Exit(0)
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("ancestors' environments are read on Linux and macOS")
	}
	cmd := exec.Command("sh", "-c", `env -i PROCTREE_CHILD=1 "$0" -test.run=TestAncestorsKeepTheirEnvironment; true`, os.Args[0])
	cmd.Env = append(os.Environ(), "PROCTREE_MARK=agent-shell")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "sh agent-shell") || strings.Contains(string(out), "not ok") {
		t.Fatalf("the child read its ancestors as:\n%s\nwant first the shell, with its mark", out)
	}
}

// The running process is no orphan: its parent started it.
func TestNotOrphan(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip()
	}
	if Orphan() {
		t.Error("the test process took itself for an orphan")
	}
}
