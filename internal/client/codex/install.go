package codex

import (
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// events are the events lucid registers in Codex CLI: those its
// adapter handles (client/codex). A tool event's matcher is a regular
// expression over tool_name: the shell tool is "Bash",
// apply_patch "apply_patch", and the lead's wait for a subagent
// "multi_agent_v1wait_agent" (as Codex CLI 0.169.0 named it in the
// recorded payloads of testdata/payloads/codex-0.169.0), which
// PostToolUse takes so that the lead hears what its subagent recorded.
var events = []client.Event{
	{Name: client.SessionStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: client.SubagentStart, Lucid: client.SubagentStart, Timeout: 15 * time.Second},
	{Name: client.UserPromptSubmit, Lucid: client.UserPromptSubmit, Timeout: 10 * time.Second},
	{Name: client.PreToolUse, Lucid: client.PreToolUse, Matcher: "Bash|apply_patch", Timeout: 10 * time.Second},
	{Name: client.PostToolUse, Lucid: client.PostToolUse, Matcher: "Bash|apply_patch|.*wait_agent", Timeout: 10 * time.Second},
	{Name: client.Stop, Lucid: client.Stop, Timeout: 10 * time.Second},
	{Name: client.SubagentStop, Lucid: client.SubagentStop, Timeout: 10 * time.Second},
	{Name: client.PreCompact, Lucid: client.PreCompact, Timeout: 10 * time.Second},
	{Name: client.SessionEnd, Lucid: client.SessionEnd, Timeout: 2 * time.Second}, // Codex's own default is 1 s
}

// Hooks is Codex CLI (0.169.0): hooks in .codex/hooks.json, timeouts in
// seconds. Codex runs a hook only when it is trusted (trust.go).
var Hooks = &installers.Client{
	ID:          "codex",
	Name:        "Codex CLI",
	Settings:    HooksName,
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     installers.ClientCommand("codex"),
}

// HooksName is Codex's project hooks file.
const HooksName = ".codex/hooks.json"

// installer is lucid's set-up of Codex: its hooks, the trust Codex needs
// for each of them, and doctor's checks of its trust in the project and in
// each hook, and of lucid on its shells' PATH. Codex CLI runs a hook
// registered both for the user and the project twice, and one for the
// user only once trusted: lucid sets it up per repository.
var installer = &installers.Setup{
	Hooks:   Hooks,
	Trust:   Trust,
	Untrust: Untrust,
	Check: func(repo *gitstore.Repo) []setup.Finding {
		return []setup.Finding{Hooks.CheckRegistered(repo), checkCodexProject(repo), checkCodexTrust(repo), checkShellPath(Hooks)}
	},
	Advice:     advice,
	NotForUser: "Codex CLI runs a hook registered both for the user and the project twice, and one for the user only once trusted; lucid sets Codex up per repository (lucid init --client codex)",
}

// Setup is lucid's set-up of Codex.
func (Client) Setup() *installers.Setup { return installer }

// advice is what lucid init says about trust in Codex, or "" when Codex
// trusts the project and every one of lucid's hooks.
func advice(repo *gitstore.Repo) string {
	project, hooks := checkCodexProject(repo), checkCodexTrust(repo)
	if project.OK && hooks.OK {
		return ""
	}
	cfg := ConfigPath()
	return "Codex CLI runs a project's hooks only when it trusts the project and each hook, and skips an untrusted or changed hook without a word. " +
		"Trust the project when codex first asks in " + repo.Top + " (or add [projects." + tomlString(repo.Top) + "] trust_level = \"trusted\" to " + cfg + "), " +
		"then trust lucid's hooks in codex's /hooks view, or run `lucid init --client codex --trust-codex`, which trusts lucid's own hooks, and nothing else, in " + cfg + ". " +
		"`lucid doctor` checks both."
}
