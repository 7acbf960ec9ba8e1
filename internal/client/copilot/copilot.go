// Package copilot holds all lucid knows of GitHub Copilot CLI (1.0.102):
// its hooks' payloads decoded into lucid's client.Input and lucid's answer
// encoded as it honours it (the payloads in
// testdata/payloads/copilot-cli-1.0.102); lucid's own hook file
// .github/hooks/lucid.json; the folder trust Copilot needs before it runs
// a repository's hooks, in $COPILOT_HOME/config.json; and doctor's
// checks. Its agents' shells are told by its identity (client/identity),
// which it embeds.
//
// What differs from Claude Code: the events have camelCase names
// (userPromptSubmitted, agentStop, ...) and so do the payloads (sessionId,
// toolName, toolArgs); the write tools are bash, create, edit and, for
// GPT-5 models, apply_patch, whose toolArgs is the raw patch; a deny is
// {"permissionDecision":"deny"} with exit 0, since Copilot denies a tool
// whose preToolUse hook exits non-zero or crashes; preToolUse's context
// reaches the model only after the tool's result, so the news waits for
// postToolUse; after compacting a conversation it starts no session, so
// the lead's next call gets the digest again; agentStop's block runs one
// more turn, the stop gate; inside a subagent the payloads carry agentId,
// and sessionId is that agentId (the lead's session is parentAgentId); the
// shell names the lead's session but a subagent's only by an internal id,
// so lucid signs commands by replacing the tool's whole arguments
// (modifiedArgs); nothing says what a shell command wrote.
//
// Copilot also runs the hooks of the repository's .claude/settings.json,
// in Claude Code's shape: where lucid's Copilot entry is installed, lucid's
// Claude Code entry stands aside under Copilot, so that nothing fires
// twice; where it is not, the Claude Code entry serves Copilot, its answer
// read and put where Copilot has them (Hosts, DecodeHosted,
// EncodeHosted).
package copilot

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/client/applypatch"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Client is GitHub Copilot CLI.
type Client struct{ identity.Copilot }

// Hosts reports whether getenv is Copilot running a hook of another
// client's entry (client's: Copilot runs those of .claude/settings.json
// too, without COPILOT_HOOK_DIR, which it sets for its hook files alone),
// and then whether the call stands aside: lucid's own hook file is
// installed in the work tree, and serves it.
func (Client) Hosts(client string, getenv func(string) string) (hosts, aside bool) {
	dir := getenv("COPILOT_PROJECT_DIR")
	if client == (Client{}).Name() || getenv("COPILOT_CLI") != "1" || getenv("COPILOT_HOOK_DIR") != "" || dir == "" {
		return false, false
	}
	b, err := os.ReadFile(filepath.Join(dir, HooksName))
	return true, err == nil && isLucidFile(b)
}

// DecodeHosted reads a payload of another client's entry that Copilot
// runs: as that client reads it, with what Copilot puts elsewhere or does
// otherwise. Its Write and Edit (create and edit) name their file in
// tool_input.path, not file_path; nothing says what a shell command
// wrote; its agents are leads that Stop gates, with no tool to message
// each other; and it starts no session after a compaction.
func (Client) DecodeHosted(other client.Client, event string, b []byte) (client.Input, error) {
	in, err := other.Decode(event, b)
	if err != nil {
		return in, err
	}
	in.Caps = in.Caps&^client.GateLead | client.Unrecorded | client.NoRestart | client.GateLead.If(in.AgentID == "")
	if in.Tool == client.ToolEdit && len(in.Paths) == 0 {
		var a args
		if jsonread.Fields(in.ToolInput, map[string]any{"path": &a.Path}) == nil && a.Path != "" {
			in.Paths = []string{resolveIn(in.Cwd, a.Path)}
		}
	}
	return in, nil
}

