//go:build windows

package lichguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lichEnv makes the test binary, started again, a stand-in for lich:
// "hang" starts a child of its own that inherits its standard output
// ("hold", which only sleeps) and writes that child's pid to the file
// lichPidEnv names, then sleeps itself. The shell scripts of
// lichguard_test.go do not run here.
const lichEnv, lichPidEnv = "LICHGUARD_TEST_LICH", "LICHGUARD_TEST_PID"

func init() {
	switch os.Getenv(lichEnv) {
	case "hang":
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), lichEnv+"=hold")
		cmd.Stdout = os.Stdout
		if err := cmd.Start(); err != nil {
			os.Exit(3)
		}
		os.WriteFile(os.Getenv(lichPidEnv), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
		time.Sleep(time.Minute)
		os.Exit(0)
	case "hold":
		time.Sleep(time.Minute)
		os.Exit(0)
	}
}

// Windows has no process group to kill, so a roster call past its time
// (the default 2 s, which leaves the stand-in time to start its child)
// kills lich alone; a child of lich's that still holds its standard output
// must not keep the edit waiting: cmd.WaitDelay lets go of it.
func TestWindowsRosterTimeoutWithAGrandchild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv(lichEnv, "hang")
	t.Setenv(lichPidEnv, pidFile)
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
					p.Wait()
				}
			}
		}
	})
	l := &Session{Name: "lich-a", Bin: os.Args[0], RosterTimeout: 2 * time.Second}
	start := time.Now()
	labels, err := l.Labels()
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "took over 2s") || labels != nil {
		t.Errorf("a lich that hangs: %v, %v; want it to have taken over 2s", labels, err)
	}
	if took > 10*time.Second {
		t.Errorf("the roster call took %v: its grandchild kept it waiting", took)
	}
	if _, err := os.Stat(pidFile); err != nil {
		t.Errorf("the stand-in started no grandchild (%v): the test proved nothing", err)
	}
}
