package hooks

import (
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// reportReason is what an agent that edited files but recorded nothing is
// asked, once, before it stops.
const reportReason = `Before you stop: you edited files but recorded nothing in lucid's shared log, so the other agents cannot learn from your work. Record, with the lucid commands through Bash:
- decisions you made and why: lucid decision "TEXT"
- approaches that failed: lucid dead-end "TEXT"
- non-obvious facts you found, citing the file: lucid fact "TEXT" -e FILE:LINE
(lucid note "TEXT" for anything else.) Record only what is worth knowing; then stop.`

// stopGate runs at SubagentStop and TaskCompleted: an agent that edited
// files and wrote no entry and no plan change is asked once to report. It
// never blocks twice for one agent, and never when Claude Code says a stop
// hook already kept the agent going (stop_hook_active).
func (c *call) stopGate() (*Output, error) {
	var block bool
	err := c.update(func(rec *gitstore.AgentRecord) {
		// Count the agent's own entries written since its last look.
		if _, _, err := c.newEntries(rec); err != nil {
			return
		}
		if rec.Edits > 0 && rec.Entries == 0 && !rec.Asked && !c.in.StopHookActive {
			block = true
			rec.Asked = true
		}
	})
	if err != nil {
		return nil, err
	}
	if block {
		return &Output{Decision: "block", Reason: reportReason}, nil
	}
	// The agent stops: its claims end with it.
	return nil, c.releaseClaims(func(owner string) bool { return owner == c.agent }, stopWait)
}

// The longest a stop waits for the lock to release claims: well inside
// the hooks' timeouts (10 s; SessionEnd's whole budget is about 1.5 s).
const (
	stopWait       = 5 * time.Second
	sessionEndWait = time.Second
)

// stop ends the lead's turn: its own claims end, not its subagents', which
// may still be running in the background.
func (c *call) stop() (*Output, error) {
	c.touch()
	return nil, c.releaseClaims(func(owner string) bool { return owner == c.agent }, stopWait)
}

// sessionEnd ends every claim of the session, its subagents' included.
// It must fit SessionEnd's budget of about 1.5 s: one read of the claims
// and at most one write.
func (c *call) sessionEnd() (*Output, error) {
	c.touch()
	session := c.in.SessionID
	return nil, c.releaseClaims(func(owner string) bool {
		return owner == session || strings.HasPrefix(owner, session+"/")
	}, sessionEndWait)
}
