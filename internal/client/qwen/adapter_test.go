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

// recorded is a recorded payload of the client's version.
func recorded(t *testing.T, name string) []byte { return clienttest.Recorded(t, version, name) }

// decode decodes a recorded payload of its event (the name's first word).
func decode(t *testing.T, name string) client.Input {
	t.Helper()
	return clienttest.Decode(t, Client{}, version, "", name)
}

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
	with := func(in client.Input, f func(*client.Input)) client.Input {
		f(&in)
		return in
	}
	for _, tc := range []struct {
		file string
		want client.Input
	}{
		{"SessionStart-startup.json", with(lead, func(in *client.Input) { in.Event, in.Source = "SessionStart", "startup" })},
		{"SessionStart-compact.json", with(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.Source = "43aaa0c9-1411-47fd-b017-7d63d3184f3b", "SessionStart", "compact"
		})},
		{"UserPromptSubmit-first.json", with(lead, func(in *client.Input) { in.Event = "UserPromptSubmit" })},
		{"UserPromptSubmit-after-tool-result.json", with(lead, func(in *client.Input) { in.Event, in.Caps = "UserPromptSubmit", in.Caps|client.NoPrompt })},
		{"UserPromptSubmit-after-stop-block.json", with(lead, func(in *client.Input) {
			in.SessionID, in.Event = "37968836-11da-4485-94d2-9155292c41a1", "UserPromptSubmit"
			in.Caps |= client.NoPrompt
		})},
		{"PreToolUse-write_file.json", with(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "write_file", client.ToolEdit, []string{repo + "/new.txt"}
			in.Caps |= client.Mute
		})},
		{"PreToolUse-edit.json", with(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "edit", client.ToolEdit, []string{repo + "/notes.txt"}
			in.Caps |= client.Mute
		})},
		{"PreToolUse-run_shell_command.json", with(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PreToolUse", "run_shell_command", client.ToolShell
			in.Caps |= client.Mute
			in.Command = "env > /home/dev/repo/env.txt; echo shell-ran"
		})},
		{"PreToolUse-monitor-via-tool_call.json", with(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = "1c5716ff-615e-45b0-8a2d-1368b5c7d8b4", "PreToolUse", "monitor", client.ToolShell
			in.Caps |= client.Mute
			in.Command = "echo mon > /home/dev/repo/mon.txt"
		})},
		{"PreToolUse-write_file-subagent.json", with(sub, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "write_file", client.ToolEdit, []string{repo + "/sub.txt"}
			in.Caps |= client.Mute
		})},
		// The memory agent acts with the lead's ids; it writes outside
		// the work tree.
		{"PreToolUse-write_file-memory-agent.json", with(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = "ab49a7d4-3b2e-476b-9efc-255b850bdd52", "PreToolUse", "write_file", client.ToolEdit
			in.Caps |= client.Mute
			in.Paths = []string{"/home/dev/home/.qwen/memories/note.md"}
		})},
		{"PostToolUse-write_file.json", with(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PostToolUse", "write_file", client.ToolEdit, []string{repo + "/new.txt"}
			in.Caps |= client.WarnAfter
		})},
		{"PostToolUse-run_shell_command-subagent.json", with(sub, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PostToolUse", "run_shell_command", client.ToolShell
			in.Caps |= client.WarnAfter
			in.Command = "env > /home/dev/repo/env-sub.txt; echo sub-shell"
		})},
		{"PostToolUse-agent-foreground.json", with(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = sub.SessionID, "PostToolUse", "agent", client.ToolAgent
			in.Caps |= client.WarnAfter
		})},
		{"SubagentStart.json", with(sub, func(in *client.Input) {
			in.Event, in.AgentType, in.Caps = "SubagentStart", "general-purpose", in.Caps|client.Mute
		})},
		{"SubagentStop-after-block.json", with(sub, func(in *client.Input) {
			in.Event, in.AgentType, in.StopHookActive = "SubagentStop", "general-purpose", true
		})},
		{"Stop.json", with(lead, func(in *client.Input) { in.Event = "Stop" })},
		{"Stop-after-block.json", with(lead, func(in *client.Input) {
			in.SessionID, in.Event, in.StopHookActive = "37968836-11da-4485-94d2-9155292c41a1", "Stop", true
		})},
	} {
		got := decode(t, tc.file)
		got.ToolInput = nil
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, got, tc.want)
		}
	}
	if _, err := (Client{}).Decode("PreToolUse", []byte("{")); err == nil || !strings.HasPrefix(err.Error(), "payload is not a JSON object") {
		t.Errorf("a payload that is no object: %v", err)
	}
}

// lucid's answers in the forms Qwen honours: a deny in hookSpecificOutput,
// whose reason the model reads as the tool's result; a stop's block as a
// top-level decision; context in hookSpecificOutput, never at a mute
// event; no replaced input, which Qwen ignores.
func TestEncode(t *testing.T) {
	pre := decode(t, "PreToolUse-run_shell_command.json")
	for _, tc := range []struct {
		name string
		in   client.Input
		out  client.Output
		want string
	}{
		{"deny", pre, client.Output{Deny: "lucid: a.txt is claimed"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lucid: a.txt is claimed"}}`},
		{"block at Stop", decode(t, "Stop.json"), client.Output{Block: "Before you stop: record"}, `{"decision":"block","reason":"Before you stop: record"}`},
		{"block at SubagentStop", decode(t, "SubagentStop.json"), client.Output{Block: "Before you stop: record"}, `{"decision":"block","reason":"Before you stop: record"}`},
		{"context at SessionStart", decode(t, "SessionStart-startup.json"), client.Output{Context: "# lucid: digest"},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"# lucid: digest"}}`},
		{"context at UserPromptSubmit", decode(t, "UserPromptSubmit-after-tool-result.json"), client.Output{Context: "news"},
			`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"news"}}`},
		{"context at PostToolUse", decode(t, "PostToolUse-run_shell_command-subagent.json"), client.Output{Context: "news"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"news"}}`},
		{"context at a mute PreToolUse", pre, client.Output{Context: "news"}, ``},
		{"context at a mute SubagentStart", decode(t, "SubagentStart.json"), client.Output{Context: "# lucid: digest"}, ``},
		{"a signed command", pre, client.Output{Command: "LUCID_AGENT=x lucid note y", Permission: "allow"}, ``},
	} {
		b, line, code := Client{}.Encode(tc.in, &tc.out)
		if got := strings.TrimSuffix(string(b), "\n"); got != tc.want || line != "" || code != 0 {
			t.Errorf("%s: %q %q %d, want %s", tc.name, got, line, code, tc.want)
		}
	}
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
