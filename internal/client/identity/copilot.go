package identity

import (
	"github.com/lucid-dev/lucid/internal/client"
)

// Copilot is GitHub Copilot CLI.
type Copilot struct{}

// Name is its name on the command line.
func (Copilot) Name() string { return "copilot" }

// Title is Copilot CLI as its users know it.
func (Copilot) Title() string { return "GitHub Copilot CLI" }

// AgentShell tells the commands Copilot CLI 1.0.102 runs for its agents
// (the bash tool) by COPILOT_CLI=1 without COPILOT_PROJECT_DIR, which
// only its hooks get. The shell's COPILOT_AGENT_SESSION_ID is the lead's
// session in the lead's shell but an internal id, neither the session nor
// the agent, in a subagent's (seen with the real client): it names no
// agent lucid knows, so lucid signs the commands itself.
func (Copilot) AgentShell(getenv func(string) string) (client.Shell, bool) {
	if getenv("COPILOT_CLI") != "1" || getenv("COPILOT_PROJECT_DIR") != "" {
		return client.Shell{}, false
	}
	return client.Shell{Client: "GitHub Copilot CLI"}, true
}

// OwnHook: Copilot gives its hooks COPILOT_PROJECT_DIR (and those of hook
// files COPILOT_HOOK_DIR).
func (Copilot) OwnHook(getenv func(string) string) (own, known bool) {
	return getenv("COPILOT_CLI") == "1" && getenv("COPILOT_PROJECT_DIR") != "", true
}

// ShellVars: none. The shell names no agent; lucid commands carry the
// stamp (LUCID_AGENT), which no variable of the shell overrides, and
// without it they are refused.
func (Copilot) ShellVars() []string { return nil }

// ClientProcess: Copilot CLI's copilot, its native copilot-linux-x64 and
// the like, or its package run by node.
func (Copilot) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "copilot")
}
