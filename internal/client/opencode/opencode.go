// Package opencode holds all lucid knows of opencode (1.18.33) and its
// fork Kilo Code (7.7.9), which have no shell hooks: lucid's plugin
// (plugin.js, embedded here) that lucid init writes into the project, the
// payloads that plugin hands to `lucid hook --client opencode EVENT`
// decoded into lucid's client.Input, lucid's answer encoded as the plugin
// acts on it, and doctor's checks. The agents' shells are told by its
// identity (client/identity), which it embeds.
//
// The plugin runs inside opencode; lucid's decisions stay here. It calls
// lucid with one JSON object on stdin:
//
//	{"sessionID": "ses_…",   the session whose hook fired
//	 "parentID": "ses_…",    its parent, for a subagent's child session
//	 "cwd": "/…",            the project's directory
//	 "tool": "bash",         PreToolUse and PostToolUse: the tool,
//	 "callID": "call_…",     the call
//	 "args": {…},            and its arguments as the model sent them
//	 "stopHookActive": true, Stop: the stop gate kept it going once already
//	 "textEnd": true}        Stop: the model's text is complete, the turn
//	                         may go on (tool calls may follow it)
//
// with EVENT one of lucid's own event names (SessionStart,
// UserPromptSubmit, PreToolUse, PostToolUse, Stop, PreCompact,
// SessionEnd), and reads one JSON
// object back: {"deny": reason} (the plugin throws it in
// tool.execute.before, which stops the tool; the model reads the reason),
// {"context": text} (pushed into the system prompt, or appended to the
// tool's result after it ran), {"block": text} (one more turn, its
// prompt). No answer, or any trouble, lets the call go on.
//
// The stop gate asks at the end of the model's text (textEnd), the one
// moment opencode run still takes one more turn: at session.idle the
// run has ended. So the gate runs there and ends no claim; the Stop at
// idle ends them. The digest and the news live in the system prompt,
// which opencode rebuilds for every request and never saves: after a
// compaction (PreCompact) the plugin asks again, and lucid gives the
// digest in place of what the summary dropped.
//
// A subagent runs in a child session: it is the lead's session with the
// child's id as the agent. The plugin sets LUCID_OPENCODE_AGENT for every
// bash command it runs (shell.env), so the lucid commands of an agent's
// shell are signed from the shell alone; the plugin's own lucid hook calls
// carry LUCID_OPENCODE_HOOK=1 instead. opencode says nothing of what a
// shell command wrote but in the step's patch, after the fact, and that
// is a diff of the whole work tree, which holds every other agent's
// writes of that moment too: it would charge this agent with them. So
// lucid's own watch of the claimed files tells what a command wrote.
package opencode

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/client/applypatch"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Client is opencode.
type Client struct{ identity.Opencode }

// Events are the events the plugin calls lucid with; their names are
// lucid's. A tool call's timeout is the plugin's own bound.
func (Client) Events() []client.Event { return events }

var events = []client.Event{
	{Name: client.SessionStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: client.UserPromptSubmit, Lucid: client.UserPromptSubmit, Timeout: 5 * time.Second},
	{Name: client.PreToolUse, Lucid: client.PreToolUse, Timeout: 5 * time.Second},
	{Name: client.PostToolUse, Lucid: client.PostToolUse, Timeout: 5 * time.Second},
	{Name: client.Stop, Lucid: client.Stop, Timeout: 5 * time.Second},
	{Name: client.PreCompact, Lucid: client.PreCompact, Timeout: 5 * time.Second},
	{Name: client.SessionEnd, Lucid: client.SessionEnd, Timeout: 5 * time.Second},
}

// opencode 1.18.33's tools that write work-tree files, and its subagent
// tool. apply_patch stands in for write and edit with GPT models. Kilo
// Code 7.7.9 adds background_process, which starts (or monitors) a shell
// command that goes on after the call returns.
const (
	Bash              = "bash"
	Write             = "write"
	Edit              = "edit"
	ApplyPatch        = "apply_patch"
	Task              = "task"
	BackgroundProcess = "background_process"
)

// WriteTools are the tools whose calls the plugin hands to lucid before
// they run.
var WriteTools = []string{Bash, Write, Edit, ApplyPatch, BackgroundProcess}

// payload is what the plugin sends.
type payload struct {
	SessionID, ParentID, Cwd, Tool string
	Args                           []byte
	StopHookActive, TextEnd        bool
}

func (p *payload) decode(b []byte) error {
	return jsonread.Fields(b, map[string]any{
		"sessionID": &p.SessionID, "parentID": &p.ParentID, "cwd": &p.Cwd,
		"tool": &p.Tool, "args": &p.Args, "stopHookActive": &p.StopHookActive, "textEnd": &p.TextEnd,
	})
}

// args is the part of a tool's arguments that says what it writes.
type args struct{ Command, Workdir, FilePath, PatchText string }

// Decode reads the plugin's payload. A child session is a subagent of
// its parent's: its Stop is a SubagentStop. The news goes into the
// system prompt before each model call (UserPromptSubmit, never the
// user's own prompt but after a tool's result) and after a tool ran
// (PostToolUse), never at PreToolUse, whose context nobody reads.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	var p payload
	if err := p.decode(b); err != nil {
		return client.Input{}, fmt.Errorf("payload is not a JSON object: %w", err)
	}
	in := client.Input{
		Event: event, SessionID: p.SessionID, Cwd: p.Cwd, Source: "startup", StopHookActive: p.StopHookActive,
		ToolName: p.Tool, ToolInput: p.Args,
		Caps: client.Mute.If(event == client.PreToolUse) | client.NewsAfter | client.NoPrompt.If(event == client.UserPromptSubmit) |
			client.GateLead.If(p.ParentID == "") | client.Unrecorded | client.NoRestart | client.WarnAfter.If(event == client.PostToolUse) |
			client.KeepClaims.If(p.TextEnd),
	}
	if p.ParentID != "" {
		in.SessionID, in.AgentID, in.AgentType = p.ParentID, p.SessionID, "subagent"
		switch event {
		case client.SessionStart:
			in.Event = client.SubagentStart
		case client.Stop:
			in.Event = client.SubagentStop
		}
	}
	var a args
	jsonread.Fields(p.Args, map[string]any{ // a field not a string reads as ""
		"command": &a.Command, "workdir": &a.Workdir, "filePath": &a.FilePath, "patchText": &a.PatchText,
	})
	switch p.Tool {
	case Bash, BackgroundProcess: // background_process's stop, list, logs... name no command: nothing to guard
		in.Tool, in.Command = client.ToolShell, a.Command
		if a.Workdir != "" {
			in.Cwd = resolveIn(p.Cwd, a.Workdir)
		}
	case Write, Edit:
		in.Tool = client.ToolEdit
		if a.FilePath != "" {
			in.Paths = []string{resolveIn(p.Cwd, a.FilePath)}
		}
	case ApplyPatch:
		in.Tool = client.ToolEdit
		patch, _ := applypatch.Parse(a.PatchText) // a malformed patch still names its files
		in.Paths = patch.Paths(p.Cwd)
	case Task:
		in.Tool = client.ToolAgent
	}
	return in, nil
}

// Agent is the id lucid knows the agent of session (with its parent,
// for a child session) by: what the plugin's shell.env would sign with.
func Agent(session, parent string) string {
	if parent == "" {
		return session
	}
	return agentstore.AgentID(parent, session)
}

func resolveIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// Encode writes lucid's answer as the plugin reads it (answer.Plugin).
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	return answer.Plugin(in, out)
}
