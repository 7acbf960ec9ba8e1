package crush

import (
	"reflect"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads Crush (built at 0.90.0-nightly+37f36e9)
// sent (recorded, paths moved to /home/dev/repo), and lucid's answers in
// the shapes Crush honours.

const version = "crush-0.90.0"

var adapter = clienttest.Adapter{Client: Client{}, Version: version}

// What lucid reads of each kind of payload: the session; the write tools'
// paths; the shell's command and its folder (working_dir, relative to
// cwd); a read tool is nothing lucid looks at. No call is mute: what
// PreToolUse says reaches the model after the tool's result.
func TestDecodeRecorded(t *testing.T) {
	const repo = "/home/dev/repo"
	lead := client.Input{Event: "PreToolUse", SessionID: "b8f1fdfc-4dd8-41dd-8a10-ef9043fdfa26", Cwd: repo, Caps: client.NoAfter | client.NoStart}
	adapter.TestDecode(t, []clienttest.Decoding{
		{File: "PreToolUse-write.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.ToolName, in.Tool, in.Paths = "write", client.ToolEdit, []string{repo + "/new.txt"}
		})},
		{File: "PreToolUse-edit.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.ToolName, in.Tool, in.Paths = "edit", client.ToolEdit, []string{repo + "/notes.txt"}
		})},
		{File: "PreToolUse-multiedit.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.ToolName, in.Tool, in.Paths = "multiedit", client.ToolEdit, []string{repo + "/notes.txt"}
		})},
		{File: "PreToolUse-bash.json", Want: clienttest.With(lead, func(in *client.Input) {
			in.ToolName, in.Tool, in.Cwd = "bash", client.ToolShell, repo+"/src"
			in.Command = "env | grep -E '^(CRUSH|AGENT|AI_AGENT)' | sort > /home/dev/repo/shell.env"
		})},
		{File: "PreToolUse-view.json", Want: clienttest.With(lead, func(in *client.Input) { in.ToolName = "view" })},
		{Payload: `{"event":"PreToolUse","session_id":"s","cwd":"/r","tool_name":"agent","tool_input":{"prompt":"look"}}`, Event: "PreToolUse",
			Want: client.Input{Event: "PreToolUse", SessionID: "s", Cwd: "/r", ToolName: "agent", Tool: client.ToolAgent, Caps: client.NoAfter | client.NoStart}},
		{Payload: "{", Event: "PreToolUse", Err: "payload is not a JSON object"},
	})
}

// lucid's answers in the forms Crush reads: a deny in hookSpecificOutput,
// whose reason the model reads after Crush's "Tool call blocked by hook.
// Reason: "; context, appended to the tool's result; a signed command as
// the whole input with its command replaced, which Crush merges into the
// input, and "allow".
func TestEncode(t *testing.T) {
	pre := adapter.Decode(t, "PreToolUse-bash.json")
	adapter.TestEncode(t, []clienttest.Encoding{
		{Name: "deny", In: pre, Out: client.Output{Deny: "lucid: a.txt is claimed"},
			Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lucid: a.txt is claimed"}}`},
		{Name: "context", In: adapter.Decode(t, "PreToolUse-edit.json"), Out: client.Output{Context: "news"},
			Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"news"}}`},
		{Name: "a signed command", In: pre, Out: client.Output{Command: "LUCID_AGENT=x lucid note y", Permission: "allow"},
			Want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"LUCID_AGENT=x lucid note y","description":"env","working_dir":"src"}}}`},
		{Name: "nothing", In: pre, Out: client.Output{}, Want: ``},
	})
}

// The write tools' paths (absolute, or relative to cwd); the shell's
// folder; input Crush would refuse; tools that write nothing.
func TestWrites(t *testing.T) {
	const cwd = "/r"
	for _, tc := range []struct {
		tool, input string
		want        []string
	}{
		{Write, `{"file_path":"/r/a.go","content":"x"}`, []string{"/r/a.go"}},
		{Edit, `{"file_path":"b.go","old_string":"x","new_string":"y"}`, []string{"/r/b.go"}},
		{MultiEdit, `{"file_path":"/r/c.go","edits":[]}`, []string{"/r/c.go"}},
		{Download, `{"url":"http://127.0.0.1/x","file_path":"d.bin"}`, []string{"/r/d.bin"}},
		{ReplaceSymbol, `{"symbol":"F","file_path":"/r/e.go"}`, []string{"/r/e.go"}},
		{Bash, `{"command":"echo x > out.txt","working_dir":"sub"}`, []string{"/r/sub/out.txt"}},
		{Bash, `{"command":"echo x > /r/m.txt"}`, []string{"/r/m.txt"}},
		{Write, `{"file_path":7}`, nil},
		{Write, `[1]`, nil},
		{"view", `{"file_path":"/r/a.go"}`, nil},
	} {
		var got []string
		for _, w := range Writes(tc.tool, []byte(tc.input), cwd) {
			got = append(got, w.Path)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %q, want %q", tc.tool, tc.input, got, tc.want)
		}
	}
	if command, dir, ok := ShellCommand([]byte(`{"command":"ls","working_dir":"/elsewhere"}`), cwd); !ok || command != "ls" || dir != "/elsewhere" {
		t.Errorf("ShellCommand: %q %q %v", command, dir, ok)
	}
}
