package identity

import (
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
)

// Qwen is Qwen Code.
type Qwen struct{}

// Name is its name on the command line.
func (Qwen) Name() string { return "qwen" }

// Title is Qwen Code as its users know it.
func (Qwen) Title() string { return "Qwen Code" }

// AgentShell tells the commands Qwen Code 0.24.4 runs for an agent by
// QWEN_CODE=1, which its hooks lack (they get QWEN_PROJECT_DIR instead).
// The shell names the session (QWEN_CODE_SESSION_ID) and the agent
// (QWEN_CODE_AGENT_ID, empty for the lead, the subagent's id inside one):
// a Qwen agent is known by its shell alone, and its lucid commands are
// signed without a stamp. (Seen with the real client.)
func (Qwen) AgentShell(getenv func(string) string) (client.Shell, bool) {
	if getenv("QWEN_CODE") != "1" || getenv("QWEN_PROJECT_DIR") != "" {
		return client.Shell{}, false
	}
	sh := client.Shell{Client: "Qwen Code", Session: getenv("QWEN_CODE_SESSION_ID")}
	if sh.Session != "" {
		sh.Agent = agentstore.AgentID(sh.Session, getenv("QWEN_CODE_AGENT_ID"))
	}
	return sh, true
}

// OwnHook: Qwen Code gives its hooks QWEN_PROJECT_DIR (and, for hooks
// written for those clients, CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR
// too), which its shell lacks.
func (Qwen) OwnHook(getenv func(string) string) (own, known bool) {
	return getenv("QWEN_PROJECT_DIR") != "", true
}

// ShellVars are those AgentShell and OwnHook read: they alone name a Qwen
// agent.
func (Qwen) ShellVars() []string {
	return []string{"QWEN_CODE", "QWEN_PROJECT_DIR", "QWEN_CODE_SESSION_ID", "QWEN_CODE_AGENT_ID"}
}

// ClientProcess: node running Qwen Code's qwen script (or its package,
// qwen-code).
func (Qwen) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "qwen", "qwen-code")
}
