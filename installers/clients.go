package installers

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/hooks"
)

// codexEvents are the events lucid registers in Codex CLI: those its
// adapter handles (client/codex). A tool event's matcher is a regular
// expression over tool_name: the shell tool is "Bash",
// apply_patch "apply_patch", and the lead's wait for a subagent
// "multi_agent_v1wait_agent" (fixtures/codex-0.169.0/NOTES.md), which
// PostToolUse takes so that the lead hears what its subagent recorded.
var codexEvents = []Event{
	{Name: hooks.SessionStart, Lucid: hooks.SessionStart, Timeout: 15 * time.Second},
	{Name: hooks.SubagentStart, Lucid: hooks.SubagentStart, Timeout: 15 * time.Second},
	{Name: hooks.UserPromptSubmit, Lucid: hooks.UserPromptSubmit, Timeout: 10 * time.Second},
	{Name: hooks.PreToolUse, Lucid: hooks.PreToolUse, Matcher: "Bash|apply_patch", Timeout: 10 * time.Second},
	{Name: hooks.PostToolUse, Lucid: hooks.PostToolUse, Matcher: "Bash|apply_patch|.*wait_agent", Timeout: 10 * time.Second},
	{Name: hooks.Stop, Lucid: hooks.Stop, Timeout: 10 * time.Second},
	{Name: hooks.SubagentStop, Lucid: hooks.SubagentStop, Timeout: 10 * time.Second},
	{Name: hooks.PreCompact, Lucid: hooks.PreCompact, Timeout: 10 * time.Second},
	{Name: hooks.SessionEnd, Lucid: hooks.SessionEnd, Timeout: 2 * time.Second}, // Codex's own default is 1 s
}

// Codex is Codex CLI (0.169.0): hooks in .codex/hooks.json, timeouts in
// seconds. Codex runs a hook only when it is trusted (codextrust.go).
var Codex = &Client{
	ID:          "codex",
	Name:        "Codex CLI",
	Settings:    CodexHooksName,
	Events:      codexEvents,
	TimeoutUnit: time.Second,
	Command:     clientCommand("codex"),
}

// CodexHooksName is Codex's project hooks file.
const CodexHooksName = ".codex/hooks.json"

// geminiTools are the tools of Gemini CLI 0.61.0 that write work-tree
// files. Gemini tests a matcher as an unanchored regular expression, hence
// the anchors: "replace" alone would match any tool with it in its name.
const geminiTools = "^(write_file|replace|run_shell_command)$"

// geminiEvents are the events lucid registers in Gemini CLI. A timed-out
// BeforeTool counts as no answer and the tool runs, so its timeout is far
// above the hooks' lock wait (hooks.lockBudget). SessionStart and the
// agent events take no matcher (Gemini compares one with the trigger).
var geminiEvents = []Event{
	{Name: "SessionStart", Lucid: hooks.SessionStart, Timeout: 15 * time.Second},
	{Name: "BeforeAgent", Lucid: hooks.UserPromptSubmit, Timeout: 10 * time.Second},
	{Name: "BeforeTool", Lucid: hooks.PreToolUse, Matcher: geminiTools, Timeout: 10 * time.Second},
	{Name: "AfterTool", Lucid: hooks.PostToolUse, Matcher: geminiTools, Timeout: 10 * time.Second},
	{Name: "AfterAgent", Lucid: hooks.Stop, Timeout: 10 * time.Second},
	{Name: "SessionEnd", Lucid: hooks.SessionEnd, Timeout: 2 * time.Second},
}

// Gemini is Gemini CLI (0.61.0): hooks in .gemini/settings.json, timeouts
// in milliseconds, each entry named so that hooksConfig.disabled can name
// it (and doctor can tell whether it does).
var Gemini = &Client{
	ID:          "gemini",
	Name:        "Gemini CLI",
	Settings:    GeminiSettingsName,
	Events:      geminiEvents,
	TimeoutUnit: time.Millisecond,
	Command:     clientCommand("gemini"),
	HookName:    GeminiHookName,
}

// GeminiSettingsName is Gemini's project settings file.
const GeminiSettingsName = ".gemini/settings.json"

// GeminiHookName is the name of lucid's Gemini entry for event.
func GeminiHookName(event string) string { return "lucid-" + event }

// clientCommand is HookCommand for a client other than Claude Code.
func clientCommand(id string) func(string) string {
	return func(event string) string {
		return "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client " + id + " " + event
	}
}

// Clients are the clients lucid sets itself up in, Claude Code first.
var Clients = []*Client{ClaudeCode, Codex, Gemini}

// ClientByID returns the client lucid init --client names id, or nil.
func ClientByID(id string) *Client {
	for _, c := range Clients {
		if c.ID == strings.ToLower(strings.TrimSpace(id)) {
			return c
		}
	}
	return nil
}

// UninstallAll removes what lucid init put into every client's files:
// Claude Code's (Uninstall), lucid's hooks in Codex's and Gemini's
// settings, and the trust lucid wrote for its Codex hooks.
func UninstallAll(repo *gitstore.Repo) ([]Change, error) {
	changes, err := Uninstall(repo)
	if err != nil {
		return nil, err
	}
	for _, step := range []func(*gitstore.Repo) ([]Change, error){Codex.UninstallHooks, UntrustCodex, Gemini.UninstallHooks} {
		ch, err := step(repo)
		if err != nil {
			return changes, err
		}
		changes = append(changes, ch...)
	}
	return changes, nil
}

// Detected are the clients other than Claude Code whose folder (.codex/,
// .gemini/) is at the work tree's top: plain lucid init sets them up too.
func Detected(repo *gitstore.Repo) []*Client {
	var out []*Client
	for _, c := range []*Client{Codex, Gemini} {
		if fi, err := os.Stat(repo.Abs(filepath.Dir(c.Settings))); err == nil && fi.IsDir() {
			out = append(out, c)
		}
	}
	return out
}

// CodexTrustAdvice is what lucid init says about trust in Codex, or ""
// when Codex trusts the project and every one of lucid's hooks.
func CodexTrustAdvice(repo *gitstore.Repo) string {
	project, hooks := checkCodexProject(repo), checkCodexTrust(repo)
	if project.OK && hooks.OK {
		return ""
	}
	cfg := CodexConfigPath()
	return "Codex CLI runs a project's hooks only when it trusts the project and each hook, and skips an untrusted or changed hook without a word. " +
		"Trust the project when codex first asks in " + repo.Top + " (or add [projects." + tomlString(repo.Top) + "] trust_level = \"trusted\" to " + cfg + "), " +
		"then trust lucid's hooks in codex's /hooks view, or run `lucid init --client codex --trust-codex`, which trusts lucid's own hooks, and nothing else, in " + cfg + ". " +
		"`lucid doctor` checks both."
}

// GeminiTrustAdvice is what lucid init says about Gemini's trust.
func GeminiTrustAdvice(repo *gitstore.Repo) string {
	var names []string
	for _, e := range Gemini.Events {
		names = append(names, GeminiHookName(e.Name))
	}
	s := "Gemini CLI runs project hooks only in a trusted workspace, and on its first run with them it warns once that it found new project hooks (" +
		strings.Join(names, ", ") + "): those are lucid's."
	if f := checkGeminiTrust(repo); !f.OK {
		s += " It does not trust this one yet: " + f.Fix + "."
	}
	return s
}
