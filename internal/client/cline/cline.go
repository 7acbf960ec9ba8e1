// Package cline holds all lucid knows of Cline's CLI (3.0.65, the Bun
// binary built on the Cline SDK): its hook files' payloads decoded into
// lucid's client.Input and lucid's answer encoded as it honours it (the
// payloads in testdata/payloads/cline-3.0.65, whose NOTES.md says what the
// real binary did); lucid's own hook files in .clinerules/hooks/ (and,
// with --user, in ~/.cline/hooks/); and doctor's checks. Its agents'
// shells are told by its identity (client/identity), which it embeds.
//
// What differs from every other client:
//   - A hook is a file named by its event (PreToolUse, TaskStart, ...),
//     run with no arguments, whatever its exit code; the payload names the
//     event by Cline's internal name (tool_call, agent_start, ...).
//   - Only PreToolUse and PostToolUse are waited for. Every other event
//     is spawned detached and its output ignored, so the digest at a
//     start, a stop gate at the end of a run, or anything said at
//     TaskComplete never reaches the model: the start's digest rides the
//     agent's first tool call (Mute), and no Stop can take another turn.
//   - {"cancel": true} ends the whole run, never one tool, and the model
//     never sees why. So lucid refuses one tool by replacing its input
//     (overrideInput, which Cline runs instead and does not check again):
//     a shell command by one that prints the reason and fails, an edit by
//     a path no file system takes (it holds a NUL byte), so that the
//     editor fails before it writes; the reason goes to the model beside
//     the failed result as hook context (contextModification), and the
//     agent goes on.
//   - PreToolUse's context reaches the model with the tool's result, in
//     the next request, as PostToolUse's does: both carry news.
//   - A run_commands call holds a list of commands, each run apart by
//     /bin/bash -c in the folder Cline started in.
//   - The payload has no cwd (the hook's own is Cline's start folder) and
//     its agents' shells no ids at all, so lucid signs the agent's lucid
//     commands by replacing the commands (overrideInput).
//   - No PreCompact ever runs (the name maps to no event) and no start
//     follows a compaction: the digest after one is not given.
package cline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/jsonread"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// Client is Cline's CLI.
type Client struct{ identity.Cline }

// Cline's own names of the hook files lucid writes: each is the event.
const (
	TaskStart       = "TaskStart"
	TaskResume      = "TaskResume"
	PreToolUse      = "PreToolUse"
	PostToolUse     = "PostToolUse"
	TaskComplete    = "TaskComplete"
	TaskError       = "TaskError"
	SessionShutdown = "SessionShutdown"
)

// Cline 3.0.65's tools that write work-tree files, and its subagent tool.
// The others (read_files, search_codebase, fetch_web_content,
// ask_question, submit_and_exit, team_*) write nothing; a sub-agent's
// writes come through these same names.
const (
	Editor      = "editor"       // create (no old_text), replace (old_text) or insert (insert_line)
	RunCommands = "run_commands" // {"commands": [...]}, each run by /bin/bash -c
	SpawnAgent  = "spawn_agent"
)

// Events are the Cline events lucid registers.
func (Client) Events() []client.Event { return events }

// payload is the part of a Cline hook payload lucid reads.
type payload struct {
	Root    struct{ RootSessionID string }
	Roots   []string
	Info    struct{ RootPath string }
	AgentID string
	Parent  string // "" for the lead (null)
	Call    struct {
		Name  string
		Input []byte
	}
}

func (p *payload) decode(b []byte) error {
	var session, info, call []byte
	if err := jsonread.Fields(b, map[string]any{
		"sessionContext": &session, "workspaceRoots": &p.Roots, "workspaceInfo": &info,
		"agent_id": &p.AgentID, "parent_agent_id": &p.Parent,
		"tool_call": &call, "tool_result": &call,
	}); err != nil {
		return err
	}
	if session != nil && string(session) != "null" {
		if err := jsonread.Fields(session, map[string]any{"rootSessionId": &p.Root.RootSessionID}); err != nil {
			return err
		}
	}
	if info != nil && string(info) != "null" {
		jsonread.Fields(info, map[string]any{"rootPath": &p.Info.RootPath}) // a bad one reads as ""
	}
	if call != nil && string(call) != "null" {
		if err := jsonread.Fields(call, map[string]any{"name": &p.Call.Name, "input": &p.Call.Input}); err != nil {
			return err
		}
	}
	return nil
}

// input is the part of a tool's input that says what it writes.
type input struct {
	Path     string
	Commands []string
}

