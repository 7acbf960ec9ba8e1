// Package pi holds all lucid knows of Pi (0.73.1; its successor package
// 1.6.0) and its fork oh-my-pi (omp, 18.2.3), which have no shell hooks
// but extensions that run inside the agent: lucid's extension
// (extension.js, embedded here) that lucid init writes where they load
// it, the payloads that extension hands to `lucid hook --client pi|omp
// EVENT` decoded into lucid's client.Input, lucid's answer encoded as the
// extension acts on it, and doctor's checks. The agents' shells are told
// by their identity (client/identity), which it embeds.
//
// The extension runs inside Pi; lucid's decisions stay here. It calls
// lucid with one JSON object on stdin:
//
//	{"sessionID": "01a2…",   the session whose event fired
//	 "parentID": "01a2…",    omp: its parent, for a subagent's session
//	 "cwd": "/…",            the session's folder
//	 "source": "startup",    SessionStart: startup, resume or compact
//	 "tool": "bash",         PreToolUse and PostToolUse: the tool,
//	 "callID": "call_…",     the call
//	 "args": {…},            and its arguments as the model sent them
//	 "stopHookActive": true, Stop: the gate kept it going once already
//	 "gate": true}           Stop: the model's last message ended; the
//	                         agent may yet take one more turn
//
// and reads one JSON object back: {"deny": reason} (the extension blocks
// the tool call with it: the model reads the reason as the tool's
// result), {"context": text} (the digest at the end of the system prompt
// of every prompt; news as a message the session keeps, or appended to a
// tool's result after it ran), {"block": text} (one more turn, its
// prompt). No answer, or any trouble, lets the call go on.
//
// Pi takes one more turn only when it is asked for as the assistant's
// last message ends (message_end), synchronously: the gate runs there and
// ends no claim; agent_end ends them. omp asks its session_stop handlers,
// which may answer {continue, additionalContext}. A compaction keeps the
// system prompt but drops the news: the extension asks for the digest
// anew (SessionStart, source compact).
//
// Pi has no subagents of its own; omp's task tool runs them in the same
// process, a session each whose header names its parent's: such a session
// is the lead's with the child's id as the agent. The extension signs the
// agents' shells: Pi's bash tool runs with Pi's own process.env, where it
// sets LUCID_PI_AGENT; omp's reads no process.env of an extension's, and
// takes LUCID_OMP_AGENT in its env argument. The extension's own lucid
// hook calls carry LUCID_PI_HOOK=1 instead. Pi says nothing of what a
// shell command wrote, so lucid's own watch of the claimed files tells.
package pi

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Client is Pi.
type Client struct{ identity.Pi }

// Events are the events the extension calls lucid with; their names are
// lucid's. A call's timeout is the extension's own bound.
func (Client) Events() []client.Event { return events }

var events = []client.Event{
	{Name: client.SessionStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: client.UserPromptSubmit, Lucid: client.UserPromptSubmit, Timeout: 5 * time.Second},
	{Name: client.PreToolUse, Lucid: client.PreToolUse, Timeout: 5 * time.Second},
	{Name: client.PostToolUse, Lucid: client.PostToolUse, Timeout: 5 * time.Second},
	{Name: client.Stop, Lucid: client.Stop, Timeout: 5 * time.Second},
	{Name: client.PreCompact, Lucid: client.PreCompact, Timeout: 5 * time.Second},
	{Name: client.SessionEnd, Lucid: client.SessionEnd, Timeout: 2 * time.Second},
}

// The tools of Pi 0.73.1 and omp 18.2.3 that write work-tree files or run
// a shell. omp's ast_edit rewrites the files of a path by pattern.
const (
	Bash    = "bash"
	Write   = "write"
	Edit    = "edit"
	AstEdit = "ast_edit"
)

// payload is what the extension sends.
type payload struct {
	SessionID, ParentID, Cwd, Source, Tool string
	Args                                   []byte
	StopHookActive, Gate                   bool
}

func (p *payload) decode(b []byte) error {
	return jsonread.Fields(b, map[string]any{
		"sessionID": &p.SessionID, "parentID": &p.ParentID, "cwd": &p.Cwd, "source": &p.Source,
		"tool": &p.Tool, "args": &p.Args, "stopHookActive": &p.StopHookActive, "gate": &p.Gate,
	})
}

// args is the part of a tool's arguments that says what it writes: Pi's
// and omp's path; omp's patch text of its edit tool (input, in its
// default hashline mode and its apply_patch mode), the renames of its
// patch mode, and ast_edit's paths.
type args struct {
	Command, Cwd, Path, Input string
	Edits                     []struct{ Rename string }
	Paths                     []string
}

