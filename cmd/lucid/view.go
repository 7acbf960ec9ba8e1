package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/escape"
)

// viewBinary is the binary that serves lucid web and lucid watch. It is
// not linked into lucid because the packages a page and a terminal view
// need (net/http, a terminal UI library) would add their initialisation to
// the start of every hook.
const viewBinary = "lucid-view"

// runView runs lucid-view NAME ARGS, found beside this lucid or on PATH,
// in this process's place (on Windows, as a child with this process's
// standard streams, whose exit code it returns as lucid's). A person's
// command: an agent's shell is refused, since the page acts as the person.
func runView(c *cli, name string, args []string) error {
	if err := personOnly(name); err != nil {
		return err
	}
	if me, err := agent(); err != nil {
		return err
	} else if me != agentstore.AgentHuman {
		return fmt.Errorf("lucid %s is a person's command, and LUCID_AGENT=%s says an agent runs it: ask the user to run it", name, escape.Line(me))
	}
	bin, err := findView()
	if err != nil {
		return err
	}
	if runtime.GOOS != "windows" {
		// Become lucid-view, so that a signal to this process (kill, a
		// service manager's stop) reaches the server, and none is left
		// running when lucid is gone.
		return syscall.Exec(bin, append([]string{bin, name}, args...), os.Environ())
	}
	cmd := exec.Command(bin, append([]string{name}, args...)...)
	// The view draws on the terminal itself: it gets the real streams, not
	// lucid's escaping writers, and escapes what it shows.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return &exitError{code: exit.ExitCode(), err: errors.New("")}
	}
	return err
}

// findView looks for lucid-view beside the running lucid, then on PATH.
func findView() (string, error) {
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	if self, err := os.Executable(); err == nil {
		if self, err = filepath.EvalSymlinks(self); err == nil {
			beside := filepath.Join(filepath.Dir(self), viewBinary+exe)
			if fi, err := os.Stat(beside); err == nil && !fi.IsDir() {
				return beside, nil
			}
		}
	}
	if p, err := exec.LookPath(viewBinary); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s is not installed beside lucid nor on PATH: install it with `make install`, or `go install -tags purego github.com/lucid-dev/lucid/cmd/lucid-view@latest`", viewBinary)
}
