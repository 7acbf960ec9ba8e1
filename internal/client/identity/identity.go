// Package identity is how lucid knows each client it serves without its
// adapter: its names, the marks it leaves in the environment of its
// agents' shells and of its hooks, its program among the processes a
// command runs under, and how its ids name an agent team's teammates. So
// lucid-view can tell an agent from a person, and label agents as lucid
// does (Naming), without linking the adapters (their shell analysis and
// installers); each adapter embeds its client's identity.
package identity

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/proctree"
)

// all are the clients, in the order of the registry (clients.All), the
// default first.
var all = []client.Named{Claude{}, Codex{}, Gemini{}, Copilot{}, Qwen{}, Opencode{}, Kilo{}, Pi{}, Omp{}, Cline{}, Crush{}}

// All returns every client's identity, the default first.
func All() []client.Named { return all }

// Naming is how the clients name their agents, which present's labels
// follow: the default client's agents by their role, every other client's
// by its name; teammates by their names in their teams, as the clients
// whose agents form teams read them from their ids.
func Naming() present.Naming {
	return present.Naming{Default: all[0].Name(), Teammates: teammate}
}

// teammate asks each client whose agents form teams whether subagent is
// one of its teammates' ids.
func teammate(subagent string) (name, tag string, ok bool) {
	for _, c := range all {
		if t, teams := c.(interface {
			Teammate(string) (string, string, bool)
		}); teams {
			if name, tag, ok = t.Teammate(subagent); ok {
				return name, tag, true
			}
		}
	}
	return "", "", false
}

// AgentShell is the agent's shell the environment getenv belongs to,
// asked of each of clients; ok is false in a person's terminal or a hook.
func AgentShell(clients []client.Named, getenv func(string) string) (client.Shell, bool) {
	for _, c := range clients {
		if r, ok := c.(client.ShellReader); ok {
			if sh, ok := r.AgentShell(getenv); ok {
				return sh, true
			}
		}
	}
	return client.Shell{}, false
}

// RunsUnder is the agent's shell the running process is, or descends
// from: its own environment says (getenv), or, where a line erased that
// (env -i, env -u, a wrapper that clears it), the environment one of the
// processes above it was started with, which no line of the agent's can
// change. ok is false in a person's terminal; also where the system's
// processes cannot be read (proctree), the running environment alone
// decides.
func RunsUnder(clients []client.Named, getenv func(string) string) (client.Shell, bool) {
	if sh, ok := AgentShell(clients, getenv); ok {
		return sh, true
	}
	procs, _ := proctree.Ancestors()
	for _, p := range procs {
		if p.Env != nil {
			if sh, ok := AgentShell(clients, p.Getenv); ok {
				return sh, true
			}
		}
		// The agent's shell may have replaced itself by the command (bash
		// runs a line's last command in its own process), with its
		// environment changed: the client is then the parent.
		for _, c := range clients {
			if r, ok := c.(client.ProcessReader); ok && r.ClientProcess(p.Name, p.Args) {
				return client.Shell{Client: client.TitleOf(c)}, true
			}
		}
	}
	return client.Shell{}, false
}

// RunsProgram reports whether a process whose program is name, started
// with args, runs one of programs: as the program itself, or as the
// script an interpreter (node) runs, named by its path's last part or by
// a folder of it (the package it comes from).
func RunsProgram(name string, args []string, programs ...string) bool {
	for _, p := range programs {
		if name == p || strings.HasPrefix(name, p+"-") {
			return true
		}
		for _, a := range args[min(len(args), 1):min(len(args), 3)] {
			if slash := strings.ReplaceAll(a, `\`, "/"); strings.HasSuffix(slash, "/"+p) || strings.Contains(slash, "/"+p+"/") || a == p {
				return true
			}
		}
	}
	return false
}

// PersonRuns says why the running process is not a person's command, or
// "": it runs in or under an agent's shell (RunsUnder), or it was
// detached from whatever started it (an orphan: setsid, a double fork),
// which a person's terminal never does and an agent's line would do to
// hide its shell. name is the command, for the reason.
func PersonRuns(clients []client.Named, getenv func(string) string, name string) string {
	if sh, ok := RunsUnder(clients, getenv); ok {
		return fmt.Sprintf("lucid %s is a person's command, and this runs in %s agent's shell: ask the user to run it", name, AClient(sh.Client))
	}
	if proctree.Orphan() {
		return fmt.Sprintf("lucid %s is a person's command, and this process was detached from what started it (setsid, or a parent that exited), so lucid cannot tell that a person runs it: run it from your terminal", name)
	}
	return ""
}

// ForgedHook is why `lucid hook` of c, one of clients, run with the
// environment getenv is not a hook of c but a command an agent ran in its
// shell (a payload with another agent's id piped into lucid hook
// SessionEnd would end that agent's claims, into PreToolUse move its
// cursor), or "".
func ForgedHook(c client.Named, clients []client.Named, getenv func(string) string) string {
	r, ok := c.(client.ShellReader)
	if !ok {
		return ""
	}
	own, known := r.OwnHook(getenv)
	if own {
		return ""
	}
	sh, ok := r.AgentShell(getenv)
	if !ok && known {
		// A client that marks its hooks, unmarked here: another
		// client's agent shell runs this.
		sh, ok = AgentShell(clients, getenv)
	}
	// A client that marks nothing (Codex CLI) may itself run inside another
	// client's agent shell, whose environment its hooks inherit: only its
	// own shell's marks tell.
	if !ok {
		return ""
	}
	return fmt.Sprintf("lucid hook runs here in %s agent's shell, not as a hook of its client: refused, since a hook speaks for the agent its payload names. Hooks are the client's to run; record with lucid fact|decision|note, end your claims with lucid release", AClient(sh.Client))
}

// AClient is a client's name with its article, as a sentence says it: a
// codex agent, an omp agent.
func AClient(name string) string {
	if name != "" && strings.ContainsRune("aeiouAEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