// Decode reads the extension's payload. A session with a parent (omp's
// subagent) is a subagent of its parent's: its start is a SubagentStart,
// its Stop a SubagentStop. Nothing the model reads can come with a tool
// call but its denial (PreToolUse is mute): the news and what lucid said
// of the call come after it ran.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	var p payload
	if err := p.decode(b); err != nil {
		return client.Input{}, fmt.Errorf("payload is not a JSON object: %w", err)
	}
	in := client.Input{
		Event: event, SessionID: p.SessionID, Cwd: p.Cwd, StopHookActive: p.StopHookActive,
		ToolName: p.Tool, ToolInput: p.Args,
		Caps: client.Mute.If(event == client.PreToolUse) | client.NewsAfter | client.GateLead.If(p.ParentID == "") |
			client.Unrecorded | client.WarnAfter.If(event == client.PostToolUse) | client.KeepClaims.If(p.Gate),
	}
	if event == client.SessionStart {
		switch p.Source {
		case "resume", "compact":
			in.Source = p.Source
		default:
			in.Source = "startup"
		}
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
		"command": &a.Command, "cwd": &a.Cwd, "path": &a.Path, "input": &a.Input,
	})
	json.Unmarshal(p.Args, &struct {
		Edits *[]struct{ Rename string }
		Paths *[]string
	}{&a.Edits, &a.Paths}) // either may be missing or of another shape
	switch p.Tool {
	case Bash:
		in.Tool, in.Command = client.ToolShell, a.Command
		if a.Cwd != "" { // omp's bash takes a folder
			in.Cwd = resolveIn(p.Cwd, a.Cwd)
		}
	case Write, Edit, AstEdit:
		in.Tool = client.ToolEdit
		var named []string
		if a.Path != "" {
			named = append(named, a.Path)
		}
		for _, e := range a.Edits {
			if e.Rename != "" {
				named = append(named, e.Rename)
			}
		}
		named = append(named, patchPaths(a.Input)...)
		for _, f := range a.Paths { // ast_edit's: a glob names no one file, nor a URL
			if f != "" && !strings.ContainsAny(f, "*?[{") && !strings.Contains(f, "://") {
				named = append(named, f)
			}
		}
		for _, f := range named {
			if f = resolveIn(p.Cwd, f); !slices.Contains(in.Paths, f) {
				in.Paths = append(in.Paths, f)
			}
		}
	}
	return in, nil
}

// patchPaths are the files omp's edit patch text names, in either of its
// languages: hashline's file headers "[PATH#TAG]" ("[PATH]" for a new
// file) and its move "MV DEST"; apply_patch's "*** Add File: PATH",
// "*** Update File:", "*** Delete File:" and "*** Move to:". A body line
// starts "+", "-", " " or "@@", and is none of these.
func patchPaths(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if f, ok := strings.CutPrefix(line, "MV "); ok {
			out = append(out, strings.TrimSpace(f))
			continue
		}
		if strings.HasPrefix(line, "*** ") {
			for _, h := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
				if f, ok := strings.CutPrefix(line, h); ok {
					out = append(out, strings.TrimSpace(f))
				}
			}
			continue
		}
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(line, "[") || !strings.HasSuffix(t, "]") {
			continue
		}
		f := t[1 : len(t)-1]
		if i := strings.LastIndexByte(f, '#'); i >= 0 && isHex(f[i+1:]) {
			f = f[:i]
		}
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// Agent is the id lucid knows the agent of session (with its parent,
// for an omp subagent's session) by: what the extension signs its shell
// with.
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

// Encode writes lucid's answer as the extension reads it (answer.Plugin).
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	return answer.Plugin(in, out)
}

// Omp is oh-my-pi, a fork of Pi that loads the same extension from its
// own folders (.omp/extensions/, not .pi/extensions/) and hands its calls
// to lucid hook --client omp.
type Omp struct{ Client }

func (Omp) Name() string  { return identity.Omp{}.Name() }
func (Omp) Title() string { return identity.Omp{}.Title() }

// AgentShell: omp's agents' shells carry their id under omp's name.
func (Omp) AgentShell(getenv func(string) string) (client.Shell, bool) {
	return identity.Omp{}.AgentShell(getenv)
}

// ClientProcess: omp's own program, not Pi's.
func (Omp) ClientProcess(name string, args []string) bool {
	return identity.Omp{}.ClientProcess(name, args)
}
