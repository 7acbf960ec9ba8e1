package gemini

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// geminiTools are the tools of Gemini CLI 0.61.0 that write work-tree
// files. Gemini tests a matcher as an unanchored regular expression, hence
// the anchors: "replace" alone would match any tool with it in its name.
const geminiTools = "^(" + WriteFile + "|" + Replace + "|" + ShellTool + ")$"

// events are the events lucid registers in Gemini CLI. A timed-out
// BeforeTool counts as no answer and the tool runs, so its timeout is far
// above the hooks' lock wait (hooks.lockBudget). SessionStart and the
// agent events take no matcher (Gemini compares one with the trigger).
var events = []client.Event{
	{Name: client.SessionStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: BeforeAgent, Lucid: client.UserPromptSubmit, Timeout: 10 * time.Second},
	{Name: BeforeTool, Lucid: client.PreToolUse, Matcher: geminiTools, Timeout: 10 * time.Second},
	{Name: AfterTool, Lucid: client.PostToolUse, Matcher: geminiTools, Timeout: 10 * time.Second},
	{Name: AfterAgent, Lucid: client.Stop, Timeout: 10 * time.Second},
	{Name: client.SessionEnd, Lucid: client.SessionEnd, Timeout: 2 * time.Second},
}

// Hooks is Gemini CLI (0.61.0): hooks in .gemini/settings.json, timeouts
// in milliseconds, each entry named so that hooksConfig.disabled can name
// it (and doctor can tell whether it does).
var Hooks = &installers.Client{
	ID:          "gemini",
	Name:        "Gemini CLI",
	Settings:    SettingsName,
	Events:      events,
	TimeoutUnit: time.Millisecond,
	Command:     installers.ClientCommand("gemini"),
	HookName:    installers.EntryName,
}

// SettingsName is Gemini's project settings file.
const SettingsName = ".gemini/settings.json"

// installer is lucid's set-up of Gemini: its hooks, and doctor's checks
// of what Gemini needs before it runs them: a trusted workspace, and hooks
// not turned off. In Gemini's user settings go its project entries as they
// are, which Gemini runs once where both are registered (seen with 0.61.0:
// of two hooks with one name and command it keeps the project's). Gemini,
// like Claude Code, runs a project's hooks only in a session started at the
// folder that holds them.
var installer = &installers.Setup{
	Hooks: Hooks,
	Check: func(repo *gitstore.Repo) []setup.Finding {
		return []setup.Finding{Hooks.CheckRegistered(repo), checkGeminiTrust(repo), checkGeminiEnabled(repo)}
	},
	Advice:       advice,
	UserSettings: func() string { return filepath.Join(geminiHome(), ".gemini", "settings.json") },
}

// Setup is lucid's set-up of Gemini.
func (Client) Setup() *installers.Setup { return installer }

// advice is what lucid init says about Gemini's trust.
func advice(repo *gitstore.Repo) string {
	var names []string
	for _, e := range Hooks.Events {
		names = append(names, Hooks.HookName(e.Name))
	}
	s := "Gemini CLI runs project hooks only in a trusted workspace, and on its first run with them it warns once that it found new project hooks (" +
		strings.Join(names, ", ") + "): those are lucid's."
	if f := checkGeminiTrust(repo); !f.OK {
		s += " It does not trust this one yet: " + f.Fix + "."
	}
	return s
}
