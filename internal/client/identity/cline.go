package identity

import (
	"github.com/lucid-dev/lucid/internal/client"
)

// Cline is Cline's CLI.
type Cline struct{}

// Name is its name on the command line.
func (Cline) Name() string { return "cline" }

// Title is Cline as its users know it.
func (Cline) Title() string { return "Cline" }

// AgentShell tells the commands Cline CLI 3.0.65 runs for its agents (the
// run_commands tool, /bin/bash -c) by CLINE_CONNECTOR_CLI_LAUNCH without
// CLINE_BUILD_ENV, which only its hooks get (seen with the real client).
// The shell names no session and no agent: lucid signs the commands
// itself.
func (Cline) AgentShell(getenv func(string) string) (client.Shell, bool) {
	if getenv("CLINE_CONNECTOR_CLI_LAUNCH") == "" || getenv("CLINE_BUILD_ENV") != "" {
		return client.Shell{}, false
	}
	return client.Shell{Client: "Cline"}, true
}

// OwnHook: Cline gives its hooks CLINE_BUILD_ENV beside the
// CLINE_CONNECTOR_CLI_LAUNCH its shells get too.
func (Cline) OwnHook(getenv func(string) string) (own, known bool) {
	return getenv("CLINE_CONNECTOR_CLI_LAUNCH") != "" && getenv("CLINE_BUILD_ENV") != "", true
}

// ShellVars: none. The shell names no agent; lucid commands carry the
// stamp (LUCID_AGENT), and without it they are refused.
func (Cline) ShellVars() []string { return nil }

// ClientProcess: Cline's Bun binary (cline, or the .cline npm links), or
// its node wrapper.
func (Cline) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "cline", ".cline")
}
