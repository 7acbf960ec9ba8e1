package claude

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
)

var updatePlugin = flag.Bool("update", false, "write plugins/claude's hooks/hooks.json and commands/dream.md from lucid's own tables")

// pluginDir is lucid's Claude Code plugin, from this package's folder.
var pluginDir = filepath.Join("..", "..", "..", "plugins", "claude")

// The plugin's files are written from what lucid init writes (the hook
// table, /lucid:dream), so that a change to either reaches the plugin:
// this test fails while they differ, and -update writes them.
func TestPluginMatchesLucidInit(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "hooks.json")
	if _, err := installers.InstallUser(PluginHooks, settings); err != nil {
		t.Fatal(err)
	}
	hooks, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"hooks/hooks.json":  string(hooks),
		"commands/dream.md": DreamCommand,
	} {
		path := filepath.Join(pluginDir, filepath.FromSlash(name))
		if *updatePlugin {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("plugins/claude/%s is not what lucid init writes (go test ./internal/client/claude -run TestPluginMatchesLucidInit -update writes it):\n%s", name, want)
		}
	}
}

// The plugin's hooks stand aside where the project registers lucid's own,
// as the user hooks do, and the one that speaks where lucid is missing
// speaks JSON that Claude Code reads.
func TestPluginHookCommand(t *testing.T) {
	for _, e := range events {
		cmd := PluginHookCommand(e.Name)
		if !strings.HasSuffix(cmd, "exec lucid hook --user "+e.Name) {
			t.Errorf("%s: %s", e.Name, cmd)
		}
	}
}
