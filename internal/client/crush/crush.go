// Package crush holds all lucid knows of Charm's Crush (built from its
// source at v0.90.0-nightly, 2026-08-21): its hooks' payloads decoded
// into lucid's client.Input and lucid's answer encoded as it honours it
// (the payloads in testdata/payloads/crush-0.90.0); the one event lucid
// registers in crush.json; and the inputs of its tools that write. Its
// agents' shells are told by its identity (client/identity), which it
// embeds. NOTES.md beside this file is the contract as recorded.
//
// Crush has one hook event, PreToolUse, in a shape close to Claude
// Code's: a payload of event (not hook_event_name), session_id, cwd,
// tool_name and tool_input; an answer in hookSpecificOutput (a deny with
// its reason, a new tool input shallow-merged into the old, additional
// context). What the adapter absorbs: the write tools are write, edit,
// multiedit, download and lsp_replace_symbol, the shell bash (with
// working_dir); context given at PreToolUse reaches the model appended to
// the tool's result, so PreToolUse carries the news; there is no start,
// prompt, PostToolUse or stop event, so no digest, no stop gate, and
// nothing says what a shell command wrote; its subagents (the agent tool)
// run with no hooks at all.
package crush

import (
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/client/claudeshape"
	"github.com/lucid-dev/lucid/internal/client/identity"
)

// Client is Crush.
type Client struct{ identity.Crush }

// Events are the Crush events lucid registers; their names are lucid's.
func (Client) Events() []client.Event { return events }

// members are the members of a Crush hook payload lucid reads.
const members = claudeshape.SessionID | claudeshape.Cwd | claudeshape.ToolName | claudeshape.ToolInput

// Decode reads the payload. Nothing comes after a tool: lich's marker of
// an edit goes at its PreToolUse (NoAfter), and no watch of the claimed
// files around a shell command (Unrecorded) could be closed, so none is
// opened. There is no start event, so the digest waits for the first
// call that can carry it (NoStart); nor a stop event, so no Caps of a
// stop apply.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	p, err := claudeshape.Decode(b, members)
	if err != nil {
		return client.Input{}, err
	}
	in := p.Input(event)
	in.Caps = client.NoAfter | client.NoStart
	switch p.ToolName {
	case Write, Edit, MultiEdit, Download, ReplaceSymbol:
		in.Tool = client.ToolEdit
		for _, w := range Writes(p.ToolName, p.ToolInput, p.Cwd) {
			in.Paths = append(in.Paths, w.Path)
		}
	case Bash:
		in.Tool = client.ToolShell
		if command, dir, ok := ShellCommand(p.ToolInput, p.Cwd); ok {
			in.Command, in.Cwd = command, dir
		}
	case AgentTool:
		in.Tool = client.ToolAgent
	}
	return in, nil
}

// Encode writes lucid's answer in Claude Code's shape, which Crush reads
// (hookSpecificOutput): a deny, whose reason the model reads after
// "Tool call blocked by hook. Reason: "; context, appended to the tool's
// result; a signed command as updatedInput, which Crush merges into the
// tool's input, with "allow", which skips its permission prompt.
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	return answer.Encode(in, out)
}
