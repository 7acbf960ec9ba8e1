//go:build windows

package realpath

import (
	"os"
	"path/filepath"
	"testing"
)

// On Windows an absolute path starts at its volume's root and is split at
// either slash: C:\x\y is itself, not a name under \.
func TestOfWindowsPaths(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "src", "a.go")
	for _, p := range []string{want, filepath.ToSlash(want), filepath.Join(dir, "src", "..", "src", "a.go")} {
		if got := Of(p); got != want {
			t.Errorf("Of(%#q) = %#q, want %#q", p, got, want)
		}
	}
	if k := Stat(filepath.Join(dir, "src")); k != Dir {
		t.Errorf("Stat of a folder: %v, want Dir", k)
	}
}
