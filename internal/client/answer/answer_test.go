package answer

import (
	"encoding/json"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
)

// lucid's answers in the forms Claude Code honours: a deny inside
// hookSpecificOutput, a block as the top-level decision, context as
// additionalContext, a signed command as the whole input with its command
// replaced; nothing at all when there is nothing to say.
func TestEncode(t *testing.T) {
	bash := client.Input{Event: "PreToolUse", ToolName: "Bash", ToolInput: []byte(`{"command":"sleep 1; echo changed-by-other > /home/dev/repo/a.txt","description":"t"}`)}
	for _, tc := range []struct {
		name string
		in   client.Input
		out  client.Output
		want string
	}{
		{"deny", bash, client.Output{Deny: "lucid: a.txt is claimed", Context: "ignored"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"lucid: a.txt is claimed"}}`},
		{"block at a stop", client.Input{Event: "SubagentStop"}, client.Output{Block: "Before you stop: record"},
			`{"decision":"block","reason":"Before you stop: record"}`},
		{"block at TaskCompleted", client.Input{Event: "TaskCompleted"}, client.Output{Block: "Before this task is closed"},
			`{"decision":"block","reason":"Before this task is closed"}`},
		{"context", client.Input{Event: "SessionStart"}, client.Output{Context: "# lucid: digest"},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"# lucid: digest"}}`},
		{"signed command", bash, client.Output{Command: "LUCID_AGENT=s lucid note x", Permission: "ask", PermissionReason: "lucid signed it"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"lucid signed it","updatedInput":{"command":"LUCID_AGENT=s lucid note x","description":"t"}}}`},
		{"signed command, input no object", client.Input{Event: "PreToolUse", ToolInput: []byte(`"x"`)}, client.Output{Command: "c", Permission: "allow"}, ""},
		{"nothing", bash, client.Output{}, ""},
	} {
		b, line, code := Encode(tc.in, &tc.out)
		want := tc.want
		if want != "" {
			want += "\n"
		}
		if string(b) != want || line != "" || code != 0 {
			t.Errorf("%s: %q, %q, exit %d\nwant %q", tc.name, b, line, code, want)
		}
		if len(b) > 0 && !json.Valid(b) {
			t.Errorf("%s: not JSON", tc.name)
		}
	}
}

// lucid's own plugins read the deny, the context and the block, only
// where they say something; a muted call's context is left out.
func TestPlugin(t *testing.T) {
	in := client.Input{Event: client.PreToolUse}
	if b, _, code := Plugin(in, &client.Output{Deny: "no", Context: "ctx"}); string(b) != `{"deny":"no","context":"ctx"}`+"\n" || code != 0 {
		t.Errorf("deny and context: %q %d", b, code)
	}
	in.Caps = client.Mute
	if b, _, _ := Plugin(in, &client.Output{Context: "ctx"}); b != nil {
		t.Errorf("a muted call's context alone: %q, want nothing", b)
	}
	if b, _, _ := Plugin(in, &client.Output{Block: "stop"}); string(b) != `{"block":"stop"}`+"\n" {
		t.Errorf("block: %q", b)
	}
}
