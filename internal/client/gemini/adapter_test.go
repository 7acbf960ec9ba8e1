package gemini

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads Gemini CLI 0.61.0 sent (recorded,
// paths moved to /home/dev/repo), and lucid's answers in the shapes Gemini
// honours.

const version = "gemini-0.61.0"

var adapter = clienttest.Adapter{Client: Client{}, Version: version, Prefix: "relative-"}

// What lucid reads of each kind of payload: Gemini's events under lucid's
// names, its write tools' paths (relative ones resolved against cwd, as
// the client resolves them), its shell's command and folder. Every call
// is a lead's, says nothing of what a command changed, and its news waits
// for AfterTool, since BeforeTool shows the model nothing.
func TestDecodeRecorded(t *testing.T) {
	const repo = "/home/dev/repo"
	base := client.Input{SessionID: "55582cb0-7a99-4b29-938f-6edbd0df9030", Cwd: repo, Caps: client.NewsAfter | client.GateLead | client.Unrecorded}
	relative := base
	relative.SessionID = "e4158d37-1277-4f8d-b0f1-fb3a4111539c"
	adapter.TestDecode(t, []clienttest.Decoding{
		{File: "SessionStart.json", Want: clienttest.With(base, func(in *client.Input) { in.Event, in.Source = "SessionStart", "startup" })},
		{File: "BeforeTool-write_file.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "write_file", client.ToolEdit, []string{repo + "/new.txt"}
			in.Caps |= client.Mute
		})},
		{File: "BeforeTool-replace.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "replace", client.ToolEdit, []string{repo + "/notes.txt"}
			in.Caps |= client.Mute
		})},
		{File: "BeforeTool-run_shell_command.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PreToolUse", "run_shell_command", client.ToolShell
			in.Caps |= client.Mute
			in.Command = "env | sort > /home/dev/work/env.txt; echo SHELL-OK"
		})},
		{File: "AfterTool-write_file.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PostToolUse", "write_file", client.ToolEdit, []string{repo + "/new.txt"}
			in.Caps |= client.WarnAfter
		})},
		{File: "relative-BeforeTool-write_file.json", Want: clienttest.With(relative, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "write_file", client.ToolEdit, []string{repo + "/src/rel.go"}
			in.Caps |= client.Mute
		})},
		// The shell runs in dir_path, relative to cwd.
		{File: "relative-BeforeTool-run_shell_command.json", Want: clienttest.With(relative, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Command, in.Cwd = "PreToolUse", "run_shell_command", client.ToolShell, "pwd > here.txt", repo+"/src"
			in.Caps |= client.Mute
		})},
		// AfterAgent's retry is the stop gate's second stop.
		{File: "AfterAgent-retry.json", Want: clienttest.With(base, func(in *client.Input) {
			in.SessionID, in.Event, in.StopHookActive = "c4087a98-8b34-4d40-a01f-84c826262e8c", "Stop", true
		})},
		// PreCompress is not registered: it fires before every model call.
		{File: "PreCompress.json", Want: clienttest.With(base, func(in *client.Input) { in.Event = "" })},
		{Payload: "{", Event: "BeforeTool", Err: "payload is not a JSON object"},
	})
}

// lucid's answers in the forms Gemini honours: a deny, and a block at the
// end of a turn (one more turn), both as "decision":"deny"; context in
// hookSpecificOutput under Gemini's event name, never at BeforeTool, where
// the model would not see it; a signed command as the tool's whole input,
// since Gemini replaces the input rather than merging it.
func TestEncode(t *testing.T) {
	before := adapter.Decode(t, "BeforeTool-run_shell_command.json")
	after := adapter.Decode(t, "AfterTool-write_file.json")
	adapter.TestEncode(t, []clienttest.Encoding{
		{Name: "deny", In: before, Out: client.Output{Deny: "lucid: a.txt is claimed"}, Want: `{"decision":"deny","reason":"lucid: a.txt is claimed"}`},
		{Name: "block at AfterAgent", In: adapter.Decode(t, "AfterAgent.json"), Out: client.Output{Block: "Before you stop: record"}, Want: `{"decision":"deny","reason":"Before you stop: record"}`},
		{Name: "context at SessionStart", In: adapter.Decode(t, "SessionStart.json"), Out: client.Output{Context: "# lucid: digest"},
			Want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"# lucid: digest"}}`},
		{Name: "context at AfterTool", In: after, Out: client.Output{Context: "news"},
			Want: `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"news"}}`},
		{Name: "context at BeforeAgent", In: adapter.Decode(t, "BeforeAgent.json"), Out: client.Output{Context: "news"},
			Want: `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"news"}}`},
		{Name: "context at BeforeTool", In: before, Out: client.Output{Context: "news"}, Want: ""},
		{Name: "signed command", In: before, Out: client.Output{Context: "news", Command: "LUCID_AGENT=g lucid note x", Permission: "ask"},
			Want: `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"LUCID_AGENT=g lucid note x","description":"dump env"}}}`},
	})
}

// Gemini's shell is marked by GEMINI_CLI=1 and names no session; its
// hooks by GEMINI_PROJECT_DIR (the recorded environment of a hook).
func TestShellAndHookEnvironments(t *testing.T) {
	var hookEnv map[string]string
	if err := json.Unmarshal(adapter.Recorded(t, "env-hook.json"), &hookEnv); err != nil {
		t.Fatal(err)
	}
	hook := func(k string) string { return hookEnv[k] }
	shell := func(k string) string {
		return map[string]string{"GEMINI_CLI": "1", "GEMINI_CLI_NO_RELAUNCH": "true"}[k]
	}
	c := Client{}
	if sh, ok := c.AgentShell(shell); !ok || sh != (client.Shell{Client: "Gemini CLI"}) {
		t.Errorf("run_shell_command's shell: %+v %v", sh, ok)
	}
	if own, known := c.OwnHook(shell); own || !known {
		t.Errorf("the shell taken for a hook: %v %v", own, known)
	}
	if _, ok := c.AgentShell(hook); ok {
		t.Error("a hook taken for the shell")
	}
	if own, known := c.OwnHook(hook); !own || !known {
		t.Errorf("a hook not known as one: %v %v", own, known)
	}
	// gemini run from its own shell: its hooks inherit GEMINI_CLI=1.
	both := func(k string) string {
		if k == "GEMINI_CLI" {
			return "1"
		}
		return hookEnv[k]
	}
	if _, ok := c.AgentShell(both); ok {
		t.Error("a hook of a gemini run from a Gemini shell taken for the shell")
	}
}

// The events lucid registers in Gemini, and the lucid events they are.
func TestEvents(t *testing.T) {
	c := Client{}
	want := []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"}
	if c.Name() != "gemini" || !slices.Equal(client.EventNames(c.Events()), want) {
		t.Errorf("Name %q, Events %v", c.Name(), client.EventNames(c.Events()))
	}
	for _, e := range client.EventNames(c.Events()) {
		if l := lucidEvent(e); !slices.Contains(client.Events, l) || geminiEvent(l) != e {
			t.Errorf("%s maps to %q and back to %q", e, l, geminiEvent(l))
		}
	}
	if geminiEvent("TaskCompleted") != "TaskCompleted" {
		t.Error("an event Gemini lacks is not kept as it is")
	}
}
