package identity

import (
	"github.com/lucid-dev/lucid/internal/client"
)

// Opencode is opencode.
type Opencode struct{}

// Name is its name on the command line.
func (Opencode) Name() string { return "opencode" }

// Title is opencode as its users know it.
func (Opencode) Title() string { return "opencode" }

// The variables lucid's opencode plugin sets: for the commands of an
// agent's bash tool, the agent's id; for its own lucid hook calls, a mark.
const (
	OpencodeAgentVar = "LUCID_OPENCODE_AGENT"
	OpencodeHookVar  = "LUCID_OPENCODE_HOOK"
)

// AgentShell tells an agent's bash command by the agent's id, which the
// plugin gives it (shell.env) and gives its own hook calls not.
func (Opencode) AgentShell(getenv func(string) string) (client.Shell, bool) {
	a := getenv(OpencodeAgentVar)
	if a == "" || getenv(OpencodeHookVar) != "" {
		return client.Shell{}, false
	}
	return client.Shell{Client: "opencode", Agent: a}, true
}

// OwnHook: the plugin marks its hook calls.
func (Opencode) OwnHook(getenv func(string) string) (own, known bool) {
	return getenv(OpencodeHookVar) == "1", true
}

// ShellVars are the variables that name an opencode agent: a line that
// sets one could speak for another agent.
func (Opencode) ShellVars() []string { return []string{OpencodeAgentVar, OpencodeHookVar} }

// ClientProcess: opencode's own program (a native build), or its package
// run by node.
func (Opencode) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "opencode", "opencode-ai")
}

// Kilo is Kilo Code's CLI, a fork of opencode that runs the same plugin:
// its agents' shells and its hooks are opencode's, its program its own.
type Kilo struct{ Opencode }

// Name is its name on the command line.
func (Kilo) Name() string { return "kilo" }

// Title is Kilo Code as its users know it.
func (Kilo) Title() string { return "Kilo Code" }

// ClientProcess: Kilo Code CLI's own program, kilo, not opencode's.
func (Kilo) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "kilo", "kilocode")
}
