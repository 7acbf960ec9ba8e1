package hooks

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard"
)

// toolInput is the part of a tool's input lucid reads.
type toolInput struct {
	FilePath     string `json:"file_path"`     // Edit, Write, MultiEdit
	NotebookPath string `json:"notebook_path"` // NotebookEdit
	Command      string `json:"command"`       // Bash
}

// readTool reads the tool's input and, after the call, the files it
// changed: an edit tool's path, or what Claude Code recorded of a Bash
// command (bashEditDiff.changedFiles). Input that is not what lucid
// expects reads as empty.
func (in *Input) readTool() {
	if in.ToolName == "" {
		return
	}
	json.Unmarshal(in.ToolInput, &in.tool)
	if in.Event != "PostToolUse" {
		return
	}
	switch {
	case editTools[in.ToolName]:
		if p := in.tool.path(); p != "" {
			in.changed = []string{p}
		}
	case in.ToolName == "Bash":
		var br bashResponse
		json.Unmarshal(in.ToolResponse, &br)
		in.changed = br.BashEditDiff.ChangedFiles
		if br.BashEditDiff.Shared {
			in.changed, in.unnamed = splitNamed(in.changed, guard.ShellWrites(in.tool.Command, in.Cwd))
		}
	}
}

// splitNamed splits a shared diff's changed files into those the command
// names as written (a path, or a file under a folder it writes whole) and
// the rest.
func splitNamed(changed []string, writes []guard.ShellWrite) (named, rest []string) {
	for _, p := range changed {
		p = filepath.Clean(p)
		ok := false
		for _, w := range writes {
			wp := filepath.Clean(w.Path)
			if p == wp || strings.HasPrefix(p, wp+string(filepath.Separator)) {
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

// editTools are the tools that write one file named in their input.
var editTools = map[string]bool{"Edit": true, "Write": true, "NotebookEdit": true, "MultiEdit": true}

func (ti toolInput) path() string {
	if ti.FilePath != "" {
		return ti.FilePath
	}
	return ti.NotebookPath
}

// preToolUse runs before a tool: it announces an edit of the plan, gives
// the delta, and stamps LUCID_AGENT on the lucid commands of a Bash line.
func (c *call) preToolUse() (*Output, error) {
	ti := c.in.tool
	c.notePlanChange("")
	if (editTools[c.in.ToolName] && c.isPlan(ti.path())) ||
		(c.in.ToolName == "Bash" && strings.Contains(ti.Command, "plan.md")) {
		c.repo.SetPlanPending(c.agent, c.now)
	}
	deny, warn, err := c.guardWrites(c.writes(ti))
	if err != nil {
		return nil, err
	}
	if deny != "" {
		// The news waits for the next call: a denied call may not carry
		// additional context to the model.
		c.touch()
		return c.deny(deny), nil
	}
	text, err := c.delta()
	if err != nil {
		return nil, err
	}
	out := c.context(joinLines(warn, text))
	if c.in.ToolName == "Bash" {
		if st := guard.StampLucid(ti.Command, c.agent); st.Found {
			if out == nil {
				out = &Output{Specific: &Specific{HookEventName: c.in.Event}}
			}
			c.grantStamped(out.Specific, st)
		}
	}
	return out, nil
}

// grantStamped returns the stamped command as the tool's new input. An
// updated input needs a decision; "allow" skips the user's permission
// prompt, so it is given only where that widens nothing: every command is
// lucid, or the session already bypasses permissions. Otherwise "ask" keeps
// the user's say.
func (c *call) grantStamped(s *Specific, st guard.Stamp) {
	var input map[string]json.RawMessage
	if err := json.Unmarshal(c.in.ToolInput, &input); err != nil || input == nil {
		return
	}
	cmd, _ := json.Marshal(st.Command)
	input["command"] = cmd
	updated, err := json.Marshal(input)
	if err != nil {
		return
	}
	s.UpdatedInput = updated
	if st.OnlyLucid || c.in.PermissionMode == "bypassPermissions" {
		s.PermissionDecision = "allow"
		s.PermissionDecisionReason = "lucid: a lucid command, signed with the agent's id"
	} else {
		s.PermissionDecision = "ask"
		s.PermissionDecisionReason = "lucid signed its commands in this line with LUCID_AGENT; the rest needs your usual approval"
	}
}

// bashResponse is the part of a Bash tool_response lucid reads: Claude
// Code's own record of the files the command changed.
//
// Shared marks a diff that Claude Code took while other commands ran too
// (two agents' Bash calls that overlap in time): it then lists the files
// of all of them, with nothing saying which was whose.
type bashResponse struct {
	BashEditDiff struct {
		ChangedFiles []string `json:"changedFiles"`
		Shared       bool     `json:"shared"`
	} `json:"bashEditDiff"`
}

// agentTools run a subagent: "Agent", called "Task" by older clients.
var agentTools = map[string]bool{"Agent": true, "Task": true}

// afterSubagent gives the lead the delta when a subagent it ran in the
// foreground hands back: what the subagent recorded reaches the lead with
// its result, not at the lead's next edit. (A subagent in the background
// returns at once; its news comes with the notification of its end, at
// UserPromptSubmit.)
func (c *call) afterSubagent() (*Output, error) {
	c.notePlanChange("")
	text, err := c.delta()
	if err != nil {
		return nil, err
	}
	return c.context(text), nil
}

// postToolUse counts the agent's edits and records its edits of the plan.
// Only the files the agent's own call changed count: see ownShellChanges.
func (c *call) postToolUse() (*Output, error) {
	if agentTools[c.in.ToolName] {
		return c.afterSubagent()
	}
	changed, err := c.ownShellChanges()
	if err != nil {
		return nil, err
	}
	editedPlan := false
	for _, p := range changed {
		editedPlan = editedPlan || c.isPlan(p)
	}
	if editedPlan {
		if err := c.notePlanChange(c.agent); err != nil {
			return nil, err
		}
	} else {
		c.notePlanChange("")
	}
	if len(changed) == 0 {
		c.touch()
		return nil, nil
	}
	err = c.update(func(rec *gitstore.AgentRecord) {
		rec.Edits += len(changed)
		if editedPlan {
			rec.Entries++ // a plan change counts as reporting
		}
	})
	if err != nil || c.in.ToolName != "Bash" {
		return nil, err
	}
	line, err := c.violations(changed)
	return c.context(line), err
}

// ownShellChanges returns the files the call changed that are the
// caller's own. An edit tool's file is; so is every file of a Bash
// command's diff, unless Claude Code marked the diff shared (other
// commands ran at the same time and their files are in it too). Of a shared
// diff, a file counts as the caller's only where lucid can tell: its own
// command names the file, or the file is claimed by the caller and nobody
// else. The rest is left out, at the price of missing a write lucid cannot
// pin on anyone: no agent is charged with, or told to revert, another's
// change.
func (c *call) ownShellChanges() ([]string, error) {
	own := c.in.changed
	if len(c.in.unnamed) == 0 {
		return own, nil
	}
	var targets []target
	for _, p := range c.in.unnamed {
		if t, ok := c.locate(p); ok && t.top == c.repo.Top {
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		return own, nil
	}
	set, err := c.claimsFor(targets)
	if err != nil {
		return own, err
	}
	for _, t := range targets {
		if set.Owns(c.agent, t.top, t.rel) && len(set.Check(c.agent, t.top, t.rel)) == 0 {
			own = append(own, t.path)
		}
	}
	return own, nil
}

// joinLines joins the non-empty texts, one after the other.
func joinLines(texts ...string) string {
	var out []string
	for _, t := range texts {
		if t = strings.TrimRight(t, "\n"); t != "" {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
