package hooks

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client"
)

// reportReason is what an agent that edited files but recorded nothing is
// asked, once, before it stops.
const reportReason = "Before you stop: " + reportAsk + "; then stop."

// taskReason is the same, asked of a teammate that marks its task
// completed.
const taskReason = "Before this task is closed: " + reportAsk + "; then mark the task completed again."

const reportAsk = `you edited files but recorded nothing in lucid's shared log, so the other agents cannot learn from your work. Record, with the lucid commands in your shell tool:
- decisions you made and why: lucid decision "TEXT"
- approaches that failed: lucid dead-end "TEXT"
- non-obvious facts you found, citing the file: lucid fact "TEXT" -e FILE:LINE
(lucid note "TEXT" for anything else.) Record only what is worth knowing`

// teammateReason is said to a lead that closes the task of a teammate
// which edited files and recorded nothing: the teammate is the one to ask.
const teammateReason = `Before this task is closed: %s edited files but recorded nothing in lucid's shared log, so the other agents cannot learn from its work. Ask it (SendMessage) to record its decisions (lucid decision "TEXT"), failed approaches (lucid dead-end "TEXT") and non-obvious facts (lucid fact "TEXT" -e FILE:LINE) through Bash, then close the task.`

// shouldAsk is the stop gate: it reports whether agent, about to stop or to
// close its task, is to be asked to record what it learned. That is once
// per agent, when it edited files and wrote no entry and no plan change,
// and never when Claude Code says a stop hook already kept it going
// (active). Asking marks the agent's record once the answer is out;
// nothing else changes: the cursor stays, so an agent that goes on working
// still gets its news.
func (c *call) shouldAsk(agent string, active bool) (ask bool, err error) {
	if active {
		return false, nil
	}
	// Most stops have nothing to ask, and so no wait for the lock; under
	// it, the record is read again.
	if _, ok := askable(c.repo, agent); !ok {
		return false, nil
	}
	if err := c.hold(); err != nil {
		return false, err
	}
	defer func() {
		if !ask {
			c.release() // the claims' release that follows takes the lock itself
		}
	}()
	rec, ok := askable(c.repo, agent)
	if !ok {
		return false, nil
	}
	// Its own entries since its last look are not counted yet.
	unread, _, err := c.unread(rec, nil)
	if err != nil {
		return false, err
	}
	for _, e := range unread {
		if e.Agent == agent && !e.Addressed() { // a message is not a report
			return false, nil
		}
	}
	// Saved with the answer: an agent whose question never went out is
	// asked at its next stop.
	rec.Asked = true
	c.pending = &rec
	return true, nil
}

// askable is agent's record when the stop gate may ask it: it edited files,
// and wrote no entry and no plan change, and was not asked yet. An agent
// with no record made no hook call (the fork that compacts a
// conversation): nothing to ask, and no record is made for it.
func askable(repo *gitstore.Repo, agent string) (agentstore.Record, bool) {
	rec, _, ok := agentstore.Load(repo, agent)
	return rec, ok && rec.Edits > 0 && rec.Entries == 0 && !rec.Asked
}

// subagentStop ends a subagent's run, or a teammate's turn (it goes idle):
// the stop gate asks once; then the agent's claims end.
func (c *call) subagentStop() (*client.Output, error) {
	ask, err := c.shouldAsk(c.agent, c.in.StopHookActive)
	if err != nil {
		return nil, err
	}
	if ask {
		return &client.Output{Block: reportReason}, nil
	}
	if c.in.Caps.Has(client.KeepClaims) {
		return nil, nil
	}
	err = c.releaseClaims(func(owner string) bool { return owner == c.agent })
	if _, mate := c.naming.Teammate(c.agent); !mate {
		// A subagent's run is over (a teammate only goes idle): a
		// message to it would not be read.
		c.warn(agentstore.MarkEnded(c.repo, c.agent))
	}
	return nil, err
}

