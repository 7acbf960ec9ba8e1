package identity

import "github.com/lucid-dev/lucid/internal/client"

// Crush is Charm's Crush.
type Crush struct{}

// Name is its name on the command line.
func (Crush) Name() string { return "crush" }

// Title is Crush as its users know it.
func (Crush) Title() string { return "Crush" }

// AgentShell tells the commands Crush runs for an agent by CRUSH=1 and
// AGENT=crush, which its bash tool and its hooks both get; its hooks get
// CRUSH_EVENT too, which the shell lacks. The shell names neither the
// session nor the agent: lucid commands carry the stamp, which Crush
// applies (its PreToolUse takes a new tool input). (Seen in Crush's
// source, internal/shell and internal/hooks, and with the real client.)
func (Crush) AgentShell(getenv func(string) string) (client.Shell, bool) {
	if getenv("CRUSH") != "1" || getenv("AGENT") != "crush" || getenv("CRUSH_EVENT") != "" {
		return client.Shell{}, false
	}
	return client.Shell{Client: "Crush"}, true
}

// OwnHook: Crush gives its hooks CRUSH_EVENT, which its shell lacks.
func (Crush) OwnHook(getenv func(string) string) (own, known bool) {
	return getenv("CRUSH") == "1" && getenv("CRUSH_EVENT") != "", true
}

// ShellVars: none. The shell names no agent, so lucid commands are signed
// by the stamp alone, which no variable of the shell overrides.
func (Crush) ShellVars() []string { return nil }

// ClientProcess: Crush's own program, crush.
func (Crush) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "crush")
}
