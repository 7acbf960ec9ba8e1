//go:build unix

package lichguard

import (
	"os/exec"
	"syscall"
)

// killTreeOnCancel puts cmd in a process group of its own, so that a
// timeout kills what it started too, and a grandchild holding stdout
// cannot keep the edit waiting.
func killTreeOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
