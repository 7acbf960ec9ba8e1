package qwen

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads Qwen Code 0.24.4 sent (recorded, paths
// moved to /home/dev/repo), and lucid's answers in the shapes Qwen
// honours.

const version = "qwen-code-0.24.4"

var adapter = clienttest.Adapter{Client: Client{}, Version: version}

// What lucid reads of each kind of payload: the session and, inside a
// subagent, its agent id; the write tools' paths and the shell's command;
// PreToolUse and SubagentStart mute; the news after a tool for a subagent
// only (the lead hears it at the UserPromptSubmit before each model call);
// a UserPromptSubmit with no submitted prompt of the user's is no prompt.
func TestDecodeRecorded(t *testing.T) {
	const repo = "/home/dev/repo"
	lead := client.Input{SessionID: "120986e0-ffe9-4430-ad9f-6f564d2191cf", Cwd: repo, PermissionMode: "yolo", Caps: client.GateLead | client.Unrecorded}
	sub := lead
	sub.SessionID, sub.AgentID = "c0a260ad-7c2b-42d8-a824-edbd971260af", "general-purpose-call_001"
	sub.Caps |= client.NewsAfter
	adapter.TestDecode(t, []clienttest.Decoding{
		{File: "SessionStart-startup.json", Want: clienttest.With(lead, func(in *client.Input) { in.Event, in.Source = "SessionStart", "startup" })},
		{File: "SessionStart-compact.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.Source = "43aaa0c9-1411-47fd-b017-7d63d3184f3b", "SessionStart", "compact"
		})},
		{File: "UserPromptSubmit-first.json", Want: clienttest.With(lead, func(in *client.Input) { in.Event = "UserPromptSubmit" })},
		{File: "UserPromptSubmit-after-tool-result.json", Want: clienttest.With(lead, func(in *client.Input) { in.Event, in.Caps = "UserPromptSubmit", in.Caps|client.NoPrompt })},
		{File: "UserPromptSubmit-after-stop-block.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.SessionID, in.Event = "37968836-11da-4485-94d2-9155292c41a1", "UserPromptSubmit"
			in.Caps |= client.NoPrompt
		})},
		{File: "PreToolUse-write_file.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "write_file", client.ToolEdit, []string{repo + "/new.txt"}
			in.Caps |= client.Mute
		})},
		{File: "PreToolUse-edit.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "edit", client.ToolEdit, []string{repo + "/notes.txt"}
			in.Caps |= client.Mute
		})},
		{File: "PreToolUse-run_shell_command.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PreToolUse", "run_shell_command", client.ToolShell
			in.Caps |= client.Mute
			in.Command = "env > /home/dev/repo/env.txt; echo shell-ran"
		})},
		{File: "PreToolUse-monitor-via-tool_call.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = "1c5716ff-615e-45b0-8a2d-1368b5c7d8b4", "PreToolUse", "monitor", client.ToolShell
			in.Caps |= client.Mute
			in.Command = "echo mon > /home/dev/repo/mon.txt"
		})},
		{File: "PreToolUse-write_file-subagent.json", Want: clienttest.With(sub, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "write_file", client.ToolEdit, []string{repo + "/sub.txt"}
			in.Caps |= client.Mute
		})},
		// The memory agent acts with the lead's ids; it writes outside
		// the work tree.
		{File: "PreToolUse-write_file-memory-agent.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = "ab49a7d4-3b2e-476b-9efc-255b850bdd52", "PreToolUse", "write_file", client.ToolEdit
			in.Caps |= client.Mute
			in.Paths = []string{"/home/dev/home/.qwen/memories/note.md"}
		})},
		{File: "PostToolUse-write_file.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PostToolUse", "write_file", client.ToolEdit, []string{repo + "/new.txt"}
			in.Caps |= client.WarnAfter
		})},
		{File: "PostToolUse-run_shell_command-subagent.json", Want: clienttest.With(sub, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PostToolUse", "run_shell_command", client.ToolShell
			in.Caps |= client.WarnAfter
			in.Command = "env > /home/dev/repo/env-sub.txt; echo sub-shell"
		})},
		{File: "PostToolUse-agent-foreground.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = sub.SessionID, "PostToolUse", "agent", client.ToolAgent
			in.Caps |= client.WarnAfter
		})},
		{File: "SubagentStart.json", Want: clienttest.With(sub, func(in *client.Input) {
			in.Event, in.AgentType, in.Caps = "SubagentStart", "general-purpose", in.Caps|client.Mute
		})},
		{File: "SubagentStop-after-block.json", Want: clienttest.With(sub, func(in *client.Input) {
			in.Event, in.AgentType, in.StopHookActive = "SubagentStop", "general-purpose", true
		})},
		{File: "Stop.json", Want: clienttest.With(lead, func(in *client.Input) { in.Event = "Stop" })},
		{File: "Stop-after-block.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.StopHookActive = "37968836-11da-4485-94d2-9155292c41a1", "Stop", true
		})},
		{Payload: "{", Event: "PreToolUse", Err: "payload is not a JSON object"},
	})
}

