package identity

import (
	"github.com/lucid-dev/lucid/internal/client"
)

// Gemini is Gemini CLI.
type Gemini struct{}

// Name is its name on the command line.
func (Gemini) Name() string { return "gemini" }

// Title is Gemini CLI as its users know it.
func (Gemini) Title() string { return "Gemini CLI" }

// AgentShell tells the commands Gemini CLI 0.61.0 runs for its agent
// (run_shell_command) by GEMINI_CLI=1; its hooks get GEMINI_PROJECT_DIR and
// GEMINI_SESSION_ID instead. The shell names no session (seen with the real
// client).
func (Gemini) AgentShell(getenv func(string) string) (client.Shell, bool) {
	if getenv("GEMINI_CLI") != "1" || getenv("GEMINI_PROJECT_DIR") != "" {
		return client.Shell{}, false
	}
	return client.Shell{Client: "Gemini CLI"}, true
}

// OwnHook: Gemini CLI gives its hooks GEMINI_PROJECT_DIR.
func (Gemini) OwnHook(getenv func(string) string) (own, known bool) {
	return getenv("GEMINI_PROJECT_DIR") != "", true
}

// ShellVars: none. The shell names no agent; lucid commands carry the
// stamp (LUCID_AGENT), which no variable of the shell overrides, and
// without it they are refused.
func (Gemini) ShellVars() []string { return nil }

// ClientProcess: node running Gemini CLI's gemini script (or its package,
// gemini-cli).
func (Gemini) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "gemini", "gemini-cli")
}
