package logstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/lucid-dev/lucid/gitstore"
	"os"
	"path/filepath"
	"time"
)

// The plan as lucid last recorded it lives in <own git dir>/lucid/plan.seen,
// with plan.md's modification time copied onto it, so that noticing "no
// change" costs two stats and no read.

// PlanMaybeChanged reports whether plan.md may differ from what lucid last
// recorded: false only when both files have the same size and time, or
// there is no plan.md and the record is empty.
func PlanMaybeChanged(r *gitstore.Repo) bool {
	now, err1 := os.Stat(r.PlanPath())
	seen, err2 := os.Stat(r.PlanSeenPath())
	if err1 != nil && err2 != nil {
		return false // no plan, nothing recorded
	}
	if errors.Is(err1, os.ErrNotExist) && err2 == nil && seen.Size() == 0 {
		return false // no plan, and its absence recorded (PlanVersions reads it empty)
	}
	if err1 != nil || err2 != nil {
		return true
	}
	return now.Size() != seen.Size() || !now.ModTime().Equal(seen.ModTime())
}

// PlanVersions returns the plan as last recorded and as it is now; recorded
// is false when lucid has recorded none yet. A missing plan.md reads empty.
func PlanVersions(r *gitstore.Repo) (seen, now []byte, recorded bool, err error) {
	now, err = gitstore.ReadFileIfExists(r.PlanPath(), gitstore.MaxPlan)
	if err != nil {
		return nil, nil, false, err
	}
	seen, err = gitstore.ReadFile(r.PlanSeenPath(), gitstore.MaxPlan)
	if errors.Is(err, os.ErrNotExist) {
		return nil, now, false, nil
	}
	return seen, now, err == nil, err
}

// MarkPlanSeen records content as the plan lucid has seen, and gives the
// record plan.md's modification time.
func MarkPlanSeen(r *gitstore.Repo, content []byte) error {
	path := r.PlanSeenPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if old, err := gitstore.ReadFile(path, gitstore.MaxPlan); err != nil || !bytes.Equal(old, content) {
		if err := gitstore.WriteFileAtomic(path, content, 0o644); err != nil {
			return err
		}
	}
	mtime := time.Now()
	if fi, err := os.Stat(r.PlanPath()); err == nil {
		mtime = fi.ModTime()
	}
	return os.Chtimes(path, mtime, mtime)
}

// PlanPending is an agent's announced edit of plan.md, between its
// PreToolUse and its PostToolUse.
type PlanPending struct {
	Agent string    `json:"agent"`
	At    time.Time `json:"at"`
}

// SetPlanPending announces that agent is about to edit plan.md.
func SetPlanPending(r *gitstore.Repo, agent string, at time.Time) error {
	path := r.PlanPendingPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, _ := json.Marshal(PlanPending{Agent: agent, At: at})
	return gitstore.WriteFileAtomic(path, b, 0o644)
}

// PendingPlanEdit returns the announced edit, if any.
func PendingPlanEdit(r *gitstore.Repo) (PlanPending, bool) {
	b, err := gitstore.ReadFile(r.PlanPendingPath(), gitstore.MaxRecord)
	if err != nil {
		return PlanPending{}, false
	}
	var p PlanPending
	if json.Unmarshal(b, &p) != nil || p.Agent == "" {
		return PlanPending{}, false
	}
	return p, true
}

// ClearPlanPending removes the announcement.
func ClearPlanPending(r *gitstore.Repo) { os.Remove(r.PlanPendingPath()) }
