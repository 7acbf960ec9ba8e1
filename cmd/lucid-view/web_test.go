package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// lucid-view web is a person's command: an agent that runs it directly,
// not through lucid, is refused too, and nothing listens.
func TestWebRefusedInAgentShell(t *testing.T) {
	t.Setenv("AI_AGENT", "claude-code_2.1.332_agent")
	t.Setenv("CLAUDE_CODE_SESSION_ID", "30df32ba-0d45-4195-af71-803394f51561")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"web"}, &stdout, &stderr); code != 1 || stdout.Len() != 0 ||
		stderr.String() != "lucid web: a person's command, and this runs in a Claude Code agent's shell: ask the user to run it\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// An agent's lucid-view, signed by lucid's hook where its shell hid what
// it is, is refused as well.
func TestWebRefusedToSignedAgent(t *testing.T) {
	for _, k := range []string{"AI_AGENT", "CLAUDECODE", "GEMINI_CLI", "CODEX_THREAD_ID", "CODEX_SESSION_ID", "QWEN_CODE", "COPILOT_CLI"} {
		t.Setenv(k, "")
	}
	t.Setenv("LUCID_AGENT", "0b218250-bcad-4f28-bb25-013e7e946655")
	for _, name := range []string{"web", "watch"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{name}, &stdout, &stderr); code != 1 || stdout.Len() != 0 ||
			!strings.Contains(stderr.String(), "a person's command, and LUCID_AGENT=0b218250-bcad-4f28-bb25-013e7e946655 says an agent runs it") {
			t.Errorf("lucid %s: exit %d, stdout %q, stderr %q", name, code, stdout.String(), stderr.String())
		}
	}
}

func TestWebUsage(t *testing.T) {
	// A person's terminal, also when the suite runs in an agent's shell.
	for _, k := range []string{"AI_AGENT", "CLAUDECODE", "GEMINI_CLI", "CODEX_THREAD_ID", "CODEX_SESSION_ID", "QWEN_CODE", "COPILOT_CLI"} {
		t.Setenv(k, "")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"web", "--help"}, &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "lucid web [--addr HOST:PORT]") ||
		!strings.Contains(stdout.String(), "      --read-only ") {
		t.Errorf("--help: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	for _, args := range [][]string{{"web", "now"}, {"web", "--port", "8080"}} {
		stdout.Reset()
		stderr.Reset()
		if code := run(args, &stdout, &stderr); code != 2 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, code, stderr.String())
		}
	}
	// Outside a repository set up by lucid init.
	t.Chdir(gittest.Init(t))
	stderr.Reset()
	if code := run([]string{"web"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "lucid init") {
		t.Errorf("not set up: exit %d, stderr %q", code, stderr.String())
	}
}
