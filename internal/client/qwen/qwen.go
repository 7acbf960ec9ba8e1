// Package qwen holds all lucid knows of Qwen Code (0.24.4): its hooks'
// payloads decoded into lucid's client.Input and lucid's answer encoded as
// it honours it (the payloads in testdata/payloads/qwen-code-0.24.4); the
// events lucid registers in .qwen/settings.json; its folder trust and
// disableAllHooks as doctor checks them; and the inputs of its tools that
// write. Its agents' shells are told by its identity (client/identity),
// which it embeds.
//
// Qwen Code's hooks have Claude Code's shape and event names, with these
// differences that the adapter absorbs: the write tools are write_file,
// edit (once replace) and notebook_edit, the shell run_shell_command (and
// monitor, which runs one in the background); nothing says what a shell
// command wrote; UserPromptSubmit fires before every model call of the
// lead, with no prompt after a tool's result; context reaches the model
// from SessionStart, UserPromptSubmit and PostToolUse but not from
// PreToolUse or SubagentStart; PreToolUse cannot change a tool's input,
// but the shell names the session and the agent itself, so lucid signs
// nothing; its agents are leads of their own, so the lead's Stop runs the
// stop gate.
package qwen

import (
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/client/claudeshape"
	"github.com/lucid-dev/lucid/internal/client/identity"
)

// Client is Qwen Code.
type Client struct{ identity.Qwen }

// Events are the Qwen events lucid registers; their names are lucid's.
func (Client) Events() []client.Event { return events }

// members are the members of a Qwen hook payload lucid reads.
const members = claudeshape.Common | claudeshape.PermissionMode | claudeshape.AgentID | claudeshape.AgentType |
	claudeshape.SubmittedPrompt

// Decode reads the payload.
//
// The lead's news goes at UserPromptSubmit, which comes before each of
// its model calls; a subagent has none, and hears it at PostToolUse,
// appended to its tool's result (NewsAfter). The lead's PostToolUse gives
// none, also because the hidden memory agent that runs after the lead's
// Stop fires its tool hooks with the lead's ids: what it was given would
// never reach the lead. A UserPromptSubmit with no submitted_prompt is a
// model call after a tool's result or a stop hook's block, not a prompt
// of the user's (NoPrompt). PreToolUse and SubagentStart are mute: what
// lucid says at PreToolUse of the call itself comes at PostToolUse.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	p, err := claudeshape.Decode(b, members)
	if err != nil {
		return client.Input{}, err
	}
	in := p.Input(event)
	in.Caps = client.Mute.If(event == client.PreToolUse || event == client.SubagentStart) |
		client.NewsAfter.If(p.AgentID != "") | client.NoPrompt.If(event == client.UserPromptSubmit && p.SubmittedPrompt == "") |
		client.GateLead | client.Unrecorded | client.WarnAfter.If(event == client.PostToolUse)
	switch p.ToolName {
	case WriteFile, Edit, Replace, NotebookEdit:
		in.Tool = client.ToolEdit
		for _, w := range Writes(p.ToolName, p.ToolInput, p.Cwd) {
			in.Paths = append(in.Paths, w.Path)
		}
	case ShellTool, Monitor:
		in.Tool = client.ToolShell
		if command, dir, ok := ShellCommand(p.ToolInput, p.Cwd); ok {
			in.Command, in.Cwd = command, dir // the command runs in directory
		}
	case AgentTool:
		in.Tool = client.ToolAgent
	}
	return in, nil
}

// Encode writes lucid's answer in Claude Code's shape, which Qwen Code
// takes: a deny in hookSpecificOutput (the model reads its reason as the
// tool's result, word for word), a stop's block as decision "block" (one
// more turn, the reason its prompt). What a mute event would say is left
// out, and so is a replaced command: Qwen ignores a new input, and needs
// none (AgentShell).
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	o := *out
	o.Command, o.Permission, o.PermissionReason = "", "", ""
	if in.Caps.Has(client.Mute) {
		o.Context = ""
	}
	return answer.Encode(in, &o)
}
