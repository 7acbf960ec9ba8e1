package hooks

import (
	"bytes"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// pendingFor is how long an agent's announced edit of the plan keeps other
// hooks from taking the change for the user's: long enough for any tool
// call, short enough that a failed call (no PostToolUse) does not hide an
// outside edit for long.
const pendingFor = 2 * time.Minute

// notePlanChange records a change of plan.md as a plan entry. With by set
// (the PostToolUse of by's own edit), the change is by's. Otherwise it was
// made outside Claude's tools and is the user's, unless an agent announced
// an edit of the plan at its PreToolUse and has not reached its PostToolUse
// yet: then the change is left for that agent, so that one agent's Edit is
// never recorded as the user's because another agent's hook saw it first.
func (c *call) notePlanChange(by string) error {
	if !logstore.PlanMaybeChanged(c.repo) {
		return nil
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	seen, now, recorded, err := logstore.PlanVersions(c.repo)
	if err != nil {
		return err
	}
	if !recorded || bytes.Equal(seen, now) {
		return logstore.MarkPlanSeen(c.repo, now) // the first look, or only the time moved
	}
	writer := by
	if by == "" {
		if p, ok := logstore.PendingPlanEdit(c.repo); ok && c.now.Sub(p.At) < pendingFor {
			return nil
		}
		writer = agentstore.AgentUser
	}
	if _, err := logstore.AppendPlanChange(c.repo, writer, seen, now, c.now); err != nil {
		return err
	}
	if by != "" {
		logstore.ClearPlanPending(c.repo)
	}
	return nil
}

// isPlan reports whether path (absolute, or relative to the payload's cwd)
// is this work tree's plan.md, in any spelling its file system takes for it.
func (c *call) isPlan(path string) bool {
	if path == "" {
		return false
	}
	rel, err := c.repo.Rel(c.abs(path))
	return err == nil && (rel == gitstore.PlanName || c.repo.Names().Same(rel, gitstore.PlanName))
}
