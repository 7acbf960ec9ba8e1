//go:build !unix

package lichguard

import "os/exec"

// killTreeOnCancel leaves exec's own cancel (kill the process) where
// there are no process groups; cmd.WaitDelay still bounds a grandchild
// that holds stdout.
func killTreeOnCancel(cmd *exec.Cmd) {}
