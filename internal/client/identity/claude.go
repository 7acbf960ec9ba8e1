package identity

import (
	"strings"

	"github.com/lucid-dev/lucid/internal/client"
)

// Claude is Claude Code, the default client.
type Claude struct{}

// Name is its name on the command line.
func (Claude) Name() string { return "claude" }

// Title is Claude Code as its users know it.
func (Claude) Title() string { return "Claude Code" }

// AgentShell tells the Bash tool's commands by AI_AGENT, which Claude Code
// 2.1.332 sets to claude-code_<version>_agent there and to ..._harness for
// its hooks; and, for a client without it, by CLAUDECODE=1 without
// CLAUDE_PROJECT_DIR, which only hooks get. The shell names the session
// (CLAUDE_CODE_SESSION_ID) but not which of its agents runs it: a
// subagent's shell names its lead's session. (All seen with the real
// client.) oh-my-pi sets CLAUDECODE=1 in its bash tool's commands too,
// beside its own OMPCODE=1: that shell is omp's.
func (Claude) AgentShell(getenv func(string) string) (client.Shell, bool) {
	ai := getenv("AI_AGENT")
	shell := strings.HasPrefix(ai, "claude-code") && strings.HasSuffix(ai, "_agent") ||
		ai == "" && getenv("CLAUDECODE") == "1" && getenv("CLAUDE_PROJECT_DIR") == "" && getenv("OMPCODE") == ""
	if !shell {
		return client.Shell{}, false
	}
	return client.Shell{Client: "Claude Code", Session: getenv("CLAUDE_CODE_SESSION_ID")}, true
}

// OwnHook: Claude Code gives its hooks AI_AGENT=claude-code_<version>_harness.
func (Claude) OwnHook(getenv func(string) string) (own, known bool) {
	ai := getenv("AI_AGENT")
	return strings.HasPrefix(ai, "claude-code") && strings.HasSuffix(ai, "_harness"), true
}

// ShellVars: none. The shell names no agent; lucid commands carry the
// stamp (LUCID_AGENT), which no variable of the shell overrides, and
// without it they are refused (a line that unsets CLAUDECODE to run
// claude inside is no forgery).
func (Claude) ShellVars() []string { return nil }

// ClientProcess: Claude Code's own program, claude (its native build), or
// the cli.js of its package run by node.
func (Claude) ClientProcess(name string, args []string) bool {
	return RunsProgram(name, args, "claude", "claude-code")
}

// Teammate reads a teammate's name in its agent team from the id Claude
// Code gives it as a subagent: an in-process teammate is
// "a<name>-<16 hex>" (aalpha-29065eaa7bbaa962), where a plain subagent is
// "a<17 hex>". It returns the name and the hex.
func (Claude) Teammate(subagent string) (name, hex string, ok bool) {
	i := strings.LastIndexByte(subagent, '-')
	if i < 2 || subagent[0] != 'a' || len(subagent)-i-1 != 16 {
		return "", "", false
	}
	hex = subagent[i+1:]
	for _, c := range hex {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", "", false
		}
	}
	return subagent[1:i], hex, true
}
