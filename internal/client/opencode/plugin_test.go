package opencode

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// The plugin on its own, under node's test runner: opencode runs it in
// Bun, whose node builtins it alone uses.
func TestPlugin(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH to run the plugin's tests with")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the fake lucid")
	}
	plugin, _ := filepath.Abs("plugin.js")
	cmd := exec.Command(node, "--test", filepath.Join("testdata", "plugin_test.mjs"))
	cmd.Env = append(cmd.Environ(), "PLUGIN="+plugin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test: %v\n%s", err, out)
	}
}
