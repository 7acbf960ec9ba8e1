package hooks

import (
	"time"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/talk"
	"github.com/lucid-dev/lucid/merge"
)

// record returns the caller's record, making a new one at its first look:
// the cursor at the log's end and KnownBefore now, so an agent that meets
// lucid mid-session is not flooded with the whole log.
func (c *call) record() (agentstore.Record, bool, error) {
	if c.pending != nil && c.pending.ID == c.agent {
		return *c.pending, false, nil
	}
	if rec, _, ok := agentstore.Load(c.repo, c.agent); ok {
		return rec, false, nil
	}
	cur, err := logstore.EndCursor(c.repo.LogPath())
	if err != nil {
		return agentstore.Record{}, false, err
	}
	rec := agentstore.Record{
		ID:       c.agent,
		Type:     c.in.AgentType,
		Client:   c.in.Client,
		Lich:     c.lichSession(),
		Worktree: c.repo.Top,
		Started:  c.now.UTC().Format(logformat.TimeFormat),
		Cursor:   cur,
	}
	if c.in.Event != client.SessionStart && c.in.Event != client.SubagentStart {
		c.noteStart(&rec) // a start notes it with the digest (giveDigest)
	}
	// A client with no start event: the digest waits for the agent's first
	// call that can carry it, as after a compaction, also where a denied
	// call saves the record first.
	rec.Compacted = c.in.Caps.Has(client.NoStart)
	return rec, true, nil
}

// noteStart marks now as the agent's start: what the log holds now, it
// knows (from its digest, or as what came before it), also when a rewrite
// of the log brings it again; what another branch brings later, however
// old, is news.
func (c *call) noteStart(rec *agentstore.Record) {
	rec.KnownBefore = c.now.UnixMilli()
	rec.StartHead = logstore.Head(c.repo)
	ids, err := logstore.NewestIDs(c.repo.LogPath(), logstore.StartWindow)
	if err == nil {
		err = logstore.SaveStart(c.repo, c.agent, ids)
	}
	c.warn(err)
}

// update changes the caller's record under the repository's lock, so that
// it does not undo what a concurrent hook of the same agent saved.
func (c *call) update(change func(*agentstore.Record)) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	rec, _, err := c.record()
	if err != nil {
		return err
	}
	change(&rec)
	if c.pending != nil {
		c.pending = &rec // saved with the answer
		return nil
	}
	return agentstore.Save(c.repo, rec)
}

// touch refreshes the caller's last-seen time, creating its record if it
// has none.
func (c *call) touch() {
	if !c.home {
		return // outside a lucid work tree the caller has no record
	}
	if agentstore.Touch(c.repo, c.agent) {
		return
	}
	rec, created, err := c.record()
	if err == nil && created {
		err = agentstore.Save(c.repo, rec)
	}
	c.warn(err)
}

// healedLine opens the digest of the session that set up the merge driver.
const healedLine = "lucid: set up the merge driver of .lucid/log.jsonl in this clone's git config (a fresh clone lacks it), so merges keep every agent's entries.\n\n"

// start gives a starting agent (SessionStart of any source, SubagentStart)
// the digest and moves its cursor to the log's end: the digest covers what
// came before.
//
// A teammate of an agent team gets SubagentStart each time it is woken for
// new work, with the same agent id, and Claude Code 2.1.332 shows the model
// what that hook says only at the agent's first start (seen with the real
// client: its conversation goes on, the first digest still in it). So a
// known agent's later start says nothing and leaves its cursor alone: its
// news rides its next tool call, and after a compaction (preCompact) the
// digest does.
func (c *call) start() (*client.Output, error) {
	c.warn(c.notePlanChange(""))
	rec, created, err := c.record()
	if err != nil {
		return nil, err
	}
	if c.in.Event == client.SubagentStart && !created {
		c.touch()
		return nil, nil
	}
	if c.in.AgentType != "" {
		rec.Type = c.in.AgentType
	}
	if c.in.Caps.Has(client.Mute) {
		// The client shows the model nothing from this start (Qwen Code's
		// SubagentStart): the digest waits for the agent's first delta,
		// as after a compaction.
		rec.Compacted = true
		return nil, c.update(func(r *agentstore.Record) { *r = rec })
	}
	text, err := c.giveDigest(rec)
	return c.context(text), err
}

