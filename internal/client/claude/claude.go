// Package claude holds all lucid knows of Claude Code (2.1.332): its
// hooks' payloads decoded into lucid's client.Input and lucid's answer
// encoded as it honours it (the payloads in
// testdata/payloads/claude-code-2.1.332); the events lucid registers;
// its settings, status line, /lucid:dream command and user hooks as lucid
// init writes them; and doctor's checks of it. Its names, its agents'
// shells and its agent teams' teammates are its identity
// (client/identity), which it embeds.
package claude

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/client/claudeshape"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Client is Claude Code. Its event names are lucid's own.
type Client struct{ identity.Claude }

// Events are the events lucid registers in Claude Code.
func (Client) Events() []client.Event { return events }

// members are the members of Claude Code's payloads that lucid reads:
// all of them, since the shape is Claude Code's.
const members = claudeshape.Common | claudeshape.PermissionMode | claudeshape.AgentID | claudeshape.AgentType |
	claudeshape.TeammateName | claudeshape.TaskID | claudeshape.ToolResponse

// toolInput is the part of a tool's input lucid reads: file_path (Edit,
// Write, MultiEdit), notebook_path (NotebookEdit), command (Bash). Input
// that is not an object, or a member that is not a string, reads as empty.
type toolInput struct {
	FilePath, NotebookPath, Command string
}

func (ti *toolInput) decode(b []byte) {
	jsonread.Fields(b, map[string]any{"file_path": &ti.FilePath, "notebook_path": &ti.NotebookPath, "command": &ti.Command})
}

// bashResponse is the part of a Bash tool_response lucid reads: Claude
// Code's own record of the files the command changed.
//
// Shared marks a diff that Claude Code took while other commands ran too
// (two agents' Bash calls that overlap in time): it then lists the files
// of all of them, with nothing saying which was whose.
type bashResponse struct {
	ChangedFiles []string
	Shared       bool
	// Recorded is false when the response carries no diff (permission
	// modes other than bypassPermissions and auto, unless the user turned
	// it on), or one Claude Code skipped (a plain git whole-tree command):
	// then it says nothing of what the command changed.
	Recorded bool
}

// decode reads tool_response.bashEditDiff; what is not there reads as
// empty.
func (br *bashResponse) decode(b []byte) {
	jsonread.Fields(b, map[string]any{"bashEditDiff": func(diff []byte) error {
		skipped := false
		err := jsonread.Fields(diff, map[string]any{"changedFiles": &br.ChangedFiles, "shared": &br.Shared, "skipped": &skipped})
		br.Recorded = err == nil && !skipped
		return err
	}})
}

// Decode reads the payload. Tool input that is not what lucid expects
// reads as empty.
func (Client) Decode(event string, b []byte) (client.Input, error) {
	p, err := claudeshape.Decode(b, members)
	if err != nil {
		return client.Input{}, err
	}
	in := p.Input(event)
	if p.Cwd == "" {
		// Claude Code gives its hooks the folder the session started in.
		in.ProjectDir = os.Getenv("CLAUDE_PROJECT_DIR")
	}
	if event == client.TaskCompleted && p.AgentID == "" && p.TeammateName == "" && p.TaskID != "" {
		// The lead closed the task: the payload names nobody, but the
		// task list Claude Code keeps on disk names its owner.
		in.TeammateName = taskOwner(p.SessionID, p.TaskID)
	}
	if p.ToolName == "" {
		return in, nil
	}
	var ti toolInput
	ti.decode(p.ToolInput)
	// Claude Code's tools, as lucid reads them: the edit tools write the
	// one file their input names; Agent (Task in older clients) runs a
	// subagent.
	switch p.ToolName {
	case "Edit", "Write", "NotebookEdit", "MultiEdit":
		in.Tool = client.ToolEdit
		if path := ti.path(); path != "" {
			in.Paths = []string{path}
		}
	case "Bash":
		in.Tool, in.Command = client.ToolShell, ti.Command
		if event == client.PreToolUse {
			// lucid watches the claimed files itself where no record of
			// what the command changed will come.
			in.Caps |= client.Unrecorded.If(!diffComes(p.PermissionMode, ti.Command))
		}
	case "Agent", "Task":
		in.Tool = client.ToolAgent
	}
	if event != client.PostToolUse {
		return in, nil
	}
	switch in.Tool {
	case client.ToolEdit:
		in.Changed = in.Paths
	case client.ToolShell:
		var br bashResponse
		br.decode(p.ToolResponse)
		if !br.Recorded {
			in.Caps |= client.Unrecorded // hooks.Run reads what the command names
			return in, nil
		}
		in.Changed = br.ChangedFiles
		if br.Shared {
			// Another command's diff may hold this one's files and this
			// one's none of them (two teammates' commands at once: one
			// got both files, the other an empty diff): what the command
			// names as written counts as its own, whichever diff has it.
			writes := shell.Writes(in.Command, in.Cwd)
			_, in.Unsure = splitNamed(in.Changed, writes)
			in.Changed = nil
			for _, w := range writes {
				in.Changed = append(in.Changed, w.Path)
			}
		}
	}
	return in, nil
}

func (ti toolInput) path() string {
	if ti.FilePath != "" {
		return ti.FilePath
	}
	return ti.NotebookPath
}

// splitNamed splits a shared diff's changed files into those the command
// names as written (a path, or a file under a folder it writes whole) and
// the rest.
func splitNamed(changed []string, writes []shell.Write) (named, rest []string) {
	for _, p := range changed {
		p = filepath.Clean(p)
		ok := false
		for _, w := range writes {
			if _, in := gitstore.Inside(filepath.Clean(w.Path), p); in {
				ok = true
				break
			}
		}
		if ok {
			named = append(named, p)
		} else {
			rest = append(rest, p)
		}
	}
	return named, rest
}

// taskOwner is the owner (a teammate's name) of task id, as Claude Code
// keeps it in its task list: $CLAUDE_CONFIG_DIR (default ~/.claude)
// /tasks/session-<first 8 of the session id>/<id>.json, the team's file of
// the task. "" when it cannot be read.
func taskOwner(session, id string) string {
	dir := ConfigDir()
	if dir == "" || len(session) < 8 || strings.ContainsAny(id, "/\\") || id == ".." {
		return ""
	}
	f, err := os.Open(filepath.Join(dir, "tasks", "session-"+session[:8], id+".json"))
	if err != nil {
		return ""
	}
	defer f.Close()
	var task struct {
		Owner string `json:"owner"`
	}
	if json.NewDecoder(io.LimitReader(f, 1<<20)).Decode(&task) != nil {
		return ""
	}
	return task.Owner
}

// Encode writes lucid's answer in the form Claude Code honours (package
// answer).
func (Client) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	return answer.Encode(in, out)
}
