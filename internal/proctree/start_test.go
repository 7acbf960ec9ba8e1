package proctree

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A hook's command line runs in a shell the client starts for it: the
// client's start is that of the nearest ancestor that is not a shell, here
// the test process, which started well before the shell.
func TestClientStartPassesTheShell(t *testing.T) {
	if os.Getenv("PROCTREE_START_CHILD") != "" {
		start, ok := ClientStart()
		if !ok {
			os.Stdout.WriteString("not ok\n")
		}
		os.Stdout.WriteString(strconv.FormatInt(start.UnixMilli(), 10) + "\n")
		os.Exit(0)
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no sh to start the child in")
	}
	_, self, ok := brief(os.Getpid())
	if !ok {
		t.Fatal("the test process's own start cannot be read")
	}
	if now := time.Now(); self.After(now) || now.Sub(self) > 10*time.Minute {
		t.Fatalf("the test process started at %v, now is %v", self, now)
	}
	// The shell starts a second after the test at least, so that its
	// start could not pass for the test's.
	if wait := time.Until(self.Add(time.Second)); wait > 0 {
		time.Sleep(wait)
	}
	cmd := exec.Command("sh", "-c", `"$0" -test.run=TestClientStartPassesTheShell; true`, os.Args[0])
	cmd.Env = append(os.Environ(), "PROCTREE_START_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatalf("the child said %q", out)
	}
	if d := time.UnixMilli(ms).Sub(self); d < -50*time.Millisecond || d > 50*time.Millisecond {
		t.Errorf("the child's client started at %v, %v from the test process's start %v", time.UnixMilli(ms), d, self)
	}
}