// giveDigest returns the digest for the agent of rec; rec, with its cursor
// at the log's end and its compaction forgotten, is saved with the answer.
//
// Everything it says is within the digest's budget (LUCID_BUDGET, at
// most MaxBudget): the questions the agent has not answered, and the line
// that says the merge driver was set up, are counted in it.
func (c *call) giveDigest(rec agentstore.Record) (string, error) {
	budget := BudgetFromEnv()
	// A fresh clone has the committed .gitattributes but not the driver,
	// which lives in the git config: set it up once, and say so.
	healed, err := merge.InstallConfig(c.repo)
	healed = healed && err == nil
	if healed {
		budget -= len(healedLine)
	}
	// The questions still waiting for this agent's answer were in the
	// conversation a compaction dropped: say them again.
	var qs []logformat.Entry
	if started, err := time.Parse(logformat.TimeFormat, rec.Started); err == nil {
		qs, _ = talk.Unanswered(c.repo, c.agent, started)
	}
	d, err := BuildDigest(c.repo, DigestOptions{Now: c.now, Budget: budget, Questions: qs, Naming: c.naming})
	if err != nil {
		return "", err
	}
	if healed {
		d.Text = healedLine + d.Text
	}
	// The digest covers everything before now, so everything before now
	// counts as seen, also after a compaction or a resume.
	if cur, err := logstore.EndCursor(c.repo.LogPath()); err == nil {
		rec.Cursor = cur
		rec.Worktree = c.repo.Top
		c.noteStart(&rec)
		rec.Seen, rec.SeenBefore = nil, 0
		rec.Given = digestCites(d) // a compaction took the others from its context
	}
	rec.Compacted = false
	if err := c.hold(); err != nil {
		return "", err
	}
	c.pending = &rec
	return d.Text, nil
}

// delta returns the news for the caller as text, and saves its record. An
// agent whose conversation was compacted since it last looked gets the
// digest instead: what it was told is gone from its context.
func (c *call) delta() (string, error) {
	rec, created, err := c.record()
	if err != nil {
		return "", err
	}
	c.looked = &rec
	if created && c.in.Caps.Has(client.NoStart) {
		if text, ok, err := c.firstDigest(rec); ok || err != nil {
			return text, err
		}
	}
	if rec.Compacted {
		if text, ok, err := c.digestOnce(); ok || err != nil {
			return text, err
		}
	}
	notices := c.noticesText()
	if !created && c.logUnchanged(rec) {
		agentstore.Touch(c.repo, c.agent)
		return notices, nil
	}
	entries, err := c.takeNews(&rec, created)
	if err != nil {
		return "", err
	}
	return joinLines(notices, c.formatDelta(entries, BudgetFromEnv())), nil
}

// firstDigest gives a new agent of a client with no start event the
// digest, if its record is still not there under the lock: of two first
// calls at once, one gives it, and the other nothing.
func (c *call) firstDigest(rec agentstore.Record) (string, bool, error) {
	if err := c.hold(); err != nil {
		return "", false, err
	}
	if _, _, ok := agentstore.Load(c.repo, c.agent); ok {
		return "", true, nil
	}
	text, err := c.giveDigest(rec)
	return text, true, err
}

// digestOnce gives the caller the digest if its record still asks for one
// under the lock: of two hooks of the agent at once, one gives it. The lock
// is held until the answer is out.
func (c *call) digestOnce() (string, bool, error) {
	if err := c.hold(); err != nil {
		return "", false, err
	}
	rec, _, ok := agentstore.Load(c.repo, c.agent)
	if !ok || !rec.Compacted {
		return "", false, nil
	}
	text, err := c.giveDigest(rec)
	return text, true, err
}

// takeNews reads the caller's new entries and moves its cursor past them,
// under the lock, which stays held until the answer is out and the record
// saved (see newEntries).
func (c *call) takeNews(rec *agentstore.Record, created bool) ([]logformat.Entry, error) {
	var ahead *readAhead
	if !c.appended(*rec) {
		if entries, cur, err := c.unread(*rec, nil); err == nil {
			ahead = &readAhead{entries, cur}
		}
	}
	if err := c.hold(); err != nil {
		return nil, err
	}
	entries, changed, err := c.newEntries(rec, ahead)
	if err != nil {
		return nil, err
	}
	if changed || created {
		saved := *rec
		c.pending = &saved
	}
	return entries, nil
}

// userPrompt gives the delta before the model reads the user's prompt, and
// reminds a lead whose workers hold claims to put a change of plan in
// plan.md, where running workers will see it.
func (c *call) userPrompt() (*client.Output, error) {
	c.warn(c.notePlanChange(""))
	text, err := c.delta()
	if err != nil {
		return nil, err
	}
	if c.in.AgentID == "" && !c.in.Caps.Has(client.NoPrompt) && c.othersClaim() {
		text = joinLines(planFirst, text)
	}
	return c.context(text), nil
}
