package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
)

// Lucid's Codex CLI plugin (plugins/codex, listed in
// .agents/plugins/marketplace.json, which Codex reads before
// .claude-plugin/marketplace.json) registers lucid init's hooks in its
// hooks/hooks.json, and Codex 0.169.0 runs them in every session, once
// each is trusted like any other hook (its "Hooks need review" prompt, or
// /hooks). A plugin installs without lucid itself, so its SessionStart
// tells the person how to get lucid where lucid is missing (a
// systemMessage, which Codex's terminal UI shows as the hook's output and
// the model never reads); every other hook then does nothing.
//
// Codex runs a project's .codex/hooks.json beside a plugin's, the same
// command twice where both have it (seen with 0.169.0), and it sets
// PLUGIN_ROOT for a plugin's hooks alone. So the plugin's hook stands
// aside where lucid's own project entry for the event will run, and each
// event runs lucid once.

// PluginHookCommand is the command of the plugin's hook for event: lucid
// init's own, and at SessionStart the word on a missing lucid first.
func PluginHookCommand(event string) string {
	if event == "SessionStart" {
		return installers.MissingCommand + "; exec lucid hook --client codex " + event
	}
	return Hooks.Command(event)
}

// PluginHooks is the plugin's hooks/hooks.json as a client of the
// installer: a test writes the file from it, so that the plugin registers
// the events, matchers and timeouts of lucid init's own.
var PluginHooks = &installers.Client{
	ID:          "codex",
	Name:        "Codex CLI",
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     PluginHookCommand,
}

// PluginHookStandsAside reports whether this hook call is the plugin's
// (Codex gave it a PLUGIN_ROOT that holds a Codex plugin) and the
// project's lucid entry for event runs too: the session's repository has
// it in .codex/hooks.json, and Codex trusts the project and the entry as
// the file has it now. An untrusted project entry is skipped by Codex
// without a word, so there the plugin's hook serves the call. Outside a
// plugin's call it costs one lookup in the environment.
func (Client) PluginHookStandsAside(event string, getenv func(string) string) bool {
	root := getenv("PLUGIN_ROOT")
	if root == "" {
		return false
	}
	if _, err := os.Stat(filepath.Join(root, ".codex-plugin", "plugin.json")); err != nil {
		return false
	}
	wd, err := os.Getwd() // Codex runs a hook in the session's folder
	if err != nil {
		return false
	}
	repo, err := gitstore.Find(wd)
	if err != nil {
		return false
	}
	// The common case, no project entry, costs one read of a small file.
	b, err := gitstore.ReadFile(repo.Abs(HooksName), gitstore.MaxSettings)
	if err != nil || !bytes.Contains(b, []byte("lucid hook --client codex "+event+`"`)) {
		return false
	}
	return projectEntryRuns(repo, event)
}

// projectEntryRuns reports whether Codex runs lucid's entry for event in
// the repository's .codex/hooks.json: it trusts the project, and the
// entry with its hash as the file has it now.
func projectEntryRuns(repo *gitstore.Repo, event string) bool {
	if !checkCodexProject(repo).OK {
		return false
	}
	entries, err := codexEntries(repo)
	if err != nil {
		return false
	}
	cfg, err := readCodexConfig(ConfigPath())
	if err != nil {
		return false
	}
	for _, e := range entries {
		if h, ok := cfg.trust(e.key); e.event == event && ok && h == e.hash {
			return true
		}
	}
	return false
}