// EncodeHosted writes lucid's answer to a call of another client's entry
// that Copilot runs: that client's answer, with its context also at the
// top, the one place Copilot reads a Claude-shaped hook's context at
// SessionStart, UserPromptSubmit and PostToolUse (it reads
// hookSpecificOutput's at PreToolUse, and only there).
func (Client) EncodeHosted(other client.Client, in client.Input, out *client.Output) ([]byte, string, int) {
	b, line, code := other.Encode(in, out)
	if len(b) == 0 || out.Context == "" || out.Deny != "" || out.Block != "" || in.Event == client.PreToolUse {
		return b, line, code
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(b, &o) != nil {
		return b, line, code
	}
	if _, ok := o["additionalContext"]; !ok {
		o["additionalContext"], _ = json.Marshal(out.Context)
	}
	flat, err := json.Marshal(o)
	if err != nil {
		return b, line, code
	}
	return append(flat, '\n'), line, code
}

// Copilot's own names of the events lucid registers.
const (
	SessionStart        = "sessionStart"
	UserPromptSubmitted = "userPromptSubmitted"
	PreToolUse          = "preToolUse"
	PostToolUse         = "postToolUse"
	AgentStop           = "agentStop"
	SubagentStart       = "subagentStart"
	SubagentStop        = "subagentStop"
	PreCompact          = "preCompact"
	SessionEnd          = "sessionEnd"
)

// Events are the Copilot events lucid registers.
func (Client) Events() []client.Event { return events }

func lucidEvent(copilot string) string {
	for _, e := range events {
		if e.Name == copilot {
			return e.Lucid
		}
	}
	return ""
}

// Copilot CLI 1.0.102's tools that write work-tree files, and its
// subagent tool. The others (view, grep, glob, read_bash, ...) write
// nothing; a subagent's writes come through these same names.
const (
	Bash       = "bash"
	PowerShell = "powershell" // Windows's shell tool in bash's place, with the same arguments
	Create     = "create"
	Edit       = "edit"
	ApplyPatch = "apply_patch" // GPT-5 models' instead of create and edit
	Task       = "task"
)

// payload is the part of a Copilot hook payload lucid reads.
type payload struct {
	SessionID, Cwd, Source     string
	AgentID, AgentType, Parent string
	ToolName                   string
	// ToolArgs is raw JSON: an object, apply_patch's patch as a string, or
	// an object written as a JSON string (see objectArgs).
	ToolArgs       []byte
	StopHookActive bool
}

// objectArgs is a tool's arguments as the object they are. Copilot CLI
// 1.0.102 sends toolArgs as an object; GitHub's hooks reference shows it as
// a JSON string that holds the object ("{\"command\":\"...\"}"), a form a
// later version may send: then the string's content is the object. Any
// other value (a string that holds no object, apply_patch's patch) is
// given as it is.
func objectArgs(raw []byte) []byte {
	text, err := jsonread.String(raw)
	if err != nil || text == "" {
		return raw
	}
	if obj := []byte(text); jsonread.Object(obj, func(string, []byte) error { return nil }) == nil {
		return obj
	}
	return raw
}

// decode reads b as encoding/json would read it into the payload's
// fields, without its cost at the start of every hook (internal/jsonread).
func (p *payload) decode(b []byte) error {
	return jsonread.Fields(b, map[string]any{
		"sessionId": &p.SessionID, "cwd": &p.Cwd, "source": &p.Source,
		"agentId": &p.AgentID, "agentType": &p.AgentType, "parentAgentId": &p.Parent,
		"toolName": &p.ToolName, "toolArgs": &p.ToolArgs, "stop_hook_active": &p.StopHookActive,
	})
}

// args is the part of a tool's arguments that says what it writes.
type args struct{ Command, Path string }

// Decode reads the payload. The lead is its sessionId; a subagent is its
// agentId in the lead's session: inside the subagent sessionId is the
// agentId and parentAgentId the lead's, while subagentStart and
// subagentStop carry the lead's sessionId. Only the lead's agentStop runs
// the stop gate: a subagent's runs at its subagentStop.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	var p payload
	if err := p.decode(b); err != nil {
		return client.Input{}, fmt.Errorf("payload is not a JSON object: %w", err)
	}
	session := p.SessionID
	if p.AgentID != "" && p.SessionID == p.AgentID && p.Parent != "" {
		session = p.Parent
	}
	source := p.Source
	if source == "new" {
		source = "startup"
	}
	if p.ToolName != ApplyPatch {
		p.ToolArgs = objectArgs(p.ToolArgs) // a signed command's modifiedArgs is the object too
	}
	in := client.Input{
		Event: lucidEvent(event), SessionID: session, AgentID: p.AgentID, AgentType: p.AgentType,
		Cwd: p.Cwd, Source: source, StopHookActive: p.StopHookActive, ToolName: p.ToolName, ToolInput: p.ToolArgs,
		Caps: client.Mute.If(event == PreToolUse) | client.NewsAfter | client.GateLead.If(p.AgentID == "") | client.Unrecorded | client.NoRestart,
	}
	var a args
	switch p.ToolName {
	case Bash, PowerShell:
		jsonread.Fields(p.ToolArgs, map[string]any{"command": &a.Command}) // not a string reads as ""
		in.Tool, in.Command = client.ToolShell, a.Command
		in.Caps |= client.PowerShell.If(p.ToolName == PowerShell)
	case Create, Edit:
		in.Tool = client.ToolEdit
		if jsonread.Fields(p.ToolArgs, map[string]any{"path": &a.Path}) == nil && a.Path != "" {
			in.Paths = []string{resolveIn(p.Cwd, a.Path)}
		}
	case ApplyPatch:
		in.Tool = client.ToolEdit
		text, _ := jsonread.String(p.ToolArgs)
		patch, _ := applypatch.Parse(text) // a malformed patch still names its files
		in.Paths = patch.Paths(p.Cwd)
	case Task:
		in.Tool = client.ToolAgent // the lead's subagent hands back: its news comes with it
	}
	return in, nil
}

func resolveIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// output is the one JSON object a Copilot hook prints: flat, whatever the
// event.
type output struct {
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	Decision                 string          `json:"decision,omitempty"`
	Reason                   string          `json:"reason,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	ModifiedArgs             json.RawMessage `json:"modifiedArgs,omitempty"`
}

// Encode writes lucid's answer, always with exit 0 (a preToolUse hook's
// non-zero exit is a deny). A deny is permissionDecision "deny"; a block
// at agentStop or subagentStop is decision "block" (one more turn, the
// reason its prompt). A signed command is the tool's whole arguments with
// the command replaced, since modifiedArgs replaces them all; no
// permission goes with it ("ask" is a deny in a session without a user,
// and "allow" would skip the user's approval).
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	var o output
	switch {
	case out.Block != "":
		o.Decision, o.Reason = "block", out.Block
	case out.Deny != "":
		o.PermissionDecision, o.PermissionDecisionReason = "deny", out.Deny
	default:
		// preToolUse is mute for the news alone, which waits for
		// postToolUse: what lucid says there of the call itself (its
		// file claimed in another work tree) reaches the model after the
		// tool's result, and is no less true then.
		o.AdditionalContext = out.Context
		if out.Command != "" {
			o.ModifiedArgs, _ = answer.WithCommand(in.ToolInput, out.Command)
		}
		if o.AdditionalContext == "" && o.ModifiedArgs == nil {
			return nil, "", 0
		}
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err.Error(), 0
	}
	return append(b, '\n'), "", 0
}

// LargeInput: a tool's arguments are toolArgs, and create's file and
// edit's texts are file_text, old_str and new_str.
func (Client) LargeInput() (input string, bulky []string) {
	return "toolArgs", []string{"file_text", "old_str", "new_str"}
}
