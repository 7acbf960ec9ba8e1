package hooks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/stamp"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// mayNamePlan reports whether a shell line may write the plan: it names
// plan.md, in any case where the file system folds case.
func (c *call) mayNamePlan(command string) bool {
	if strings.Contains(command, "plan.md") {
		return true
	}
	return c.repo.Names()&gitstore.FoldsCase != 0 && strings.Contains(strings.ToLower(command), "plan.md")
}

// preToolUse runs before a tool: it announces an edit of the plan, gives
// the delta, and stamps LUCID_AGENT on the lucid commands of a shell line.
func (c *call) preToolUse() (*client.Output, error) {
	if c.home {
		c.warn(c.notePlanChange(""))
		if c.in.Tool == client.ToolEdit && slices.ContainsFunc(c.in.Paths, c.isPlan) ||
			c.in.Tool == client.ToolShell && c.mayNamePlan(c.in.Command) {
			c.warn(logstore.SetPlanPending(c.repo, c.agent, c.now))
		}
	}
	w := c.writes()
	deny, warn, err := c.guardWrites(w)
	if err != nil {
		return nil, err
	}
	var stamped stamp.Line
	if c.in.Tool == client.ToolShell && !c.in.Caps.Has(client.PowerShell) {
		stamped = stamp.Lucid(c.in.Command, c.agent, shellVars(c.clients)...)
		if deny == "" {
			deny = c.stampDenial(stamped)
		}
	}
	if deny != "" {
		// The news waits for the next call: a denied call may not carry
		// additional context to the model.
		c.touch()
		return c.deny(deny), nil
	}
	if c.in.Tool == client.ToolShell && c.in.Caps.Has(client.Unrecorded) {
		c.watchShell(c.watched(w.named))
	}
	news, deny, err := c.editing(w.targets)
	c.warn(err) // awareness fails open; only a lease's denial stops the call
	if deny != "" {
		c.touch()
		return c.deny(deny), nil
	}
	aware := c.tellAware(news, beforeWrite)
	if c.pending == nil && c.noticesTaken == 0 {
		c.release() // what needed the lock is written: the delta reads ahead without it
	}
	text, facts := "", ""
	switch {
	case !c.home:
	case !c.in.Caps.Has(client.Mute):
		if text, err = c.delta(); err != nil {
			return nil, err
		}
		facts = c.factsOfTargets(w.targets)
	default:
		c.touch()
	}
	out := c.context(joinLines(warn, aware, text, facts))
	if stamped.Found {
		if out == nil {
			out = &client.Output{}
		}
		c.grantStamped(out, stamped)
	}
	return out, nil
}

// stampDenial is the reason to deny a shell line for what it does with
// lucid itself: it runs lucid hook (the client's to run: a payload piped
// into it speaks for whatever agent it names), it sets LUCID_AGENT to
// another than the caller (signing as another agent, or as a person), or it
// runs lucid where no stamp can reach (a name in a variable or a $( ),
// eval), which would run unsigned.
func (c *call) stampDenial(st stamp.Line) string {
	if st.Hook {
		return "lucid: `lucid hook` is run by your client, never by hand: a hook speaks for the agent its payload names. " +
			"Record with lucid fact|decision|note, and end your claims with lucid release."
	}
	if len(st.Env) > 0 {
		return fmt.Sprintf("lucid: this line sets or removes %s, by which lucid knows whose shell runs its commands; lucid signs your lucid commands with your own id itself. "+
			"Run them without setting, unsetting or exporting %s.", st.Env[0], st.Env[0])
	}
	for _, a := range st.Agents {
		if a != c.agent {
			return fmt.Sprintf("lucid: this line sets LUCID_AGENT (to %q); lucid signs your lucid commands with your own id itself. "+
				"Run them without setting, unsetting or exporting LUCID_AGENT.", a)
		}
	}
	if st.Unsigned != "" {
		return "lucid: " + st.Unsigned + ". lucid can sign a lucid command with your id only where it reads it: " +
			"run `lucid ...` by its plain name, directly in the command line."
	}
	return ""
}

// grantStamped gives the stamped command as the tool's new command. A
// replaced input needs a decision; "allow" skips the user's permission
// prompt, so it is given only where that widens nothing: every command is
// lucid, or the session already bypasses permissions. Otherwise "ask" keeps
// the user's say.
func (c *call) grantStamped(out *client.Output, st stamp.Line) {
	out.Command = st.Command
	if st.OnlyLucid || c.in.PermissionMode == "bypassPermissions" {
		out.Permission = "allow"
		out.PermissionReason = "lucid: a lucid command, signed with the agent's id"
	} else {
		out.Permission = "ask"
		out.PermissionReason = "lucid signed its commands in this line with LUCID_AGENT; the rest needs your usual approval"
	}
}

// afterSubagent gives the lead the delta when a subagent it ran in the
// foreground hands back: what the subagent recorded reaches the lead with
// its result, not at the lead's next edit. (A subagent in the background
// returns at once; its news comes with the notification of its end, at
// UserPromptSubmit.)
func (c *call) afterSubagent() (*client.Output, error) {
	c.warn(c.notePlanChange(""))
	text, err := c.delta()
	if err != nil {
		return nil, err
	}
	return c.context(text), nil
}

