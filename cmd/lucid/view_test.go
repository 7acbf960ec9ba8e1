package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// lucid web and lucid watch run lucid-view, found beside lucid first, with
// their arguments and its exit code; without it, they say how to get it;
// in an agent's shell they are refused, since the page acts as a person.
func TestViewIsFound(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in lucid-view is a shell script")
	}
	built, err := exec.LookPath("lucid")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lucid := filepath.Join(dir, "lucid")
	b, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lucid, b, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(env []string, args ...string) (string, int) {
		cmd := exec.Command(lucid, args...)
		cmd.Env = append(os.Environ(), append([]string{"PATH=/usr/bin:/bin", "CLAUDECODE=", "AI_AGENT=", "GEMINI_CLI=", "QWEN_CODE=", "COPILOT_CLI="}, env...)...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, code := run(nil, "web"); code != 1 || !strings.Contains(out, "lucid-view is not installed beside lucid nor on PATH: install it with `make install`") {
		t.Errorf("without lucid-view: exit %d, %q", code, out)
	}
	script := "#!/bin/sh\necho \"view $*\"\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, "lucid-view"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := run(nil, "watch", "--once"); code != 3 || out != "view watch --once\n" {
		t.Errorf("lucid watch --once beside lucid-view: exit %d, %q", code, out)
	}
	if out, code := run([]string{"CLAUDECODE=1"}, "web"); code == 0 || !strings.Contains(out, "person's command") {
		t.Errorf("in an agent's shell: exit %d, %q", code, out)
	}
	// Signed by the hook, an agent's lucid web is refused where its shell
	// hid what it is.
	if out, code := run([]string{"LUCID_AGENT=0b218250-bcad-4f28-bb25-013e7e946655"}, "watch"); code != 1 || !strings.Contains(out, "LUCID_AGENT=0b218250-bcad-4f28-bb25-013e7e946655 says an agent runs it") {
		t.Errorf("signed by an agent: exit %d, %q", code, out)
	}
}
