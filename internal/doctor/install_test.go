package doctor

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// npm's global layout: PREFIX/bin/lucid links to the package's bin/lucid,
// which is the node launcher until the postinstall puts the native binary
// there.
func npmLayout(t *testing.T, content string) string {
	t.Helper()
	prefix := t.TempDir()
	pkgBin := filepath.Join(prefix, "lib", "node_modules", "@lucid-dev", "lucid", "bin")
	if err := os.MkdirAll(pkgBin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkgBin, "lucid"), []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(prefix, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(prefix, "bin", "lucid")
	if err := os.Symlink(filepath.Join("..", "lib", "node_modules", "@lucid-dev", "lucid", "bin", "lucid"), link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	return link
}

func TestInstalledAsNpm(t *testing.T) {
	native := installedAs(npmLayout(t, "\x7fELF native"))
	if native.bad != "" || !strings.Contains(native.detail, "installed by npm") || !strings.Contains(native.detail, "the native binary") {
		t.Errorf("npm's native lucid: %+v", native)
	}
	launcher := installedAs(npmLayout(t, "#!/usr/bin/env node\n"))
	if runtime.GOOS == "windows" {
		return
	}
	if launcher.bad == "" || !strings.Contains(launcher.fix, "npm rebuild -g @lucid-dev/lucid") {
		t.Errorf("npm's launcher left on PATH is not a failure with its fix: %+v", launcher)
	}
}

func TestInstalledAsGoInstall(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOBIN", dir)
	if in := installedAs(filepath.Join(dir, "lucid")); !strings.Contains(in.detail, "go install") {
		t.Errorf("a lucid in GOBIN: %+v", in)
	}
	if in := installedAs(filepath.Join(t.TempDir(), "lucid")); in.detail != "" || in.bad != "" {
		t.Errorf("a lucid copied anywhere else: %+v, want nothing said", in)
	}
}

// A lucid in ~/.local/bin is install.sh's, which puts it there.
func TestInstalledAsScript(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("GOBIN", t.TempDir())
	if in := installedAs(filepath.Join(home, ".local", "bin", "lucid")); !strings.Contains(in.detail, "install.sh") {
		t.Errorf("a lucid in ~/.local/bin: %+v", in)
	}
}
