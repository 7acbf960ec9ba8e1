package claude

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/jsonread"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Claude Code 2.1.332 tells a PostToolUse hook what a Bash command changed
// (tool_response.bashEditDiff) only in the permission modes bypassPermissions
// and auto, unless the user turned it on for every mode: the setting
// bashEditDiffEnabled in the user's (or the managed policy's) settings, or
// CLAUDE_CODE_BASH_EDIT_DIFF=1 in its environment (both seen with the real
// client; a project's settings cannot turn it on). And it skips the diff of a
// plain git whole-tree command (git checkout BRANCH, stash, pull...), which
// changes the most files. Where no diff will come, lucid watches the claimed
// files itself.

// diffComes reports whether Claude Code will record what command changed.
func diffComes(mode, command string) bool {
	if skipsDiff(command) {
		return false
	}
	switch mode {
	case "bypassPermissions", "auto":
		return true
	}
	return DiffTurnedOn()
}

// DiffTurnedOn reports whether the user turned Claude Code's record of a
// shell command's changes on for every permission mode.
func DiffTurnedOn() bool {
	switch strings.ToLower(os.Getenv("CLAUDE_CODE_BASH_EDIT_DIFF")) {
	case "1", "true", "yes":
		return true
	}
	for _, path := range []string{UserSettings(), "/etc/claude-code/managed-settings.json"} {
		if path != "" && settingOn(path) {
			return true
		}
	}
	return false
}

// settingOn reports whether the settings file at path sets
// bashEditDiffEnabled to true.
func settingOn(path string) bool {
	b, err := gitstore.ReadFile(path, gitstore.MaxSettings)
	if err != nil {
		return false
	}
	on := false
	jsonread.Fields(b, map[string]any{"bashEditDiffEnabled": &on})
	return on
}

// skipsDiff reports whether Claude Code skips the diff of command: a line
// that is, whole, an optional sudo, git, one of its whole-tree commands,
// and up to 16 plain words (letters, digits and ._/@~^, then also -; none
// starting with -). It is Claude Code's own test, as its binary holds it,
// written out instead of as a regular expression that every hook would
// compile.
func skipsDiff(command string) bool {
	body := strings.TrimRight(command, " \t\n\r\v\f")
	if strings.ContainsAny(body, "\n\r\v\f") {
		return false
	}
	words := strings.FieldsFunc(body, func(r rune) bool { return r == ' ' || r == '\t' })
	if len(words) > 0 && words[0] == "sudo" {
		words = words[1:]
	}
	if len(words) < 2 || words[0] != "git" {
		return false
	}
	switch words[1] {
	case "checkout", "switch", "stash", "pull", "merge", "rebase", "reset", "restore", "clean", "cherry-pick", "revert":
	default:
		return false
	}
	if len(words) > 2+16 {
		return false
	}
	for _, w := range words[2:] {
		for i := 0; i < len(w); i++ {
			c := w[i]
			plain := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._/@~^", c) >= 0
			if !plain && (i == 0 || c != '-') {
				return false
			}
		}
	}
	return true
}

// DiffFinding is lucid doctor's line on Claude Code's record of what a
// shell command changed: lucid works without it, but its own watch of the
// claimed files cannot tell whose a change was while other agents are at
// work, so a violation can go unreported.
func DiffFinding() setup.Finding {
	f := setup.Finding{Check: "Claude Code's record of shell changes", OK: true}
	if DiffTurnedOn() {
		f.Detail = "on in every permission mode: a shell command's changes to claimed files are caught exactly"
		return f
	}
	f.Detail = `on only in bypassPermissions and auto modes; in default and acceptEdits lucid watches the claimed files itself, ` +
		`which misses a change made while another agent works. To turn it on in every mode, add "bashEditDiffEnabled": true to ` +
		UserSettings() + ` (or set CLAUDE_CODE_BASH_EDIT_DIFF=1 where claude starts)`
	return f
}

// SessionsFinding is lucid doctor's line on sessions that start outside
// the folder holding .claude/settings.json: Claude Code runs none of the
// project's hooks for them, so only lucid's hooks in the user's settings
// guard them (lucid init --user).
func SessionsFinding(userSetUp bool) setup.Finding {
	f := setup.Finding{Check: "sessions started elsewhere", OK: true}
	if userSetUp {
		f.Detail = "lucid's hooks in " + UserSettings() + " guard sessions started in any folder"
		return f
	}
	f.Detail = "a Claude Code session started in a subfolder of this work tree, in a repository nested in it, or above it runs none of this repository's hooks, " +
		"so lucid does not guard it: run `lucid init --user` to guard every session on this machine"
	return f
}

// checkClient is lucid doctor's checks of Claude Code itself, where lucid
// is set up for it: its record of a shell command's changes, and where
// its sessions run lucid's hooks.
func checkClient() []setup.Finding {
	sessions := SessionsFinding(installers.UserSetUp(userHooks, UserSettings()))
	return []setup.Finding{DiffFinding(), PluginFinding(sessions, pluginEnabled(UserSettings()))}
}

// pluginEnabled reports whether the user's settings enable lucid's Claude
// Code plugin (enabledPlugins names "lucid@lucid"), which registers lucid's
// hooks for every session as lucid init --user does.
func pluginEnabled(settings string) bool {
	b, err := gitstore.ReadFile(settings, gitstore.MaxSettings)
	if err != nil {
		return false
	}
	var s struct {
		EnabledPlugins map[string]bool `json:"enabledPlugins"`
	}
	return json.Unmarshal(b, &s) == nil && s.EnabledPlugins[PluginID]
}

// PluginID is lucid's plugin as Claude Code names it: the plugin lucid of
// the marketplace lucid.
const PluginID = "lucid@lucid"

// PluginFinding is sessions (SessionsFinding) where lucid's plugin may be
// enabled too: the plugin guards every session as the user's hooks do, and
// with both, each event runs lucid twice.
func PluginFinding(sessions setup.Finding, plugin bool) setup.Finding {
	switch {
	case !plugin:
		return sessions
	case strings.HasPrefix(sessions.Detail, "lucid's hooks in "):
		sessions.OK = false
		sessions.Detail = "lucid's hooks are in " + UserSettings() + " and lucid's plugin (" + PluginID + ") is enabled too, so each event of every session runs lucid twice"
		sessions.Fix = "keep one: `lucid uninstall --user`, or `claude plugin uninstall " + PluginID + "`"
		return sessions
	default:
		sessions.Detail = "lucid's Claude Code plugin (" + PluginID + ") guards sessions started in any folder"
		return sessions
	}
}

// UserHookStandsAside reports whether a hook of Claude Code's user
// settings (lucid init --user) leaves event to the project's hooks: the
// folder the session started in registers lucid's own, which then serve
// it.
func (Client) UserHookStandsAside(event string) bool {
	dir := os.Getenv("CLAUDE_PROJECT_DIR")
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return ProjectHooks(dir, event)
}
