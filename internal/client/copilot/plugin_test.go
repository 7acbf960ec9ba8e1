package copilot

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
)

// The Copilot plugin's hooks/hooks.json registers the hooks lucid init
// --client copilot writes, so that a change to the hook table reaches the
// plugin: this test fails while they differ. (The plugin's file is the
// project's, with "version": 1; the user form compared here has none.)
func TestPluginMatchesLucidInit(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "hooks.json")
	if _, err := installers.InstallUser(Hooks, settings); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "plugins", "copilot", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g, w struct{ Hooks json.RawMessage }
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact(t, g.Hooks), compact(t, w.Hooks)) {
		t.Errorf("plugins/copilot/hooks/hooks.json differs from lucid init's:\n%s\nwant:\n%s", got, want)
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
