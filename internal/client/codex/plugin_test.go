package codex

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

var updatePlugin = flag.Bool("update", false, "write plugins/codex/hooks/hooks.json from lucid's own hook table")

// pluginHooksFile is lucid's Codex plugin's hooks file, from this
// package's folder.
var pluginHooksFile = filepath.Join("..", "..", "..", "plugins", "codex", "hooks", "hooks.json")

// The plugin's hooks file is written from the table lucid init --client
// codex writes, so that a change to the table reaches the plugin: this
// test fails while they differ, and -update writes it.
func TestPluginMatchesLucidInit(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "hooks.json")
	if _, err := installers.InstallUser(PluginHooks, settings); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	if *updatePlugin {
		if err := os.WriteFile(pluginHooksFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(pluginHooksFile)
	if err != nil || string(got) != string(want) {
		t.Errorf("plugins/codex/hooks/hooks.json is not what lucid init writes (go test ./internal/client/codex -run TestPluginMatchesLucidInit -update writes it):\n%s", want)
	}
	// Each event runs lucid init's own command with --user, which stands
	// aside where the project's entry runs; SessionStart first says where
	// lucid is missing.
	for _, e := range events {
		cmd := PluginHookCommand(e.Name)
		if !strings.HasPrefix(cmd, "command -v lucid >/dev/null 2>&1 || ") || !strings.HasSuffix(cmd, "; exec lucid hook --client codex --user "+e.Name) {
			t.Errorf("%s: %s", e.Name, cmd)
		}
	}
}

// The plugin's hook stands aside only where Codex runs lucid's project
// entry for the event too: there as Codex started, and trusted. Trust the
// project and not the entry, and the plugin's hook serves the call, since
// Codex skips the entry without a word.
func TestPluginHookStandsAside(t *testing.T) {
	repo := installertest.NewRepo(t)
	t.Setenv("CODEX_HOME", t.TempDir())
	t.Chdir(repo.Top)
	aside := func() bool { return Client{}.UserHookStandsAside("PreToolUse") }
	if aside() {
		t.Error("stands aside in a repository without lucid's Codex hooks")
	}
	if _, err := Hooks.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	project := "[projects." + tomlString(repo.Top) + "]\ntrust_level = \"trusted\"\n"
	os.WriteFile(ConfigPath(), []byte(project), 0o600)
	if _, err := Trust(repo); err != nil {
		t.Fatal(err)
	}
	// Written after the client (the test's parent) started, the entry is
	// one Codex has not loaded.
	if aside() {
		t.Error("stands aside for a project entry written after Codex started")
	}
	was := readLoadedHooks
	readLoadedHooks = func(path string) ([]byte, error) { return os.ReadFile(path) }
	defer func() { readLoadedHooks = was }()
	if !aside() {
		t.Error("does not stand aside where the trusted project entry runs")
	}
	os.WriteFile(ConfigPath(), []byte(project), 0o600)
	if aside() {
		t.Error("stands aside for a project entry Codex does not trust")
	}
}
