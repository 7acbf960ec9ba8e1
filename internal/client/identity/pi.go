package identity

import (
	"github.com/lucid-dev/lucid/internal/client"
)

// Pi is Pi, the coding agent (@mariozechner/pi-coding-agent, and its
// successor @earendil-works/pi-coding-agent).
type Pi struct{}

// Name is its name on the command line.
func (Pi) Name() string { return "pi" }

// Title is Pi as its users know it.
func (Pi) Title() string { return "Pi" }

// The variables lucid's Pi extension sets: for the commands of a Pi
// agent's bash tool, the agent's id (Pi's bash tool inherits Pi's own
// process.env, which the extension sets); for an oh-my-pi agent's, its id
// under a name of its own (omp passes it in the bash tool's env argument,
// as it reads no process.env the extension sets); for the extension's own
// lucid hook calls, a mark.
const (
	PiAgentVar  = "LUCID_PI_AGENT"
	OmpAgentVar = "LUCID_OMP_AGENT"
	PiHookVar   = "LUCID_PI_HOOK"
)

func piShell(getenv func(string) string, name, title string) (client.Shell, bool) {
	a := getenv(name)
	if a == "" || getenv(PiHookVar) != "" {
		return client.Shell{}, false
	}
	return client.Shell{Client: title, Agent: a}, true
}

// AgentShell tells a Pi agent's bash command by the agent's id, which the
// extension gives it and gives its own hook calls not. PI_CODING_AGENT,
// which Pi sets, tells nothing: its hooks inherit it too.
func (Pi) AgentShell(getenv func(string) string) (client.Shell, bool) {
	return piShell(getenv, PiAgentVar, "pi")
}

// OwnHook: the extension marks its hook calls.
func (Pi) OwnHook(getenv func(string) string) (own, known bool) {
	return getenv(PiHookVar) == "1", true
}

// ShellVars are the variables that name a Pi or omp agent: a line that
// sets one could speak for another agent.
func (Pi) ShellVars() []string { return []string{PiAgentVar, OmpAgentVar, PiHookVar} }

// ClientProcess: Pi's own program, or its package's cli.js run by node;
// oh-my-pi's package has the same folder name under another scope, which
// is not Pi's.
func (Pi) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "pi", "@mariozechner/pi-coding-agent", "@earendil-works/pi-coding-agent")
}

// Omp is oh-my-pi, a fork of Pi that runs the same extension.
type Omp struct{ Pi }

// Name is its name on the command line.
func (Omp) Name() string { return "omp" }

// Title is oh-my-pi as its users know it.
func (Omp) Title() string { return "oh-my-pi" }

// AgentShell tells an omp agent's bash command by the id the extension
// puts in the command's env argument.
func (Omp) AgentShell(getenv func(string) string) (client.Shell, bool) {
	return piShell(getenv, OmpAgentVar, "omp")
}

// ClientProcess: omp's own program, or its package's cli.js run by Bun.
func (Omp) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "omp", "@oh-my-pi/pi-coding-agent")
}
