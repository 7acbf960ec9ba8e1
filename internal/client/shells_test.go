package client_test

import (
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/claude"
	"github.com/lucid-dev/lucid/internal/client/codex"
	"github.com/lucid-dev/lucid/internal/client/copilot"
	"github.com/lucid-dev/lucid/internal/client/crush"
	"github.com/lucid-dev/lucid/internal/client/gemini"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/client/qwen"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

var all = []client.Client{claude.Client{}, codex.Client{}, gemini.Client{},
	copilot.Client{}, qwen.Client{}, crush.Client{},
}

// named is all as identity takes them.
func named() []client.Named {
	out := make([]client.Named, len(all))
	for i, c := range all {
		out[i] = c
	}
	return out
}

// Each client tells its agents' shells from its hooks by the environment
// it gives them (seen with the real clients): `lucid hook` run in an agent's
// shell is refused, a real hook is not, also when the client itself runs
// inside another client's agent shell and inherits its environment.
func TestForgedHook(t *testing.T) {
	env := clienttest.Env
	claudeShell := []string{"AI_AGENT", "claude-code_2.1.332_agent", "CLAUDECODE", "1", "CLAUDE_CODE_SESSION_ID", "s1"}
	qwenHook := []string{"QWEN_PROJECT_DIR", "/r", "CLAUDE_PROJECT_DIR", "/r", "GEMINI_PROJECT_DIR", "/r", "QWEN_CODE_SESSION_ID", "q"}
	// Crush gives its bash tool and its hooks CRUSH=1, AGENT=crush and
	// AI_AGENT=crush, its hooks CRUSH_EVENT and CRUSH_SESSION_ID too.
	crushShell := []string{"CRUSH", "1", "AGENT", "crush", "AI_AGENT", "crush"}
	crushHook := append([]string{"CRUSH_EVENT", "PreToolUse", "CRUSH_SESSION_ID", "s", "CRUSH_TOOL_NAME", "bash"}, crushShell...)
	qwenShell := []string{"QWEN_CODE", "1", "QWEN_CODE_SESSION_ID", "q", "QWEN_CODE_AGENT_ID", "", "QWEN_CODE_PROJECT_DIR", "/home/.qwen/projects/-r"}
	for _, tc := range []struct {
		name   string
		client client.Client
		env    func(string) string
		forged bool
	}{
		{"Claude Code's hook", claude.Client{}, env("AI_AGENT", "claude-code_2.1.332_harness", "CLAUDECODE", "1", "CLAUDE_PROJECT_DIR", "/r"), false},
		{"a person's terminal", claude.Client{}, env(), false},
		{"lucid hook in Claude Code's Bash tool", claude.Client{}, env(claudeShell...), true},
		{"lucid hook in Claude Code's Bash tool, an older client", claude.Client{}, env("CLAUDECODE", "1"), true},
		{"lucid hook in a Codex shell", claude.Client{}, env("CODEX_THREAD_ID", "t", "CODEX_SESSION_ID", "t"), true},
		{"lucid hook --client codex in a Codex shell", codex.Client{}, env("CODEX_THREAD_ID", "t", "CODEX_SESSION_ID", "t"), true},
		{"Codex's hook", codex.Client{}, env("CODEX_HOME", "/h"), false},
		{"Codex's hook, codex run from Claude Code's Bash tool", codex.Client{}, env(claudeShell...), false},
		{"Gemini's hook", gemini.Client{}, env("GEMINI_PROJECT_DIR", "/r", "GEMINI_SESSION_ID", "g"), false},
		{"Gemini's hook, gemini run from Claude Code's Bash tool", gemini.Client{}, env(append(claudeShell, "GEMINI_PROJECT_DIR", "/r")...), false},
		{"lucid hook --client gemini in a Gemini shell", gemini.Client{}, env("GEMINI_CLI", "1"), true},
		{"lucid hook --client gemini in Claude Code's Bash tool", gemini.Client{}, env(claudeShell...), true},
		// Qwen Code gives its hooks CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR
		// too, its shell QWEN_CODE=1 and neither.
		{"Qwen's hook", qwen.Client{}, env(append(qwenHook, "QWEN_CODE_AGENT_ID", "")...), false},
		{"Qwen's hook, qwen run from Claude Code's Bash tool", qwen.Client{}, env(append(claudeShell, qwenHook...)...), false},
		{"lucid hook --client qwen in a Qwen shell", qwen.Client{}, env(qwenShell...), true},
		{"lucid hook in a Qwen shell", claude.Client{}, env(qwenShell...), true},
		{"lucid hook --client gemini in a Qwen shell", gemini.Client{}, env(qwenShell...), true},
		{"lucid hook --client qwen in Claude Code's Bash tool", qwen.Client{}, env(claudeShell...), true},
		{"lucid hook --client qwen in a Gemini shell", qwen.Client{}, env("GEMINI_CLI", "1"), true},
		{"Copilot's hook", copilot.Client{}, env("COPILOT_CLI", "1", "COPILOT_PROJECT_DIR", "/r", "COPILOT_HOOK_DIR", "/r/.github/hooks"), false},
		{"Claude Code's entry run by Copilot", claude.Client{}, env("COPILOT_CLI", "1", "COPILOT_PROJECT_DIR", "/r", "CLAUDE_PROJECT_DIR", "/r"), false},
		{"lucid hook --client copilot in a Copilot shell", copilot.Client{}, env("COPILOT_CLI", "1", "COPILOT_AGENT_SESSION_ID", "s"), true},
		{"lucid hook in a Copilot shell", claude.Client{}, env("COPILOT_CLI", "1", "COPILOT_AGENT_SESSION_ID", "s"), true},
		{"Crush's hook", crush.Client{}, env(crushHook...), false},
		{"Crush's hook, crush run from Claude Code's Bash tool", crush.Client{}, env(append(claudeShell, crushHook...)...), false},
		{"lucid hook --client crush in a Crush shell", crush.Client{}, env(crushShell...), true},
		{"lucid hook in a Crush shell", claude.Client{}, env(crushShell...), true},
		{"lucid hook --client crush in Claude Code's Bash tool", crush.Client{}, env(claudeShell...), true},
	} {
		if got := identity.ForgedHook(tc.client, named(), tc.env) != ""; got != tc.forged {
			t.Errorf("%s: forged = %v, want %v", tc.name, got, tc.forged)
		}
	}
}

// What an agent's shell says of its agent: Codex names it, Claude Code
// only its session, Gemini nothing.
func TestAgentShell(t *testing.T) {
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	sh, ok := identity.AgentShell(named(), get(map[string]string{"CODEX_SESSION_ID": "root", "CODEX_THREAD_ID": "sub"}))
	if !ok || sh.Agent != "root/sub" {
		t.Errorf("a Codex subagent's shell: %+v %v, want agent root/sub", sh, ok)
	}
	sh, ok = identity.AgentShell(named(), get(map[string]string{"AI_AGENT": "claude-code_2.1.332_agent", "CLAUDE_CODE_SESSION_ID": "s1"}))
	if !ok || sh.Agent != "" || sh.Session != "s1" {
		t.Errorf("Claude Code's Bash tool: %+v %v, want session s1 and no agent", sh, ok)
	}
	// omp 18.2.3's bash tool sets CLAUDECODE=1 beside its own OMPCODE=1.
	sh, ok = identity.AgentShell(identity.All(), get(map[string]string{"AGENT": "1", "CLAUDECODE": "1", "OMPCODE": "1", "LUCID_OMP_AGENT": "s/c"}))
	if !ok || sh.Agent != "s/c" || sh.Client != "omp" {
		t.Errorf("omp's bash tool: %+v %v, want omp's agent s/c", sh, ok)
	}
	if sh, ok := identity.AgentShell(identity.All(), get(map[string]string{"AGENT": "1", "CLAUDECODE": "1", "OMPCODE": "1"})); ok {
		t.Errorf("omp's bash tool, unsigned, is read as %+v", sh)
	}
	sh, ok = identity.AgentShell(named(), get(map[string]string{"QWEN_CODE": "1", "QWEN_CODE_SESSION_ID": "q", "QWEN_CODE_AGENT_ID": "general-purpose-call_001"}))
	if !ok || sh.Agent != "q/general-purpose-call_001" || sh.Client != "Qwen Code" {
		t.Errorf("a Qwen subagent's shell: %+v %v, want agent q/general-purpose-call_001", sh, ok)
	}
	sh, ok = identity.AgentShell(named(), get(map[string]string{"QWEN_CODE": "1", "QWEN_CODE_SESSION_ID": "q", "QWEN_CODE_AGENT_ID": ""}))
	if !ok || sh.Agent != "q" {
		t.Errorf("a Qwen lead's shell: %+v %v, want agent q", sh, ok)
	}
	if sh, ok := identity.AgentShell(named(), get(map[string]string{"QWEN_PROJECT_DIR": "/r", "CLAUDE_PROJECT_DIR": "/r", "GEMINI_PROJECT_DIR": "/r", "QWEN_CODE_SESSION_ID": "q"})); ok {
		t.Errorf("Qwen's hook read as %s's agent shell", sh.Client)
	}
	sh, ok = identity.AgentShell(named(), get(map[string]string{"CRUSH": "1", "AGENT": "crush", "AI_AGENT": "crush"}))
	if !ok || sh.Client != "Crush" || sh.Agent != "" || sh.Session != "" {
		t.Errorf("Crush's bash tool: %+v %v, want Crush, naming no one", sh, ok)
	}
	if sh, ok := identity.AgentShell(named(), get(map[string]string{"CRUSH": "1", "AGENT": "crush", "CRUSH_EVENT": "PreToolUse"})); ok {
		t.Errorf("Crush's hook read as %s's agent shell", sh.Client)
	}
	if _, ok := identity.AgentShell(named(), get(map[string]string{"GEMINI_CLI": "1"})); !ok {
		t.Error("Gemini's shell is not an agent's shell")
	}
	if _, ok := identity.AgentShell(named(), get(map[string]string{})); ok {
		t.Error("a person's terminal is an agent's shell")
	}
}

// Every event a client registers has a handler: `lucid hook E` refuses an
// event it does not know.
func TestRegisteredEventsAreHandled(t *testing.T) {
	for _, c := range all {
		for _, e := range c.Events() {
			if !slices.Contains(client.Events, e.Lucid) || e.Timeout <= 0 {
				t.Errorf("%s registers %s as %q (timeout %v): client.Events lacks it", c.Name(), e.Name, e.Lucid, e.Timeout)
			}
		}
	}
}
