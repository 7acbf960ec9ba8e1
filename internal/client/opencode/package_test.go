package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// plugins/opencode, lucid's plugin as an npm package, carries the plugin
// that lucid init writes, byte for byte, so that the two never drift.
func TestNpmPackageCarriesThePlugin(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "plugins", "opencode", "lucid.js"))
	if err != nil || !bytes.Equal(got, Plugin) {
		t.Errorf("plugins/opencode/lucid.js is not internal/client/opencode/plugin.js: cp internal/client/opencode/plugin.js plugins/opencode/lucid.js (%v)", err)
	}
}
