// Package answer encodes lucid's answer to a hook call in the two shapes
// clients share: the one Claude Code defined and other clients (Codex
// CLI) take as it is (one JSON object, what carries meaning inside
// hookSpecificOutput, except a stop hook's decision and reason), and the
// one lucid's own in-process plugins read (Plugin).
package answer

import (
	"encoding/json"

	"github.com/lucid-dev/lucid/internal/client"
)

// output is the one JSON object a hook prints, in the form Claude Code
// honours: what carries meaning goes inside hookSpecificOutput, except a
// stop hook's decision and reason.
type output struct {
	Specific *specific `json:"hookSpecificOutput,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Reason   string    `json:"reason,omitempty"`
}

// specific is hookSpecificOutput.
type specific struct {
	HookEventName            string          `json:"hookEventName"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
}

// Encode writes lucid's answer. A block is the JSON decision at every stop
// and at TaskCompleted too, where it keeps the task open: there the model
// reads "TaskCompleted hook feedback:" and the reason, where exit 2 would
// show it the whole hook command as well (seen with Claude Code 2.1.332).
func Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	var o output
	switch {
	case out.Block != "":
		o = output{Decision: "block", Reason: out.Block}
	case out.Deny != "":
		o.Specific = &specific{HookEventName: in.Event, PermissionDecision: "deny", PermissionDecisionReason: out.Deny}
	default:
		s := &specific{HookEventName: in.Event, AdditionalContext: out.Context}
		if out.Command != "" {
			if updated, ok := WithCommand(in.ToolInput, out.Command); ok {
				s.UpdatedInput = updated
				s.PermissionDecision, s.PermissionDecisionReason = out.Permission, out.PermissionReason
			}
		}
		if s.AdditionalContext == "" && s.UpdatedInput == nil {
			return nil, "", 0
		}
		o.Specific = s
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err.Error(), 0
	}
	return append(b, '\n'), "", 0
}

// WithCommand returns the tool input with its command replaced, every
// other field as it was: an updated input replaces the whole input (as
// Claude Code's updatedInput and GitHub Copilot CLI's modifiedArgs do).
func WithCommand(toolInput []byte, command string) ([]byte, bool) {
	var input map[string]json.RawMessage
	if err := json.Unmarshal(toolInput, &input); err != nil || input == nil {
		return nil, false
	}
	cmd, _ := json.Marshal(command)
	input["command"] = cmd
	b, err := json.Marshal(input)
	return b, err == nil
}

// plugin is the answer lucid's own in-process plugins read (opencode's
// plugin, Pi's extension): the deny, the context, the block, each only
// where it says something.
type plugin struct {
	Deny    string `json:"deny,omitempty"`
	Context string `json:"context,omitempty"`
	Block   string `json:"block,omitempty"`
}

// Plugin encodes out as lucid's own plugins read it, exit 0 always;
// nothing when there is nothing to say. A replaced command is left out:
// the plugins sign lucid's commands in the shell.
func Plugin(in client.Input, out *client.Output) ([]byte, string, int) {
	o := plugin{Deny: out.Deny, Context: out.Context, Block: out.Block}
	if in.Caps.Has(client.Mute) {
		o.Context = ""
	}
	if o == (plugin{}) {
		return nil, "", 0
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err.Error(), 0
	}
	return append(b, '\n'), "", 0
}
