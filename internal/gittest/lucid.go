package gittest

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// BuildLucid builds lucid's command into dir and returns its path. Tests
// that run lucid as processes run this build rather than their own -race
// test binary: a race build takes several times longer to start, and a
// suite of thousands of lucid processes spent most of its time starting
// them; the race detector sees only the goroutines of one process, which
// the packages' own tests run under it. Every suite builds with the same
// flags, so the build cache serves the second one.
func BuildLucid(dir string) (string, error) {
	bin := filepath.Join(dir, "lucid")
	build := exec.Command("go", "build", "-o", bin, "github.com/lucid-dev/lucid/cmd/lucid")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building lucid: %v\n%s", err, out)
	}
	return bin, nil
}