// postToolUse counts the agent's edits and records its edits of the plan,
// and, where the client showed the model nothing at PreToolUse
// (WarnAfter, NewsAfter), says what lucid said there of the call, and
// what the log knows of the files it wrote.
func (c *call) postToolUse() (*client.Output, error) {
	out, err := c.afterTool()
	if err != nil || c.in.Tool != client.ToolEdit && c.in.Tool != client.ToolShell {
		return out, err
	}
	if c.in.Caps.Has(client.NewsAfter) || c.in.Caps.Has(client.WarnAfter) {
		written := c.in.Changed // namedWrites, for a client that records nothing (Run)
		if !c.in.Caps.Has(client.Unrecorded) {
			written = namedWrites(c.in)
		}
		if facts := c.factsOf(written); facts != "" {
			if out == nil {
				out = &client.Output{}
			}
			out.Context = joinLines(out.Context, facts)
		}
	}
	if !c.in.Caps.Has(client.WarnAfter) {
		return out, nil
	}
	if !c.in.Caps.Has(client.NewsAfter) && c.home {
		// Its news waits for the next prompt, but what was said of the
		// files it just wrote (edit awareness, a notice to itself) is
		// said with the result, as the facts are.
		if notices := c.noticesText(); notices != "" {
			if out == nil {
				out = &client.Output{}
			}
			out.Context = joinLines(out.Context, notices)
		}
	}
	_, warn, err := c.guardWrites(c.writes())
	if err != nil || warn == "" {
		return out, err
	}
	if out == nil {
		out = &client.Output{}
	}
	out.Context = joinLines(warn, out.Context)
	return out, nil
}

// afterTool counts the agent's edits and records its edits of the plan.
// Only the files the agent's own call changed count: see ownShellChanges.
func (c *call) afterTool() (*client.Output, error) {
	if c.in.Tool == client.ToolAgent {
		return c.afterSubagent()
	}
	changed, err := c.ownShellChanges()
	if err != nil {
		return nil, err
	}
	if c.in.Caps.Has(client.Unrecorded) && c.in.Tool == client.ToolShell {
		// In.Changed is what the command names as written (Run read it):
		// the same work trees its PreToolUse watched.
		changed = append(changed, c.shellChanged(c.watched(c.in.Changed))...)
	}
	if !c.home {
		// Outside a lucid work tree: only what the call did to guarded
		// files counts, and is told.
		if c.in.Tool != client.ToolShell || len(changed) == 0 {
			return nil, nil
		}
		line, err := c.violations(changed)
		if err != nil {
			return nil, err
		}
		return c.context(joinLines(line, c.awareAfter(changed))), nil
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
		c.warn(c.notePlanChange(""))
	}
	news := ""
	if c.in.Caps.Has(client.NewsAfter) {
		if news, err = c.delta(); err != nil {
			return nil, err
		}
	}
	if len(changed) == 0 {
		c.touch()
		return c.context(news), nil
	}
	err = c.update(func(rec *agentstore.Record) {
		rec.Edits += len(changed)
		if editedPlan {
			rec.Entries++ // a plan change counts as reporting
		}
	})
	if err != nil {
		return nil, err
	}
	line := ""
	if c.in.Tool == client.ToolShell {
		if line, err = c.violations(changed); err != nil {
			return nil, err
		}
	}
	return c.context(joinLines(line, c.awareAfter(changed), news)), nil
}

// awareAfter records in the files' markers what the call changed that its
// PreToolUse did not know of (a shell command's files, as its client or
// lucid's watch tells them), and returns what the caller is told of
// others' changes to them. A file its PreToolUse recorded a moment ago
// costs one read.
func (c *call) awareAfter(changed []string) string {
	var ts []target
	for _, p := range changed {
		ts = append(ts, c.locate(p)...)
	}
	news, _, err := c.editing(ts)
	c.warn(err)
	return c.tellAware(news, afterWrite)
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
	// Only files of work trees lucid guards count as edits (a shell
	// command's temp files do not).
	var own []string
	for _, p := range c.in.Changed {
		if len(c.locate(p)) > 0 {
			own = append(own, c.abs(p))
		}
	}
	if len(c.in.Unsure) == 0 {
		return own, nil
	}
	var targets []target
	for _, p := range c.in.Unsure {
		targets = append(targets, c.locate(p)...)
	}
	for _, group := range byRepository(targets) {
		set, err := c.claimsFor(group)
		if err != nil {
			return own, err
		}
		for _, t := range group {
			if set.Owns(c.agent, t.repo.Top, t.rel) && len(set.Check(c.agent, t.repo.Top, t.rel)) == 0 && !slices.Contains(own, t.path) {
				own = append(own, t.path)
			}
		}
	}
	return own, nil
}

// factsOf is what the log knows of the files a writing call names (see
// fileFacts); trouble with it is a line on stderr, and the rest of the
// answer goes out.
func (c *call) factsOf(paths []string) string {
	var rels []string
	for _, p := range paths {
		rel, err := c.repo.Rel(c.abs(p))
		if err != nil {
			continue
		}
		rel = gitstore.OnDisk(c.repo.Names(), c.repo.Top, rel)
		if !slices.Contains(rels, rel) {
			rels = append(rels, rel)
		}
	}
	return c.factsOfRels(rels)
}

// factsOfTargets is factsOf the files of the call's work tree that the
// guard found the call writes.
func (c *call) factsOfTargets(ts []target) string {
	var rels []string
	for _, t := range ts {
		if t.repo != c.repo || t.tree || t.under != "" || t.by != "" {
			continue
		}
		if t.names != 0 {
			_, t.rel = onDisk(t) // the file's own name heads what is told of it
		}
		if !slices.Contains(rels, t.rel) {
			rels = append(rels, t.rel)
		}
	}
	return c.factsOfRels(rels)
}

func (c *call) factsOfRels(rels []string) string {
	if c.in.Tool != client.ToolEdit && c.in.Tool != client.ToolShell || !c.home {
		return ""
	}
	text, err := c.fileFacts(rels)
	c.warn(err)
	return text
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
