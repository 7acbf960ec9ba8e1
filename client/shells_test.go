package client_test

import (
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/client/claude"
	"github.com/lucid-dev/lucid/client/codex"
	"github.com/lucid-dev/lucid/client/copilot"
	"github.com/lucid-dev/lucid/client/gemini"
	"github.com/lucid-dev/lucid/hooks"
)

var all = []hooks.Client{claude.Client{}, codex.Client{}, gemini.Client{},
	copilot.Client{},
}

// Each client tells its agents' shells from its hooks by the environment
// it gives them (seen with the real clients): `lucid hook` run in an agent's
// shell is refused, a real hook is not, also when the client itself runs
// inside another client's agent shell and inherits its environment.
func TestForgedHook(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	claudeShell := []string{"AI_AGENT", "claude-code_2.1.332_agent", "CLAUDECODE", "1", "CLAUDE_CODE_SESSION_ID", "s1"}
	for _, tc := range []struct {
		name   string
		client hooks.Client
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
		{"Copilot's hook", copilot.Client{}, env("COPILOT_CLI", "1", "COPILOT_PROJECT_DIR", "/r", "COPILOT_HOOK_DIR", "/r/.github/hooks"), false},
		{"Claude Code's entry run by Copilot", claude.Client{}, env("COPILOT_CLI", "1", "COPILOT_PROJECT_DIR", "/r", "CLAUDE_PROJECT_DIR", "/r"), false},
		{"lucid hook --client copilot in a Copilot shell", copilot.Client{}, env("COPILOT_CLI", "1", "COPILOT_AGENT_SESSION_ID", "s"), true},
		{"lucid hook in a Copilot shell", claude.Client{}, env("COPILOT_CLI", "1", "COPILOT_AGENT_SESSION_ID", "s"), true},
	} {
		if got := hooks.ForgedHook(tc.client, all, tc.env) != ""; got != tc.forged {
			t.Errorf("%s: forged = %v, want %v", tc.name, got, tc.forged)
		}
	}
}

// What an agent's shell says of its agent: Codex names it, Claude Code
// only its session, Gemini nothing.
func TestAgentShell(t *testing.T) {
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	sh, ok := hooks.AgentShell(all, get(map[string]string{"CODEX_SESSION_ID": "root", "CODEX_THREAD_ID": "sub"}))
	if !ok || sh.Agent != "root/sub" {
		t.Errorf("a Codex subagent's shell: %+v %v, want agent root/sub", sh, ok)
	}
	sh, ok = hooks.AgentShell(all, get(map[string]string{"AI_AGENT": "claude-code_2.1.332_agent", "CLAUDE_CODE_SESSION_ID": "s1"}))
	if !ok || sh.Agent != "" || sh.Session != "s1" {
		t.Errorf("Claude Code's Bash tool: %+v %v, want session s1 and no agent", sh, ok)
	}
	if _, ok := hooks.AgentShell(all, get(map[string]string{"GEMINI_CLI": "1"})); !ok {
		t.Error("Gemini's shell is not an agent's shell")
	}
	if _, ok := hooks.AgentShell(all, get(map[string]string{})); ok {
		t.Error("a person's terminal is an agent's shell")
	}
}

// Every event a client registers has a handler: `lucid hook E` refuses an
// event it does not know.
func TestRegisteredEventsAreHandled(t *testing.T) {
	for _, c := range all {
		for _, e := range c.Events() {
			if !slices.Contains(hooks.Events, e.Lucid) || e.Timeout <= 0 {
				t.Errorf("%s registers %s as %q (timeout %v): hooks.Events lacks it", c.Name(), e.Name, e.Lucid, e.Timeout)
			}
		}
	}
}
