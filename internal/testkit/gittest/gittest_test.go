package gittest

import (
	"os"
	"path/filepath"
	"testing"
)

// A repository made by Init takes a commit of what WriteFile wrote, with
// the fixed identity, both through Run and through git run by the code
// under test after Setenv.
func TestRepository(t *testing.T) {
	dir := Init(t)
	if top := Run(t, dir, "rev-parse", "--show-toplevel"); top != dir {
		t.Errorf("Init gave %s, git names its top %s", dir, top)
	}
	path := WriteFile(t, dir, "src/a.go", "package a\n")
	if b, err := os.ReadFile(filepath.Join(dir, "src", "a.go")); err != nil || string(b) != "package a\n" || path != filepath.Join(dir, "src", "a.go") {
		t.Fatalf("WriteFile: %q, %v, %s", b, err, path)
	}
	CommitAll(t, dir, "first")
	if who := Run(t, dir, "log", "-1", "--format=%an <%ae> %s"); who != "t <t@example.com> first" {
		t.Errorf("the commit: %s", who)
	}
	Setenv(t)
	if os.Getenv("GIT_AUTHOR_EMAIL") != "t@example.com" || os.Getenv("GIT_CONFIG_NOSYSTEM") != "1" {
		t.Error("Setenv left git's identity out of the environment")
	}
	t.Setenv("GORACE", "")
	QuickRaceExit()
	if os.Getenv("GORACE") != "atexit_sleep_ms=0" {
		t.Error("QuickRaceExit set no GORACE")
	}
}