// lucid's answers in the forms Qwen honours: a deny in hookSpecificOutput,
// whose reason the model reads as the tool's result; a stop's block as a
// top-level decision; context in hookSpecificOutput, never at a mute
// event; no replaced input, which Qwen ignores.
func TestEncode(t *testing.T) {
	pre := adapter.Decode(t, "PreToolUse-run_shell_command.json")
	adapter.TestEncode(t, []clienttest.Encoding{
		{Name: "deny", In: pre, Out: client.Output{Deny: "lucid: a.txt is claimed"},
			Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lucid: a.txt is claimed"}}`},
		{Name: "block at Stop", In: adapter.Decode(t, "Stop.json"), Out: client.Output{Block: "Before you stop: record"}, Want: `{"decision":"block","reason":"Before you stop: record"}`},
		{Name: "block at SubagentStop", In: adapter.Decode(t, "SubagentStop.json"), Out: client.Output{Block: "Before you stop: record"}, Want: `{"decision":"block","reason":"Before you stop: record"}`},
		{Name: "context at SessionStart", In: adapter.Decode(t, "SessionStart-startup.json"), Out: client.Output{Context: "# lucid: digest"},
			Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"# lucid: digest"}}`},
		{Name: "context at UserPromptSubmit", In: adapter.Decode(t, "UserPromptSubmit-after-tool-result.json"), Out: client.Output{Context: "news"},
			Want: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"news"}}`},
		{Name: "context at PostToolUse", In: adapter.Decode(t, "PostToolUse-run_shell_command-subagent.json"), Out: client.Output{Context: "news"},
			Want: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"news"}}`},
		{Name: "context at a mute PreToolUse", In: pre, Out: client.Output{Context: "news"}, Want: ``},
		{Name: "context at a mute SubagentStart", In: adapter.Decode(t, "SubagentStart.json"), Out: client.Output{Context: "# lucid: digest"}, Want: ``},
		{Name: "a signed command", In: pre, Out: client.Output{Command: "LUCID_AGENT=x lucid note y", Permission: "allow"}, Want: ``},
	})
}

// The write tools' paths as Qwen gives them (absolute), and as a relative
// one would be read; the shell's folder; input Qwen would refuse.
func TestWrites(t *testing.T) {
	const cwd = "/r"
	for _, tc := range []struct {
		tool, input string
		want        []string
	}{
		{WriteFile, `{"file_path":"/r/a.go","content":"x"}`, []string{"/r/a.go"}},
		{Edit, `{"file_path":"b.go","old_string":"x","new_string":"y"}`, []string{"/r/b.go"}},
		{Replace, `{"file_path":"/r/c.go"}`, []string{"/r/c.go"}},
		{NotebookEdit, `{"notebook_path":"/r/n.ipynb","file_path":"/r/not.go"}`, []string{"/r/n.ipynb"}},
		{ShellTool, `{"command":"echo x > out.txt","directory":"sub"}`, []string{"/r/sub/out.txt"}},
		{Monitor, `{"command":"echo x > /r/m.txt"}`, []string{"/r/m.txt"}},
		{WriteFile, `{"file_path":7}`, nil},
		{WriteFile, `[1]`, nil},
		{"read_file", `{"file_path":"/r/a.go"}`, nil},
	} {
		var got []string
		for _, w := range Writes(tc.tool, []byte(tc.input), cwd) {
			got = append(got, w.Path)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %q, want %q", tc.tool, tc.input, got, tc.want)
		}
	}
	if command, dir, ok := ShellCommand([]byte(`{"command":"ls","directory":"/elsewhere"}`), cwd); !ok || command != "ls" || dir != "/elsewhere" {
		t.Errorf("ShellCommand: %q %q %v", command, dir, ok)
	}
}

// Every event lucid registers is one Qwen Code names, with Qwen's name as
// lucid's; PostToolBatch, which would carry the news a second time, is
// not among them; the tool matchers are anchored.
func TestEvents(t *testing.T) {
	for _, e := range events {
		if e.Name != e.Lucid {
			t.Errorf("%s registered as lucid's %s", e.Name, e.Lucid)
		}
		if e.Name == "PostToolBatch" {
			t.Error("PostToolBatch is registered")
		}
		if e.Matcher != "" && (!strings.HasPrefix(e.Matcher, "^(") || !strings.HasSuffix(e.Matcher, ")$")) {
			t.Errorf("%s: matcher %q is not anchored", e.Name, e.Matcher)
		}
	}
}
