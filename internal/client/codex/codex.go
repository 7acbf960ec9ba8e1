// Package codex holds all lucid knows of Codex CLI (0.169.0): its hooks'
// payloads decoded into lucid's client.Input and lucid's answer encoded as
// it honours it (the payloads in testdata/payloads/codex-0.169.0); the
// events lucid registers in .codex/hooks.json; the hash and trust Codex
// needs before it runs a hook; and doctor's checks. Its agents' shells are
// told by its identity (client/identity), which it embeds; its apply_patch
// format is read by client/applypatch.
//
// Codex's hooks have Claude Code's shape, with these differences that the
// adapter absorbs: the shell tool (exec_command) reaches hooks as "Bash"
// and apply_patch as "apply_patch", both with the whole command or patch
// text in tool_input.command; PostToolUse's tool_response is the tool's
// output as a string, with no record of the files a command changed; a
// subagent's hooks carry agent_id with the root session's id; its agents
// are leads in their own terminal, so the lead's Stop runs the stop gate.
package codex

import (
	"runtime"
	"strings"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/client/applypatch"
	"github.com/lucid-dev/lucid/internal/client/claudeshape"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Client is Codex CLI.
type Client struct{ identity.Codex }

// Events are the Codex events lucid registers; their names are lucid's.
func (Client) Events() []client.Event { return events }

// windows: Codex runs exec_command's line through PowerShell (pwsh, else
// Windows PowerShell, with -NoProfile -Command) on Windows, the shell it
// picks there unless the model names another, which the hook's payload
// does not say. A variable, for the tests.
var windows = runtime.GOOS == "windows"

// members are the members of a Codex hook payload lucid reads.
const members = claudeshape.Common | claudeshape.PermissionMode | claudeshape.AgentID | claudeshape.AgentType

// Decode reads the payload. A patch that cannot be read whole still gives
// every path that could be read: a malformed patch is no reason to let a
// write to a claimed path through.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	p, err := claudeshape.Decode(b, members)
	if err != nil {
		return client.Input{}, err
	}
	in := p.Input(event)
	in.Caps = client.GateLead | client.Unrecorded
	var ti struct{ Command string } // both tools' text; not a string reads as ""
	jsonread.Fields(p.ToolInput, map[string]any{"command": &ti.Command})
	switch {
	case p.ToolName == "apply_patch":
		in.Tool = client.ToolEdit
		patch, _ := applypatch.Parse(ti.Command) // a malformed patch still names its files
		in.Paths = patch.Paths(p.Cwd)
	case p.ToolName == "Bash":
		in.Tool, in.Command = client.ToolShell, ti.Command
		in.Caps |= client.PowerShell.If(windows)
		// The model may run apply_patch through the shell; Codex applies
		// it as the patch tool would.
		if patches, ok, _ := applypatch.ShellPatches(ti.Command); ok {
			for _, patch := range patches {
				in.Paths = append(in.Paths, patch.Paths(p.Cwd)...)
			}
		}
	case strings.HasSuffix(p.ToolName, "wait_agent"):
		in.Tool = client.ToolAgent // the lead waits for its subagent: its news comes back
	}
	return in, nil
}

// Encode writes lucid's answer in Claude Code's shape, which Codex takes.
// A replaced command (lucid's LUCID_AGENT stamp) is left out: Codex gives
// the commands it runs the agent's ids in CODEX_SESSION_ID and
// CODEX_THREAD_ID, which lucid reads, so nothing needs rewriting (and Codex
// takes a new input only with "allow", which would skip the user's
// approval).
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	o := *out
	o.Command, o.Permission, o.PermissionReason = "", "", ""
	return answer.Encode(in, &o)
}
