package identity

import (
	"strings"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
)

// Codex is Codex CLI.
type Codex struct{}

// Name is its name on the command line.
func (Codex) Name() string { return "codex" }

// Title is Codex CLI as its users know it.
func (Codex) Title() string { return "Codex CLI" }

// AgentShell tells the commands Codex CLI 0.169.0 runs for an agent by
// CODEX_THREAD_ID, which names the agent's own thread (a subagent's id
// inside one) beside CODEX_SESSION_ID, the root session; its hooks get
// neither (seen with the real client). So a Codex agent is known by its
// shell alone, and its lucid commands are signed without a stamp.
func (Codex) AgentShell(getenv func(string) string) (client.Shell, bool) {
	thread := strings.TrimSpace(getenv("CODEX_THREAD_ID"))
	session := strings.TrimSpace(getenv("CODEX_SESSION_ID"))
	if thread == "" && session == "" {
		return client.Shell{}, false
	}
	if thread == session {
		thread = ""
	}
	sh := client.Shell{Client: "Codex CLI", Session: session}
	if session != "" {
		sh.Agent = agentstore.AgentID(session, thread)
	}
	return sh, true
}

// OwnHook: nothing in the environment of Codex's hooks names them (seen
// with 0.169.0: a hook gets no variable its shell lacks).
func (Codex) OwnHook(func(string) string) (own, known bool) { return false, false }

// ShellVars are those AgentShell reads: they alone name a Codex agent.
func (Codex) ShellVars() []string { return []string{"CODEX_THREAD_ID", "CODEX_SESSION_ID"} }

// ClientProcess: Codex's native program, codex (codex-x86_64-... where
// its npm package names it by the platform).
func (Codex) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "codex")
}
