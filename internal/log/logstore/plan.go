package logstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/pmezard/go-difflib/difflib"
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

// AppendPlanChange records the change of the plan from seen to now as
// writer's plan entry, with its diff, and marks now as seen. The caller
// holds the repository's lock, so that two writers do not both record one
// change.
func AppendPlanChange(r *gitstore.Repo, writer string, seen, now []byte, at time.Time) (logformat.Entry, error) {
	diff, added, removed := planDiff(seen, now)
	lines := "lines"
	if added+removed == 1 {
		lines = "line"
	}
	e := logformat.NewEntry(at, writer, logformat.KindPlan, fmt.Sprintf("plan.md changed: +%d -%d %s", added, removed, lines))
	e.Diff = diff
	if err := Append(r.LogPath(), e); err != nil {
		return logformat.Entry{}, err
	}
	return e, MarkPlanSeen(r, now)
}

// planDiff is the unified diff of two versions of the plan, with the
// counts of added and removed lines.
func planDiff(old, cur []byte) (string, int, int) {
	diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(old)), B: difflib.SplitLines(string(cur)),
		FromFile: "a/" + gitstore.PlanName, ToFile: "b/" + gitstore.PlanName, Context: 2,
	})
	added, removed := 0, 0
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return diff, added, removed
}
