package codex

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads Codex CLI 0.169.0 sent (recorded,
// paths moved to /home/dev/repo), and lucid's answers in the shapes Codex
// honours.

const version = "codex-0.169.0"

var adapter = clienttest.Adapter{Client: Client{}, Version: version}

// withCommand is a recorded payload with tool_input.command replaced.
func withCommand(t *testing.T, name, command string) []byte {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(adapter.Recorded(t, name), &p); err != nil {
		t.Fatal(err)
	}
	p["tool_input"].(map[string]any)["command"] = command
	b, _ := json.Marshal(p)
	return b
}

// decode decodes a payload of event.
func decode(t *testing.T, event string, b []byte) client.Input {
	t.Helper()
	in, err := Client{}.Decode(event, b)
	if err != nil {
		t.Fatalf("%s: %v", event, err)
	}
	in.ToolInput = nil
	return in
}

// What lucid reads of each kind of payload. Every Codex call is a lead's
// for the stop gate and says nothing of what a command changed.
func TestDecodeRecorded(t *testing.T) {
	saved := windows
	windows = false // the recorded payloads are Linux's
	t.Cleanup(func() { windows = saved })
	const repo = "/home/dev/repo"
	base := client.Input{Cwd: repo, PermissionMode: "bypassPermissions", Caps: client.GateLead | client.Unrecorded}
	adapter.TestDecode(t, []clienttest.Decoding{
		{File: "SessionStart-compact.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.SessionID, in.Source = "SessionStart", "01a23aa2-8c90-7531-8951-6750f7580a9c", "compact"
		})},
		// apply_patch names the files of its patch, made absolute.
		{File: "PreToolUse-apply_patch.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName, in.Tool, in.Paths = "PreToolUse", "01a23a7d-ac6f-7493-b1f0-f59c6e21259d", "apply_patch", client.ToolEdit, []string{repo + "/a.txt"}
		})},
		// exec_command reaches hooks as Bash, its command line whole.
		{File: "PreToolUse-shell.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName, in.Tool = "PreToolUse", "01a23a7d-ac6f-7493-b1f0-f59c6e21259d", "Bash", client.ToolShell
			in.Command = "env | sort > /home/dev/work/env.txt; echo SHELL-RAN"
		})},
		// A subagent's call: its own id, the root session's.
		{File: "PreToolUse-shell-in-subagent.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.SessionID, in.AgentID, in.AgentType = "PreToolUse", "01a23a80-9c2d-7be1-968e-90ddcb1b071a", "01a23a80-9e3b-77c1-97f9-6fcd3877ae91", "default"
			in.ToolName, in.Tool, in.Command = "Bash", client.ToolShell, "env | sort > /home/dev/work/env-sub.txt; echo SUB-SHELL"
		})},
		// The lead waiting for its subagent gets its news back.
		{File: "PostToolUse-multi_agent_v1wait_agent.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName, in.Tool = "PostToolUse", "01a23a80-9c2d-7be1-968e-90ddcb1b071a", "multi_agent_v1wait_agent", client.ToolAgent
		})},
		{File: "PreToolUse-spawn_agent.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName = "PreToolUse", "01a23a80-9c2d-7be1-968e-90ddcb1b071a", "spawn_agent"
		})},
		{File: "Stop-after-block.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.SessionID, in.StopHookActive = "Stop", "01a23a7e-2c06-7cc1-9586-163cdf6327db", true
		})},
		{Payload: "[1]", Event: "PreToolUse", Err: "payload is not a JSON object"},
	})
}

// A patch names every file it writes, a moved file's both names, also
// when it cannot be read whole; a patch run through the shell names its
// files too.
func TestPatchPaths(t *testing.T) {
	const repo = "/home/dev/repo"
	for _, tc := range []struct {
		file, command string
		want          []string
	}{
		{"PreToolUse-apply_patch.json", "*** Begin Patch\n*** Update File: docs/x.md\n*** Move to: src/x.md\n@@\n-x\n+y\n*** End Patch\n", []string{repo + "/docs/x.md", repo + "/src/x.md"}},
		{"PreToolUse-apply_patch.json", "*** Begin Patch\n*** Add File: docs/new.md\n+new\n*** Delete File: old.md\n*** End Patch\n", []string{repo + "/docs/new.md", repo + "/old.md"}},
		{"PreToolUse-apply_patch.json", "*** Begin Patch\n*** Update File: src/a.go\n@@ garbage", []string{repo + "/src/a.go"}},
		{"PreToolUse-shell.json", "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: src/a.go\n*** End Patch\nEOF", []string{repo + "/src/a.go"}},
		{"PreToolUse-shell.json", "echo no patch > out.txt", nil},
	} {
		in := decode(t, "PreToolUse", withCommand(t, tc.file, tc.command))
		if !slices.Equal(in.Paths, tc.want) {
			t.Errorf("%q: paths %q, want %q", tc.command, in.Paths, tc.want)
		}
	}
}

