package installers

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A project's hooks count for a hook registered outside the project only
// as the client that runs it found them when it started: a file there
// before the client is read; one written since is not, and setting its
// time back (touch -d) does not make it so.
func TestReadLoadedHooks(t *testing.T) {
	switch os.Getenv("INSTALLERS_ASIDE") {
	case "client":
		// A client: it runs the hook as its child, as a client does.
		cmd := exec.Command(os.Args[0], "-test.run=^TestReadLoadedHooks$")
		cmd.Env = append(os.Environ(), "INSTALLERS_ASIDE=hook")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		cmd.Run()
		os.Exit(0)
	case "hook":
		_, err := ReadLoadedHooks(os.Getenv("INSTALLERS_ASIDE_FILE"))
		if err != nil {
			os.Stdout.WriteString(err.Error())
		} else {
			os.Stdout.WriteString("loaded")
		}
		os.Exit(0)
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("a client's start is read from the process table on Linux and macOS")
	}
	file := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(file, []byte(`{"hooks":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The client starts after the file was written: a start read from a
	// clock of 10 ms ticks needs the slack and a little more between.
	time.Sleep(startSlack + 50*time.Millisecond)
	cmd := exec.Command(os.Args[0], "-test.run=^TestReadLoadedHooks$")
	cmd.Env = append(os.Environ(), "INSTALLERS_ASIDE=client", "INSTALLERS_ASIDE_FILE="+file)
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "loaded" {
		t.Errorf("a file there before the client started: %q, %v", out, err)
	}
	// This test's client (its parent, go test) started before the file was
	// written.
	if _, err := ReadLoadedHooks(file); !errors.Is(err, errNewer) {
		t.Errorf("a file written since the client started was read: %v", err)
	}
	old := time.Now().Add(-24 * time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLoadedHooks(file); !errors.Is(err, errNewer) {
		t.Errorf("a file written since the client started, its time set back, was read: %v", err)
	}
	if _, err := ReadLoadedHooks(file + ".none"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no file: %v", err)
	}
}
