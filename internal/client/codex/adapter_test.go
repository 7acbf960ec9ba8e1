package codex

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads Codex CLI 0.169.0 sent (recorded,
// paths moved to /home/dev/repo), and lucid's answers in the shapes Codex
// honours.

const version = "codex-0.169.0"

// recorded is a recorded payload of the client's version.
func recorded(t *testing.T, name string) []byte { return clienttest.Recorded(t, version, name) }

// withCommand is a recorded payload with tool_input.command replaced.
func withCommand(t *testing.T, name, command string) []byte {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(recorded(t, name), &p); err != nil {
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
	const repo = "/home/dev/repo"
	base := client.Input{Cwd: repo, PermissionMode: "bypassPermissions", Caps: client.GateLead | client.Unrecorded}
	with := func(f func(*client.Input)) client.Input {
		in := base
		f(&in)
		return in
	}
	for _, tc := range []struct {
		file, event string
		want        client.Input
	}{
		{"SessionStart-compact.json", "SessionStart", with(func(in *client.Input) {
			in.Event, in.SessionID, in.Source = "SessionStart", "01a23aa2-8c90-7531-8951-6750f7580a9c", "compact"
		})},
		// apply_patch names the files of its patch, made absolute.
		{"PreToolUse-apply_patch.json", "PreToolUse", with(func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName, in.Tool, in.Paths = "PreToolUse", "01a23a7d-ac6f-7493-b1f0-f59c6e21259d", "apply_patch", client.ToolEdit, []string{repo + "/a.txt"}
		})},
		// exec_command reaches hooks as Bash, its command line whole.
		{"PreToolUse-shell.json", "PreToolUse", with(func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName, in.Tool = "PreToolUse", "01a23a7d-ac6f-7493-b1f0-f59c6e21259d", "Bash", client.ToolShell
			in.Command = "env | sort > /home/dev/work/env.txt; echo SHELL-RAN"
		})},
		// A subagent's call: its own id, the root session's.
		{"PreToolUse-shell-in-subagent.json", "PreToolUse", with(func(in *client.Input) {
			in.Event, in.SessionID, in.AgentID, in.AgentType = "PreToolUse", "01a23a80-9c2d-7be1-968e-90ddcb1b071a", "01a23a80-9e3b-77c1-97f9-6fcd3877ae91", "default"
			in.ToolName, in.Tool, in.Command = "Bash", client.ToolShell, "env | sort > /home/dev/work/env-sub.txt; echo SUB-SHELL"
		})},
		// The lead waiting for its subagent gets its news back.
		{"PostToolUse-multi_agent_v1wait_agent.json", "PostToolUse", with(func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName, in.Tool = "PostToolUse", "01a23a80-9c2d-7be1-968e-90ddcb1b071a", "multi_agent_v1wait_agent", client.ToolAgent
		})},
		{"PreToolUse-spawn_agent.json", "PreToolUse", with(func(in *client.Input) {
			in.Event, in.SessionID, in.ToolName = "PreToolUse", "01a23a80-9c2d-7be1-968e-90ddcb1b071a", "spawn_agent"
		})},
		{"Stop-after-block.json", "Stop", with(func(in *client.Input) {
			in.Event, in.SessionID, in.StopHookActive = "Stop", "01a23a7e-2c06-7cc1-9586-163cdf6327db", true
		})},
	} {
		if got := decode(t, tc.event, recorded(t, tc.file)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, got, tc.want)
		}
	}
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
	if _, err := (Client{}).Decode("PreToolUse", []byte("[1]")); err == nil || !strings.HasPrefix(err.Error(), "payload is not a JSON object") {
		t.Errorf("a payload that is no object: %v", err)
	}
}

// lucid's answers in Claude Code's shape, which Codex honours: a deny in
// hookSpecificOutput, a block as the top-level decision, context as
// additionalContext; a signed command is never sent, since Codex takes a
// new input only with "allow".
func TestEncode(t *testing.T) {
	shell := decode(t, "PreToolUse", recorded(t, "PreToolUse-shell.json"))
	shell.ToolInput = []byte(`{"command":"lucid note x"}`)
	for _, tc := range []struct {
		name string
		in   client.Input
		out  client.Output
		want string
	}{
		{"deny", shell, client.Output{Deny: "lucid: a.txt is claimed"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lucid: a.txt is claimed"}}`},
		{"block at Stop", client.Input{Event: "Stop"}, client.Output{Block: "Before you stop: record"},
			`{"decision":"block","reason":"Before you stop: record"}`},
		{"context", client.Input{Event: "UserPromptSubmit"}, client.Output{Context: "lucid: 1 new log entry"},
			`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"lucid: 1 new log entry"}}`},
		{"signed command with context", shell, client.Output{Context: "news", Command: "LUCID_AGENT=x lucid note x", Permission: "allow", PermissionReason: "signed"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"news"}}`},
		{"signed command alone", shell, client.Output{Command: "LUCID_AGENT=x lucid note x", Permission: "allow"}, ""},
	} {
		b, line, code := Client{}.Encode(tc.in, &tc.out)
		want := tc.want
		if want != "" {
			want += "\n"
		}
		if string(b) != want || line != "" || code != 0 {
			t.Errorf("%s: %q, %q, exit %d\nwant %q", tc.name, b, line, code, want)
		}
	}
}

// Codex's shell names its agent (CODEX_THREAD_ID, beside the root session
// CODEX_SESSION_ID: the environments recorded in a lead's shell and a
// subagent's); its hooks are marked by nothing.
func TestShellAndHookEnvironments(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
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
