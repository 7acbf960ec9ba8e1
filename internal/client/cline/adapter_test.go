package cline

import (
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads Cline CLI 3.0.65 sent (recorded, paths
// moved to /home/dev/repo), and lucid's answers in the shapes Cline
// honours.

var adapter = clienttest.Adapter{Client: Client{}, Version: "cline-3.0.65"}

// What lucid reads of each kind of payload: the hook file's event, by who
// calls it (the lead, or a sub-agent with parent_agent_id); the lead as
// its root session, a sub-agent as its agent_id in it; editor's path, and
// run_commands' list as one line. Starts and ends are mute (Cline never
// reads their output); nothing says what a command wrote.
func TestDecodeRecorded(t *testing.T) {
	const (
		repo    = "/home/dev/repo"
		session = "1796591118889_yxxf3"
		sub     = "agent_1796591126205_d4qtk2"
	)
	base := client.Input{ProjectDir: repo, SessionID: session, Cwd: repo, Caps: client.Unrecorded | client.NoRestart}
	mute := func(in *client.Input) { in.Caps |= client.Mute }
	adapter.TestDecode(t, []clienttest.Decoding{
		{File: "TaskStart.json", Want: clienttest.With(base, func(in *client.Input) { in.Event, in.Source = "SessionStart", "startup"; mute(in) })},
		{File: "TaskStart-in-subagent.json", Want: clienttest.With(base, func(in *client.Input) { in.Event, in.AgentID = "SubagentStart", sub; mute(in) })},
		{File: "PreToolUse-editor-create.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "editor", client.ToolEdit, []string{repo + "/created.txt"}
		})},
		{File: "PreToolUse-editor-replace.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "editor", client.ToolEdit, []string{repo + "/notes.txt"}
		})},
		{File: "PreToolUse-run_commands.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PreToolUse", "run_commands", client.ToolShell
			in.Command = "echo from-shell > shell.txt && env | sort > shell_env.txt && (echo \"self: $(tr \\\\0 \\  < /proc/$$/cmdline)\"; echo \"parent: $(tr \\\\0 \\  < /proc/$PPID/cmdline)\") > shell_proc.txt"
		})},
		{File: "PreToolUse-read_files.json", Want: clienttest.With(base, func(in *client.Input) { in.Event, in.ToolName = "PreToolUse", "read_files" })},
		{File: "PreToolUse-spawn_agent.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PreToolUse", "spawn_agent", client.ToolAgent
		})},
		{File: "PostToolUse-editor-in-subagent.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.AgentID, in.ToolName, in.Tool = "PostToolUse", "agent_1796591126205_d4qtk2", "editor", client.ToolEdit
			in.Paths = []string{repo + "/sub.txt"}
		})},
		{File: "TaskComplete.json", Want: clienttest.With(base, func(in *client.Input) { in.Event = "Stop"; mute(in) })},
		{File: "TaskComplete-in-subagent.json", Want: clienttest.With(base, func(in *client.Input) { in.Event, in.AgentID = "SubagentStop", sub; mute(in) })},
		{File: "TaskError-http400.json", Want: clienttest.With(base, func(in *client.Input) { in.SessionID, in.Event = "1796590370669_gvh76", "Stop"; mute(in) })},
		{File: "SessionShutdown-after-PreToolUse-cancel.json", Want: clienttest.With(base, func(in *client.Input) {
			in.SessionID, in.Event = "1796591165072_lef1i", "SessionEnd"
			mute(in)
		})},
		{Event: "PreToolUse", Payload: `{"sessionContext":{"rootSessionId":"s"},"workspaceRoots":["/r"],"parent_agent_id":null,"tool_call":{"name":"run_commands","input":{"commands":["cd a && touch x","touch y"]}}}`,
			Want: client.Input{Event: "PreToolUse", ProjectDir: "/r", SessionID: "s", Cwd: "/r", Caps: client.Unrecorded | client.NoRestart,
				ToolName: "run_commands", Tool: client.ToolShell, Command: "(\ncd a && touch x\n)\n(\ntouch y\n)"}},
		{Event: "PreToolUse", Payload: `[]`, Err: "payload is not a JSON object"},
		{Event: "TaskCancel", Payload: `{}`, Err: "unknown Cline event"},
	})
}

// lucid's answers: context as contextModification at the tool hooks only
// (Cline reads no other's output); a refusal never cancels (that ends the
// whole task) but replaces the input with one that fails without
// writing, the reason beside it; a signed command replaces the commands.
func TestEncode(t *testing.T) {
	pre := client.Input{Event: client.PreToolUse}
	shell := clienttest.With(pre, func(in *client.Input) {
		in.Tool, in.ToolInput = client.ToolShell, []byte(`{"commands":["echo hi > a.txt"]}`)
	})
	edit := clienttest.With(pre, func(in *client.Input) {
		in.Tool, in.ToolInput = client.ToolEdit, []byte(`{"path":"a.txt","new_text":"x"}`)
	})
	adapter.TestEncode(t, []clienttest.Encoding{
		{Name: "context", In: pre, Out: client.Output{Context: "news"}, Want: `{"contextModification":"news"}`},
		{Name: "after", In: client.Input{Event: client.PostToolUse}, Out: client.Output{Context: "news"}, Want: `{"contextModification":"news"}`},
		{Name: "start", In: client.Input{Event: client.SessionStart}, Out: client.Output{Context: "digest"}},
		{Name: "stop gate", In: client.Input{Event: client.Stop}, Out: client.Output{Block: "record"}},
		{Name: "nothing", In: pre, Out: client.Output{}},
		{Name: "deny shell", In: shell, Out: client.Output{Deny: "a.txt is claimed"},
			Want: `{"contextModification":"a.txt is claimed","overrideInput":{"commands":["printf '%s\\n' 'a.txt is claimed' \u003e\u00262; exit 1"]}}`},
		{Name: "deny edit", In: edit, Out: client.Output{Deny: "a.txt is claimed"},
			Want: `{"contextModification":"a.txt is claimed","overrideInput":{"new_text":"x","path":"lucid refused this edit\u0000 (see the hook context)"}}`},
		{Name: "signed", In: shell, Out: client.Output{Command: "LUCID_AGENT=s lucid note hi", Permission: "ask"},
			Want: `{"overrideInput":{"commands":["LUCID_AGENT=s lucid note hi"]}}`},
	})
}

// Every refusal's output is a single JSON object with no cancel: Cline
// would end the whole task for one.
func TestNeverCancels(t *testing.T) {
	for _, tool := range []client.Tool{client.ToolShell, client.ToolEdit, client.ToolOther} {
		b, _, _ := Client{}.Encode(client.Input{Event: client.PreToolUse, Tool: tool, ToolInput: []byte(`{}`)}, &client.Output{Deny: "no"})
		if strings.Contains(string(b), "cancel") || !strings.Contains(string(b), `"contextModification":"no"`) {
			t.Errorf("tool %d: %s", tool, b)
		}
	}
}
