// Package gemini holds all lucid knows of Gemini CLI (0.61.0): its hooks'
// payloads decoded into lucid's client.Input and lucid's answer encoded as
// it honours it (the payloads in testdata/payloads/gemini-0.61.0); the
// events lucid registers in .gemini/settings.json; its workspace trust
// and hooksConfig as doctor checks them; and the inputs of its tools that
// write. Its agents' shells are told by its identity (client/identity),
// which it embeds.
//
// What differs from Claude Code: the events have other names (BeforeAgent
// before each prompt, BeforeTool/AfterTool around each tool, AfterAgent at
// the end of a turn); the write tools are write_file and replace, the shell
// run_shell_command (which may run in dir_path); a deny is
// {"decision":"deny"}; context reaches the model from SessionStart,
// BeforeAgent and AfterTool but not from BeforeTool, so the news waits for
// AfterTool; AfterAgent's deny runs one more turn, which is the stop gate;
// the shell's commands see no session id, so lucid signs its commands by
// replacing the tool's whole input (Gemini replaces, it does not merge); a
// subagent's tools run under the lead's session id, so lucid sees one agent.
package gemini

import (
	"encoding/json"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/claudeshape"
	"github.com/lucid-dev/lucid/internal/client/identity"
)

// Client is Gemini CLI.
type Client struct{ identity.Gemini }

// Gemini's own names of the events whose names are not lucid's.
const (
	BeforeAgent = "BeforeAgent" // before each prompt: lucid's UserPromptSubmit
	BeforeTool  = "BeforeTool"  // lucid's PreToolUse
	AfterTool   = "AfterTool"   // lucid's PostToolUse
	AfterAgent  = "AfterAgent"  // at the end of a turn: lucid's Stop
)

// Events are the Gemini events lucid registers. PreCompress is not among
// them: 0.61.0 fires it before every model call, whether or not anything
// is compressed.
func (Client) Events() []client.Event { return events }

func lucidEvent(gemini string) string {
	for _, e := range events {
		if e.Name == gemini {
			return e.Lucid
		}
	}
	return ""
}

func geminiEvent(lucid string) string {
	for _, e := range events {
		if e.Lucid == lucid {
			return e.Name
		}
	}
	return lucid
}

// Decode reads the payload. BeforeTool shows the model nothing: what lucid
// says there of the call itself comes with AfterTool (WarnAfter).
func (Client) Decode(event string, b []byte) (client.Input, error) {
	p, err := claudeshape.Decode(b, claudeshape.Common) // Gemini names no agent, nor a permission mode
	if err != nil {
		return client.Input{}, err
	}
	in := p.Input(lucidEvent(event))
	in.Caps = client.Mute.If(event == BeforeTool) | client.NewsAfter | client.GateLead | client.Unrecorded | client.WarnAfter.If(event == AfterTool)
	switch p.ToolName {
	case WriteFile, Replace:
		in.Tool = client.ToolEdit
		for _, w := range Writes(p.ToolName, p.ToolInput, p.Cwd) {
			in.Paths = append(in.Paths, w.Path)
		}
	case ShellTool:
		in.Tool = client.ToolShell
		if command, dir, ok := ShellCommand(p.ToolInput, p.Cwd); ok {
			in.Command, in.Cwd = command, dir // the command runs in dir_path
		}
	}
	return in, nil
}

type output struct {
	Decision string    `json:"decision,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Specific *specific `json:"hookSpecificOutput,omitempty"`
}

type specific struct {
	HookEventName     string          `json:"hookEventName"`
	AdditionalContext string          `json:"additionalContext,omitempty"`
	ToolInput         json.RawMessage `json:"tool_input,omitempty"`
}

// Encode writes lucid's answer. A deny before a tool, and a block at the
// end of a turn (AfterAgent: one more turn, the reason its prompt), are
// both Gemini's "deny". A signed command is the tool's whole input with
// its command replaced; Gemini asks for approval as it would have (the
// hook grants nothing).
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	var o output
	switch {
	case out.Block != "":
		o = output{Decision: "deny", Reason: out.Block}
	case out.Deny != "":
		o = output{Decision: "deny", Reason: out.Deny}
	default:
		s := &specific{HookEventName: geminiEvent(in.Event)}
		if !in.Caps.Has(client.Mute) {
			s.AdditionalContext = out.Context
		}
		if out.Command != "" {
			s.ToolInput = WithCommand(in.ToolInput, out.Command)
		}
		if s.AdditionalContext == "" && s.ToolInput == nil {
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
