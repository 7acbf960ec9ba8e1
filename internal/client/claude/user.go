package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/internal/installers"
)

// Claude Code reads a project's .claude/settings.json only from the folder
// a session starts in (seen with 2.1.332: a session started in a subfolder
// of the repository, in a repository nested in it, or above it runs none of
// the repository's hooks). Hooks in the user's settings run in every
// session, wherever it starts: `lucid init --user` registers lucid's there,
// and they stand aside where the session's own folder registers lucid's
// project hooks, so that no hook runs twice.

// UserHookCommand is the command registered in the user's settings.
func UserHookCommand(event string) string {
	return "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --user " + event
}

// userHooks is Claude Code's user settings as a client of the installer.
var userHooks = &installers.Client{
	ID:          "claude",
	Name:        "Claude Code",
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     UserHookCommand,
}

// ConfigDir is Claude Code's folder of the user's: $CLAUDE_CONFIG_DIR,
// else ~/.claude; "" when neither can be told.
func ConfigDir() string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".claude")
}

// UserSettings is the user's settings file of Claude Code:
// $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json.
func UserSettings() string {
	dir := ConfigDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "settings.json")
}

// ProjectHooks reports whether a session started in dir runs lucid's
// project hooks for event: its .claude/settings.json or
// settings.local.json registers them, and did as the session's Claude Code
// started (installers.ReadLoadedHooks). lucid's user hooks then stand
// aside. It reads the two files whole, without decoding them: it runs in
// every hook call of a user hook.
func ProjectHooks(dir, event string) bool {
	want := []byte("lucid hook " + event + `"`)
	for _, name := range []string{SettingsName, LocalSettingsName} {
		b, err := readLoadedHooks(filepath.Join(dir, filepath.FromSlash(name)))
		if err == nil && bytes.Contains(b, want) {
			return true
		}
	}
	return false
}

// Lucid's Claude Code plugin (plugins/claude, installed with `claude
// plugin install`) registers its hooks in the plugin's hooks/hooks.json,
// which Claude Code runs in every session, like the user's settings: they
// are the user hooks' commands, which stand aside where the project
// registers lucid's own (a teammate ran lucid init), so that each event
// runs lucid once. A plugin installs without lucid itself, so its
// SessionStart says how to get lucid where lucid is missing, once a
// session, as a message to the person (installers.MissingCommand); every
// other hook then does nothing.

// PluginHookCommand is the command of the plugin's hook for event.
func PluginHookCommand(event string) string {
	if event == "SessionStart" {
		return installers.MissingCommand + "; exec lucid hook --user " + event
	}
	return UserHookCommand(event)
}

// PluginHooks is the plugin's hooks/hooks.json as a client of the
// installer: a test writes the file from it, so that the plugin registers
// the events, matchers and timeouts of lucid init's own.
var PluginHooks = &installers.Client{
	ID:          "claude",
	Name:        "Claude Code",
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     PluginHookCommand,
}

// readLoadedHooks reads a project's hook settings as they were when the
// client started (installers.ReadLoadedHooks); a test reads them as they
// are.
var readLoadedHooks = installers.ReadLoadedHooks