// lucid's answers in Claude Code's shape, which Codex honours: a deny in
// hookSpecificOutput, a block as the top-level decision, context as
// additionalContext; a signed command is never sent, since Codex takes a
// new input only with "allow".
func TestEncode(t *testing.T) {
	shell := decode(t, "PreToolUse", adapter.Recorded(t, "PreToolUse-shell.json"))
	shell.ToolInput = []byte(`{"command":"lucid note x"}`)
	adapter.TestEncode(t, []clienttest.Encoding{
		{Name: "deny", In: shell, Out: client.Output{Deny: "lucid: a.txt is claimed"},
			Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lucid: a.txt is claimed"}}`},
		{Name: "block at Stop", In: client.Input{Event: "Stop"}, Out: client.Output{Block: "Before you stop: record"},
			Want: `{"decision":"block","reason":"Before you stop: record"}`},
		{Name: "context", In: client.Input{Event: "UserPromptSubmit"}, Out: client.Output{Context: "lucid: 1 new log entry"},
			Want: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"lucid: 1 new log entry"}}`},
		{Name: "signed command with context", In: shell, Out: client.Output{Context: "news", Command: "LUCID_AGENT=x lucid note x", Permission: "allow", PermissionReason: "signed"},
			Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"news"}}`},
		{Name: "signed command alone", In: shell, Out: client.Output{Command: "LUCID_AGENT=x lucid note x", Permission: "allow"}, Want: ""},
	})
}

// Codex's shell names its agent (CODEX_THREAD_ID, beside the root session
// CODEX_SESSION_ID: the environments recorded in a lead's shell and a
// subagent's); its hooks are marked by nothing.
func TestShellAndHookEnvironments(t *testing.T) {
	env := clienttest.Env
	c := Client{}
	lead := env("CODEX_SESSION_ID", "01a23a7e-ddd6-7a01-a74c-c206832377c4", "CODEX_THREAD_ID", "01a23a7e-ddd6-7a01-a74c-c206832377c4", "CODEX_CI", "1")
	if sh, ok := c.AgentShell(lead); !ok || sh != (client.Shell{Client: "Codex CLI", Agent: "01a23a7e-ddd6-7a01-a74c-c206832377c4", Session: "01a23a7e-ddd6-7a01-a74c-c206832377c4"}) {
		t.Errorf("a lead's shell: %+v %v", sh, ok)
	}
	sub := env("CODEX_SESSION_ID", "01a23a80-9c2d-7be1-968e-90ddcb1b071a", "CODEX_THREAD_ID", "01a23a80-9e3b-77c1-97f9-6fcd3877ae91")
	if sh, ok := c.AgentShell(sub); !ok || sh.Agent != "01a23a80-9c2d-7be1-968e-90ddcb1b071a/01a23a80-9e3b-77c1-97f9-6fcd3877ae91" {
		t.Errorf("a subagent's shell: %+v %v", sh, ok)
	}
	if sh, ok := c.AgentShell(env("CODEX_THREAD_ID", "t")); !ok || sh.Agent != "" {
		t.Errorf("a shell naming its thread alone: %+v %v", sh, ok)
	}
	hook := env("CODEX_HOME", "/home/dev/.codex")
	if _, ok := c.AgentShell(hook); ok {
		t.Error("a hook taken for an agent's shell")
	}
	if own, known := c.OwnHook(hook); own || known {
		t.Errorf("Codex's hooks marked: %v %v", own, known)
	}
}

// The events lucid registers in Codex are lucid's own names, each one a
// handler knows.
func TestEvents(t *testing.T) {
	c := Client{}
	if c.Name() != "codex" {
		t.Errorf("Name %q", c.Name())
	}
	for _, e := range c.Events() {
		if !slices.Contains(client.Events, e.Name) || e.Lucid != e.Name {
			t.Errorf("%s is registered in Codex (as %s) but client.Events lacks it", e.Name, e.Lucid)
		}
	}
	if slices.Contains(client.EventNames(c.Events()), "TaskCompleted") {
		t.Error("TaskCompleted is Claude Code's")
	}
}

// On Windows Codex runs the Bash tool's line through PowerShell
// (-NoProfile -Command), so lucid reads it as PowerShell there, and as
// bash elsewhere; apply_patch is read the same everywhere.
func TestPowerShellOnWindows(t *testing.T) {
	saved := windows
	t.Cleanup(func() { windows = saved })
	for _, on := range []bool{false, true} {
		windows = on
		shell := decode(t, "PreToolUse", adapter.Recorded(t, "PreToolUse-shell.json"))
		if shell.Tool != client.ToolShell || shell.Caps.Has(client.PowerShell) != on {
			t.Errorf("windows %v: the shell's line is PowerShell's: %v, want %v", on, shell.Caps.Has(client.PowerShell), on)
		}
		patch := decode(t, "PreToolUse", adapter.Recorded(t, "PreToolUse-apply_patch.json"))
		if patch.Caps.Has(client.PowerShell) {
			t.Errorf("windows %v: apply_patch read as PowerShell", on)
		}
	}
}
