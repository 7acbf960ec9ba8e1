package codex

import (
	"bytes"
	"os"
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
// command twice where both have it (seen with 0.169.0). So the plugin's
// hooks are lucid hook --client codex --user EVENT, which stand aside
// where lucid's own project entry for the event will run, and each event
// runs lucid once.

// PluginHookCommand is the command of the plugin's hook for event: lucid
// init's own run with --user, and at SessionStart the word on a missing
// lucid first.
func PluginHookCommand(event string) string {
	cmd := "exec lucid hook --client codex --user " + event
	if event == "SessionStart" {
		return installers.MissingCommand + "; " + cmd
	}
	return "command -v lucid >/dev/null 2>&1 || exit 0; " + cmd
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

// UserHookStandsAside reports whether a hook of the plugin leaves event to
// the project's lucid entry, which Codex runs too: the session's
// repository has it in .codex/hooks.json, as it had when Codex started
// (installers.ReadLoadedHooks), and Codex trusts the project and the entry
// as the file has it. An untrusted project entry is skipped by Codex
// without a word, so there the plugin's hook serves the call.
func (Client) UserHookStandsAside(event string) bool {
	wd, err := os.Getwd() // Codex runs a hook in the session's folder
	if err != nil {
		return false
	}
	repo, err := gitstore.Find(wd)
	if err != nil {
		return false
	}
	// The common case, no project entry, costs one read of a small file.
	b, err := readLoadedHooks(repo.Abs(HooksName))
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

// readLoadedHooks reads a project's hook settings as they were when the
// client started (installers.ReadLoadedHooks); a test reads them as they
// are.
var readLoadedHooks = installers.ReadLoadedHooks