// taskCompleted runs the stop gate for the agent that did the task, when a
// task of an agent team is marked completed. It keeps the task open (exit
// 2, the reason on stderr) until that agent has recorded what it learned,
// once. It never ends a claim: the agent is still working, and its claims
// end when it goes idle; the leases its task's writes took end with the
// task.
func (c *call) taskCompleted() (*client.Output, error) {
	c.touch()
	doer := c.teammate()
	ask, err := c.shouldAsk(doer, false)
	if err != nil {
		return nil, err
	}
	if !ask {
		// The task is done: the files its work leased go free, and the
		// teammate's next write takes a lease anew.
		return nil, c.releaseWhere(func(cl claimstore.Claim) bool { return cl.Owner == doer && cl.Lease })
	}
	reason := taskReason
	if doer != c.agent {
		reason = fmt.Sprintf(teammateReason, "teammate "+c.naming.Label(doer, ""))
	}
	return &client.Output{Block: reason}, nil
}

// teammate is the agent a team event is about: the teammate the payload
// names (teammate_name), which is not the caller when the lead marks a
// teammate's task completed; else the caller.
func (c *call) teammate() string {
	name := c.in.TeammateName
	if name == "" {
		return c.agent
	}
	if n, ok := c.naming.Teammate(c.agent); ok && n == name {
		return c.agent
	}
	recs, _, err := agentstore.Agents(c.repo)
	if err != nil {
		return c.agent
	}
	for _, r := range recs {
		if n, ok := c.sameTeam(r.ID); ok && n == name {
			return r.ID
		}
	}
	return c.agent
}

// preCompact notes that a subagent's or teammate's conversation is being
// compacted: what it was told is gone from its context, so its next tool
// call gets the whole digest, not the delta. A lead gets the digest at
// SessionStart after every compaction anyway, where its client starts one
// (NoRestart).
func (c *call) preCompact() (*client.Output, error) {
	if c.in.AgentID == "" && !c.in.Caps.Has(client.NoRestart) {
		return nil, nil
	}
	unlock, err := c.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	rec, _, ok := agentstore.Load(c.repo, c.agent)
	if !ok || rec.Compacted {
		return nil, nil
	}
	rec.Compacted = true
	return nil, agentstore.Save(c.repo, rec)
}

// stop ends the lead's turn: its own claims end, not its subagents', which
// may still be running in the background.
//
// Where the client's agents are leads of their own (Codex CLI, Gemini CLI:
// no subagents of Claude Code's kind to ask at their stops), the lead's
// stop runs the stop gate first.
func (c *call) stop() (*client.Output, error) {
	c.touch()
	if c.in.Caps.Has(client.GateLead) {
		ask, err := c.shouldAsk(c.agent, c.in.StopHookActive)
		if err != nil {
			return nil, err
		}
		if ask {
			return &client.Output{Block: reportReason}, nil
		}
	}
	if c.in.Caps.Has(client.KeepClaims) {
		return nil, nil
	}
	return nil, c.releaseClaims(func(owner string) bool { return owner == c.agent })
}

// sessionEnd ends every claim of the session, its subagents' included.
// It must fit SessionEnd's budget of about 1.5 s, all SessionEnd hooks
// together: one read of the claims and at most one write, within the
// call's wait for the lock (lockBudget).
func (c *call) sessionEnd() (*client.Output, error) {
	c.touch()
	session := c.in.SessionID
	err := c.releaseClaims(func(owner string) bool {
		return owner == session || strings.HasPrefix(owner, session+"/")
	})
	// The session's agents have ended: a message to one would not be
	// read. Marked after the call's touch of the caller's record, which
	// a later time would undo.
	if recs, _, err := agentstore.Agents(c.repo); err == nil {
		for _, r := range recs {
			if r.ID == session || strings.HasPrefix(r.ID, session+"/") {
				c.warn(agentstore.MarkEnded(c.repo, r.ID))
			}
		}
	}
	return nil, err
}