// Decode reads the payload. The lead is the root session
// (sessionContext.rootSessionId, the same across prompts, sub-agents and
// resumes); a sub-agent, whose parent_agent_id is set, is its agent_id in
// that session. The event a file stands for depends on who calls it:
// TaskStart is a sub-agent's start or the lead's, and TaskComplete and
// TaskError end a sub-agent's run (its claims end) or the lead's turn.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	var p payload
	if err := p.decode(b); err != nil {
		return client.Input{}, fmt.Errorf("payload is not a JSON object: %w", err)
	}
	sub := p.Parent != ""
	root := p.Info.RootPath
	if root == "" && len(p.Roots) > 0 {
		root = p.Roots[0]
	}
	in := client.Input{
		ProjectDir: root, SessionID: p.Root.RootSessionID, Cwd: startDir(root),
		ToolName: p.Call.Name, ToolInput: p.Call.Input,
		// Nothing says what a command wrote; no start follows a
		// compaction.
		Caps: client.Unrecorded | client.NoRestart,
	}
	if sub {
		in.AgentID = p.AgentID
	}
	switch event {
	case TaskStart, TaskResume:
		in.Event, in.Source = client.SessionStart, "startup"
		if event == TaskResume {
			in.Source = "resume"
		}
		if sub {
			in.Event, in.Source = client.SubagentStart, ""
		}
		in.Caps |= client.Mute // spawned detached, its output ignored
	case PreToolUse, PostToolUse:
		in.Event = client.PreToolUse
		if event == PostToolUse {
			in.Event = client.PostToolUse
		}
	case TaskComplete, TaskError:
		in.Event = client.Stop
		if sub {
			in.Event = client.SubagentStop
		}
		in.Caps |= client.Mute
	case SessionShutdown:
		in.Event = client.SessionEnd
		in.Caps |= client.Mute
	default:
		return client.Input{}, fmt.Errorf("unknown Cline event %q", event)
	}
	var a input
	switch p.Call.Name {
	case Editor:
		in.Tool = client.ToolEdit
		if jsonread.Fields(p.Call.Input, map[string]any{"path": &a.Path}) == nil && a.Path != "" {
			in.Paths = []string{resolveIn(in.Cwd, a.Path)}
		}
	case RunCommands:
		in.Tool = client.ToolShell
		jsonread.Fields(p.Call.Input, map[string]any{"commands": &a.Commands}) // not a list of strings reads as none
		in.Command = joinCommands(a.Commands)
	case SpawnAgent:
		in.Tool = client.ToolAgent
	}
	return in, nil
}

// joinCommands is run_commands' list as one command line that does what
// the list does: each command runs apart, in the start folder, whether the
// one before failed or not; a subshell keeps one's cd and variables from
// the next.
func joinCommands(cmds []string) string {
	switch len(cmds) {
	case 0:
		return ""
	case 1:
		return cmds[0]
	}
	parts := make([]string, len(cmds))
	for i, c := range cmds {
		parts[i] = "(\n" + c + "\n)"
	}
	return strings.Join(parts, "\n")
}

// startDir is the folder Cline started in, which its payloads do not name:
// the hook's own working folder (Cline runs hooks there), where it is in
// the workspace; else the workspace's root, the git work tree's top.
func startDir(root string) string {
	wd, err := os.Getwd()
	if err != nil || root == "" {
		return root
	}
	if _, ok := gitstore.Inside(root, wd); ok {
		return wd
	}
	return root
}

func resolveIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// output is what a Cline hook prints: the whole of stdout as one JSON
// object.
type output struct {
	Context       string          `json:"contextModification,omitempty"`
	OverrideInput json.RawMessage `json:"overrideInput,omitempty"`
}

// refusedPath is where a refused edit goes instead: a relative path with a
// NUL byte, which every file system call refuses before it touches a
// file, so the editor fails and writes nothing, the reason's first words
// in its error.
const refusedPath = "lucid refused this edit\x00 (see the hook context)"

// Encode writes lucid's answer. A deny replaces the tool's input with one
// that fails without writing (see the package's comment), and puts the
// reason beside its result; a signed command is the tool's input with the
// commands replaced by the one signed line. Context goes as
// contextModification, which only Pre- and PostToolUse deliver; a Block
// (the stop gate) cannot be given, since no event Cline waits for ends a
// run. Never cancel: it ends the whole run, and the model never reads
// why. The exit code means nothing to Cline; lucid's is 0.
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	if in.Event != client.PreToolUse && in.Event != client.PostToolUse {
		return nil, "", 0
	}
	var o output
	switch {
	case out.Deny != "":
		o.Context = out.Deny
		o.OverrideInput = refusal(in, out.Deny)
	default:
		o.Context = out.Context
		if out.Command != "" && in.Tool == client.ToolShell {
			o.OverrideInput = withCommands(in.ToolInput, []string{out.Command})
		}
	}
	if o.Context == "" && o.OverrideInput == nil {
		return nil, "", 0
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err.Error(), 0
	}
	return append(b, '\n'), "", 0
}

// refusal is the input that runs in place of a refused call's: for the
// shell, a command that prints the reason on stderr and fails; for the
// editor, the same call at a path no file system takes. Any other tool
// (none lucid refuses) keeps its input and gets the context alone.
func refusal(in client.Input, reason string) json.RawMessage {
	switch in.Tool {
	case client.ToolShell:
		line := "printf '%s\\n' " + shellword.Quote(reason) + " >&2; exit 1"
		return withCommands(in.ToolInput, []string{line})
	case client.ToolEdit:
		var m map[string]json.RawMessage
		if json.Unmarshal(in.ToolInput, &m) != nil || m == nil {
			m = map[string]json.RawMessage{}
		}
		m["path"], _ = json.Marshal(refusedPath)
		b, err := json.Marshal(m)
		if err != nil {
			return nil
		}
		return b
	}
	return nil
}

// withCommands is run_commands' input with its commands replaced: the
// whole input, since overrideInput replaces it all.
func withCommands(toolInput []byte, cmds []string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(toolInput, &m) != nil || m == nil {
		m = map[string]json.RawMessage{}
	}
	m["commands"], _ = json.Marshal(cmds)
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}
