package crush

import (
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// writeTools are the tools whose calls the handler looks at: the edits
// (the claim check, edit awareness) and the shell (shell writes, signed
// lucid commands), and the agent tool, whose call carries the news. Crush
// tests a matcher as an unanchored regular expression, hence the anchors:
// "edit" alone would match multiedit.
const writeTools = Write + "|" + Edit + "|" + MultiEdit + "|" + Download + "|" + ReplaceSymbol + "|" + Bash + "|" + AgentTool

// events are the events lucid registers in Crush: PreToolUse, its only
// one. A timed-out hook lets the tool run, so its timeout is far above the
// hooks' lock wait.
var events = []client.Event{
	{Name: client.PreToolUse, Lucid: client.PreToolUse, Matcher: "^(" + writeTools + ")$", Timeout: 10 * time.Second},
}

// Hooks is Crush: its hooks in crush.json, each event's list the hooks
// themselves ({"name", "matcher", "command", "timeout"}, the timeout in
// seconds). Crush runs a command once where its user and project files
// both register it, so lucid's entry in both is one hook.
var Hooks = &installers.Client{
	ID:          "crush",
	Name:        "Crush",
	Settings:    SettingsName,
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     installers.ClientCommand("crush"),
	Flat:        true,
	FlatHook:    flatHook,
	FlatCommand: "command",
	Folders:     []string{".crush"},
}

// flatHook is lucid's entry for e in crush.json, named so that Crush's
// screen says whose hook ran.
func flatHook(e client.Event, command string) []byte {
	b, _ := installers.MarshalNoEscape(struct {
		Name    string `json:"name"`
		Matcher string `json:"matcher,omitempty"`
		Command string `json:"command"`
		Timeout int64  `json:"timeout"`
	}{installers.EntryName(e.Name), e.Matcher, command, int64(e.Timeout / time.Second)})
	return b
}

// SettingsName is Crush's project settings file. Crush also reads
// .crush.json, and merges both with the user's; lucid writes the one its
// documentation names.
const SettingsName = "crush.json"

// installer is lucid's set-up of Crush: its hooks, and doctor's check that
// they find lucid.
var installer = &installers.Setup{
	Hooks: Hooks,
	Check: func(repo *gitstore.Repo) []setup.Finding {
		return []setup.Finding{Hooks.CheckRegistered(repo), installers.CheckLucidOnPath(Hooks.ID, "Crush")}
	},
	UserSettings: userSettings,
}

// Setup is lucid's set-up of Crush.
func (Client) Setup() *installers.Setup { return installer }

// userSettings is Crush's user settings file, as Crush finds it:
// $CRUSH_GLOBAL_CONFIG/crush.json, else $XDG_CONFIG_HOME/crush/crush.json,
// else ~/.config/crush/crush.json (on every system).
func userSettings() string {
	if d := os.Getenv("CRUSH_GLOBAL_CONFIG"); d != "" {
		return filepath.Join(d, "crush.json")
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "crush", "crush.json")
	}
	h, _ := os.UserHomeDir()
	return filepath.Join(h, ".config", "crush", "crush.json")
}
