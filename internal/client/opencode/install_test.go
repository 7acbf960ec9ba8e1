package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// lucid's plugin: written whole, kept on a second run, refused over a
// file that is not lucid's; uninstall leaves the tree as it found it,
// the folders it created included, and the user's own folder kept.
func TestInstallUninstall(t *testing.T) {
	repo := installertest.NewRepo(t)
	ch, err := (Client{}).Setup().Install(repo, installers.Options{})
	if err != nil || len(ch) != 1 {
		t.Fatalf("install: %v %v", ch, err)
	}
	if got := installertest.ReadFile(t, repo, PluginName); got != string(Plugin) {
		t.Error("the plugin written is not lucid's")
	}
	if !Hooks.SetUp(repo) {
		t.Error("not set up after install")
	}
	if ch, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 0 {
		t.Errorf("second install: %v %v", ch, err)
	}
	if _, err := (Client{}).Setup().Uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(repo.Abs(".opencode")); !os.IsNotExist(err) {
		t.Errorf(".opencode stays after uninstall (%v)", err)
	}
	if Hooks.SetUp(repo) {
		t.Error("set up after uninstall")
	}

	// The user's .opencode/ stays.
	installertest.WriteSettings(t, repo, ".opencode/opencode.json", "{}\n")
	if dir, found := Hooks.Detected(repo); !found || dir != ".opencode" {
		t.Errorf(".opencode/ not detected: %q", dir)
	}
	if _, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := (Client{}).Setup().Uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(repo.Abs(".opencode/plugins")); !os.IsNotExist(err) {
		t.Errorf("the plugins folder lucid made stays (%v)", err)
	}
	if installertest.ReadFile(t, repo, ".opencode/opencode.json") != "{}\n" {
		t.Error("the user's file changed")
	}

	// Another plugin of that name is refused and kept.
	mine := "export const Mine = async () => ({})\n"
	installertest.WriteSettings(t, repo, PluginName, mine)
	if _, err := (Client{}).Setup().Install(repo, installers.Options{}); err == nil || !strings.Contains(err.Error(), "not lucid's") {
		t.Errorf("install over the user's plugin: %v", err)
	}
	if _, err := (Client{}).Setup().Uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if installertest.ReadFile(t, repo, PluginName) != mine {
		t.Error("the user's plugin changed")
	}
}

// doctor loads the plugin as opencode does: one extra export and it
// fails, since opencode would skip the whole file.
func TestCheckLoads(t *testing.T) {
	repo := installertest.NewRepo(t)
	if _, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	f := opencodePlace.checkLoads(repo)
	if !f.OK {
		t.Fatalf("lucid's plugin: %+v", f)
	}
	if strings.HasPrefix(f.Detail, "not checked") {
		t.Skip(f.Detail)
	}
	os.WriteFile(filepath.Join(repo.Top, PluginName), append([]byte("export const V = 1\n"), Plugin...), 0o644)
	if f := opencodePlace.checkLoads(repo); f.OK || !strings.Contains(f.Detail, "exports V, not a function") {
		t.Errorf("an extra export: %+v", f)
	}
	os.WriteFile(filepath.Join(repo.Top, PluginName), []byte("throw new Error('x')\n"), 0o644)
	if f := opencodePlace.checkLoads(repo); f.OK || !strings.Contains(f.Detail, "does not load") {
		t.Errorf("a throw at load: %+v", f)
	}
}

// Plain lucid init finds Kilo Code by either of its folders; the plugin
// goes in .kilo/plugins/, which Kilo loads as it loads .kilocode/plugins/.
func TestKiloDetected(t *testing.T) {
	repo := installertest.NewRepo(t)
	if _, found := KiloHooks.Detected(repo); found {
		t.Error("Kilo detected in an empty repository")
	}
	installertest.WriteSettings(t, repo, ".kilocode/rules/x.md", "rule\n")
	if dir, found := KiloHooks.Detected(repo); !found || dir != ".kilocode" {
		t.Errorf(".kilocode/ not detected: %q", dir)
	}
	installertest.WriteSettings(t, repo, ".kilo/kilo.json", "{}\n")
	if dir, _ := KiloHooks.Detected(repo); dir != ".kilo" {
		t.Errorf("detected %q, want .kilo first", dir)
	}
}
