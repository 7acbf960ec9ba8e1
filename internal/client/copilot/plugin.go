package copilot

import (
	"bytes"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/internal/installers"
)

// lucid's Copilot CLI plugin (plugins/copilot, installed with `copilot
// plugin install`) registers lucid's hooks for every session. Copilot runs
// a plugin's hooks beside a repository's own, both (seen with 1.0.102), so
// the plugin's stand aside (lucid hook --client copilot --user) where the
// repository registers lucid's, and each event runs lucid once.

// PluginHookCommand is the command of the plugin's hook for event. Like
// HookCommand it exits 0 whatever becomes of lucid.
func PluginHookCommand(event string) string {
	return "command -v lucid >/dev/null 2>&1 || exit 0; lucid hook --client copilot --user " + event + " || true"
}

// PluginHooks is the plugin's hooks/hooks.json as a client of the
// installer: a test holds the file to it, so that the plugin registers the
// events, matchers and timeouts of lucid init's own.
var PluginHooks = &installers.Client{
	ID:          "copilot",
	Name:        "GitHub Copilot CLI",
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     PluginHookCommand,
	Flat:        true,
}

// claudeSettings are Claude Code's project settings, whose hooks Copilot
// runs too (hosted: see Hosts).
var claudeSettings = []string{".claude/settings.json", ".claude/settings.local.json"}

// UserHookStandsAside reports whether a hook of the plugin leaves event to
// the repository's own: lucid's hook file is there, or Claude Code's
// project settings register lucid's hooks, which Copilot runs as well, and
// Copilot trusts the folder, without which it runs the plugin's hooks and
// skips the repository's (seen with 1.0.102). It reads the files whole
// without decoding them: it runs in every hook call of the plugin.
func (Client) UserHookStandsAside(event string) bool {
	dir := os.Getenv("COPILOT_PROJECT_DIR")
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return projectHooks(dir) && trustedHere(dir)
}

// projectHooks reports whether the repository at dir registers lucid's
// hooks for Copilot to run, and did as Copilot started
// (installers.ReadLoadedHooks): its hook file, or Claude Code's settings.
func projectHooks(dir string) bool {
	if b, err := readLoadedHooks(filepath.Join(dir, filepath.FromSlash(HooksName))); err == nil && isLucidFile(b) {
		return true
	}
	for _, name := range claudeSettings {
		b, err := readLoadedHooks(filepath.Join(dir, filepath.FromSlash(name)))
		if err == nil && bytes.Contains(b, []byte("lucid hook ")) {
			return true
		}
	}
	return false
}

// readLoadedHooks reads a project's hook settings as they were when the
// client started (installers.ReadLoadedHooks); a test reads them as they
// are.
var readLoadedHooks = installers.ReadLoadedHooks
