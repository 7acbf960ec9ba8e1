package foldfs_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/foldfs"
)

// A server killed outright leaves a dead mount behind; the next process
// to probe FUSE detaches it.
func TestSweepDetachesTheMountOfAKilledServer(t *testing.T) {
	if err := foldfs.Available(); err != nil {
		t.Skip(err)
	}
	helper, dir, _ := startHelper(t, "killed")
	server := serverOf(t, dir)
	if server == nil {
		t.Fatalf("no process serves %s", dir)
	}
	server.Kill()
	// Not a child of this process: Wait cannot tell when it has died.
	for wait := time.Now().Add(10 * time.Second); alive(server.Pid) && time.Now().Before(wait); {
		time.Sleep(5 * time.Millisecond)
	}
	helper.Process.Kill()
	helper.Wait()
	if !mounted(t, dir) {
		t.Fatalf("%s was unmounted when its server was killed: nothing to sweep", dir)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s still answers after its server was killed", dir)
	}
	foldfs.Sweep()
	if mounted(t, dir) {
		t.Errorf("%s is still mounted after the sweep", dir)
	}
}

// alive reports whether the process pid is there and no zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// PID (COMM) STATE ...: the command may hold spaces and parentheses.
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// serverOf finds the process that serves the mount dir, by its environment.
func serverOf(t *testing.T, dir string) *os.Process {
	procs, err := filepath.Glob("/proc/[0-9]*/environ")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range procs {
		env, err := os.ReadFile(p)
		if err != nil || !slices.Contains(strings.Split(string(env), "\x00"), "FOLDFS_DIR="+dir) {
			continue
		}
		pid, err := strconv.Atoi(strings.Split(p, "/")[2])
		if err != nil {
			t.Fatal(err)
		}
		proc, err := os.FindProcess(pid)
		if err != nil {
			t.Fatal(err)
		}
		return proc
	}
	return nil
}
