package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// Codex keys a linked work tree's trust by the main checkout's root.
func TestCodexProjectTrustOfALinkedWorkTree(t *testing.T) {
	main := installertest.NewRepo(t)
	gittest.CommitAll(t, main.Top, "x")
	gittest.Run(t, main.Top, "worktree", "add", "-q", filepath.Join(main.Top, "..", "wt"))
	wt, err := gitstore.Find(filepath.Join(main.Top, "..", "wt"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	if f := checkCodexProject(wt); f.OK {
		t.Errorf("trusted with no config: %s", f.Detail)
	}
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[projects."+tomlString(main.Top)+"]\ntrust_level = \"trusted\"\n"), 0o600)
	if f := checkCodexProject(wt); !f.OK {
		t.Errorf("the main checkout is trusted, yet: %s", f.Detail)
	}
}

// Codex's hooks and its agents' login shell must both find lucid.
func TestShellPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if f := checkShellPath(Hooks); f.OK || !strings.Contains(f.Detail, "every hook does nothing") {
		t.Errorf("no lucid on PATH: %+v", f)
	}
}

// Doctor's checks of Codex name a config.toml it cannot read, and where
// lucid is on the hooks' PATH, what a login shell finds.
func TestCodexChecksOfBadConfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	repo := installertest.NewRepo(t)
	if err := os.Mkdir(filepath.Join(home, "config.toml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if f := checkCodexProject(repo); f.OK || !strings.Contains(f.Fix, "fix "+ConfigPath()) {
		t.Errorf("project trust: %+v", f)
	}
	if f := checkCodexTrust(repo); f.OK || !strings.Contains(f.Fix, "fix "+ConfigPath()) {
		t.Errorf("hook trust: %+v", f)
	}
	if _, err := Trust(repo); err == nil {
		t.Error("trust written through a config.toml that is a folder")
	}
	if _, err := (Client{}).Setup().Install(repo, installers.Options{Trust: true}); err == nil {
		t.Error("install trusted through a config.toml that is a folder")
	}
	if _, err := (Client{}).Setup().Uninstall(repo); err == nil {
		t.Error("uninstall untrusted through a config.toml that is a folder")
	}
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "lucid"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("SHELL", "/bin/sh")
	if f := checkShellPath(Hooks); f.Check != "codex finds lucid" || f.Detail == "" {
		t.Errorf("lucid on PATH: %+v", f)
	}
}
