package gittest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// CoverDirEnv, when set to a folder, makes BuildLucid build lucid with
// coverage counters for all of lucid's packages, and every lucid process a
// test starts writes its counts there (as GOCOVERDIR). A package whose
// tests run lucid as processes, such as cmd/lucid's scripts, is measured
// this way by what those processes ran (`make cover`).
const CoverDirEnv = "LUCID_COVERDIR"

// BuildLucid builds lucid's command into dir and returns its path. Tests
// that run lucid as processes run this build rather than their own -race
// test binary: a race build takes several times longer to start, and a
// suite of thousands of lucid processes spent most of its time starting
// them; the race detector sees only the goroutines of one process, which
// the packages' own tests run under it. Every suite builds with the same
// flags, so the build cache serves the second one.
func BuildLucid(dir string) (string, error) { return build(dir, "lucid") }

// BuildView builds lucid-view, which lucid web and lucid watch run, into
// dir, where a lucid that BuildLucid built there finds it.
func BuildView(dir string) (string, error) { return build(dir, "lucid-view") }

// build builds the command cmd/NAME into dir as NAME.
func build(dir, name string) (string, error) {
	bin := filepath.Join(dir, name)
	args := []string{"build", "-o", bin}
	if dir := os.Getenv(CoverDirEnv); dir != "" {
		args = append(args, "-cover", "-coverpkg=github.com/lucid-dev/lucid/...")
		// Processes started with the test's environment write their
		// counts here; a test that builds its own environment passes GOCOVERDIR on.
		os.Setenv("GOCOVERDIR", dir)
	}
	build := exec.Command("go", append(args, "github.com/lucid-dev/lucid/cmd/"+name)...)
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", name, err, out)
	}
	return bin, nil
}
