package gemini

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/client"

	"github.com/lucid-dev/lucid/gitstore"
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
	HookName:    HookName,
}

// SettingsName is Gemini's project settings file.
const SettingsName = ".gemini/settings.json"

// HookName is the name of lucid's Gemini entry for event.
func HookName(event string) string { return "lucid-" + event }

// Hooks is Gemini's settings, as the installer edits them.
func (Client) Hooks() *installers.Client { return Hooks }

// Install registers lucid's hooks in .gemini/settings.json.
func (Client) Install(repo *gitstore.Repo, _ installers.Options) ([]setup.Change, error) {
	return Hooks.InstallHooks(repo)
}

// Uninstall removes lucid's hooks.
func (Client) Uninstall(repo *gitstore.Repo) ([]setup.Change, error) {
	return Hooks.UninstallHooks(repo)
}

// Check checks lucid's hooks and what Gemini needs before it runs them:
// a trusted workspace, and hooks not turned off.
func (Client) Check(repo *gitstore.Repo) []setup.Finding {
	return []setup.Finding{
		Hooks.CheckHooks(repo, Hooks.ID+" hooks", "lucid's hooks are not in "+Hooks.Settings, "run `lucid init --client "+Hooks.ID+"`"),
		checkGeminiTrust(repo), checkGeminiEnabled(repo),
	}
}

// CheckClient: doctor's checks of the client are all in Check.
func (Client) CheckClient() []setup.Finding { return nil }

// DoctorFiles: lucid reads no file of the client's beside its hooks.
func (Client) DoctorFiles() []string { return nil }

// User is lucid's hooks in Gemini's user settings: its project entries as
// they are, which Gemini runs once where both are registered (seen with
// 0.61.0: of two hooks with one name and command it keeps the
// project's). Gemini, like Claude Code, runs a project's hooks only in a
// session started at the folder that holds them.
func (Client) User() (*installers.Client, string, string) {
	return Hooks, filepath.Join(geminiHome(), ".gemini", "settings.json"), ""
}

// Advice is what lucid init says about Gemini's trust.
func (Client) Advice(repo *gitstore.Repo) string {
	var names []string
	for _, e := range Hooks.Events {
		names = append(names, HookName(e.Name))
	}
	s := "Gemini CLI runs project hooks only in a trusted workspace, and on its first run with them it warns once that it found new project hooks (" +
		strings.Join(names, ", ") + "): those are lucid's."
	if f := checkGeminiTrust(repo); !f.OK {
		s += " It does not trust this one yet: " + f.Fix + "."
	}
	return s
}
