package logstore

import (
	"os"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

func TestPlanVersionsAndSeen(t *testing.T) {
	r := repotest.Lucid(t)
	if !PlanMaybeChanged(r) {
		t.Fatal("a plan never recorded is not reported as maybe changed")
	}
	seen, now, recorded, err := PlanVersions(r)
	if err != nil || recorded || seen != nil || len(now) == 0 {
		t.Fatalf("before any record: seen %q, now %d bytes, recorded %v, %v", seen, len(now), recorded, err)
	}
	if err := MarkPlanSeen(r, now); err != nil {
		t.Fatal(err)
	}
	if PlanMaybeChanged(r) {
		t.Fatal("the plan just recorded is reported as maybe changed")
	}
	seen, now2, recorded, err := PlanVersions(r)
	if err != nil || !recorded || string(seen) != string(now) || string(now2) != string(now) {
		t.Fatalf("after the record: seen %q, now %q, recorded %v, %v", seen, now2, recorded, err)
	}
	// An edit of the same size, with a new time, may be a change.
	edited := []byte(string(now[:len(now)-1]) + "!")
	os.WriteFile(r.PlanPath(), edited, 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(r.PlanPath(), later, later)
	if !PlanMaybeChanged(r) {
		t.Fatal("an edited plan is not reported as maybe changed")
	}
	if seen, now, _, _ := PlanVersions(r); string(seen) == string(now) || string(now) != string(edited) {
		t.Fatalf("after an edit: seen %q, now %q", seen, now)
	}
	// Recording the same content again takes the plan's time.
	if err := MarkPlanSeen(r, edited); err != nil || PlanMaybeChanged(r) {
		t.Fatalf("the edit recorded (%v), yet reported as maybe changed", err)
	}
	if err := MarkPlanSeen(r, edited); err != nil || PlanMaybeChanged(r) {
		t.Fatalf("the edit recorded twice (%v), yet reported as maybe changed", err)
	}
	// A removed plan reads empty, and differs from what was recorded.
	os.Remove(r.PlanPath())
	if !PlanMaybeChanged(r) {
		t.Fatal("a removed plan is not reported as maybe changed")
	}
	if seen, now, recorded, err := PlanVersions(r); err != nil || !recorded || now != nil || string(seen) != string(edited) {
		t.Fatalf("a removed plan: seen %q, now %q, recorded %v, %v", seen, now, recorded, err)
	}
	// Once the removal is recorded, nothing changed: every hook would
	// otherwise take the lock to compare two empty plans.
	if err := MarkPlanSeen(r, nil); err != nil || PlanMaybeChanged(r) {
		t.Fatalf("no plan, and none recorded (%v), yet reported as maybe changed", err)
	}
	os.Remove(r.PlanSeenPath())
	if PlanMaybeChanged(r) {
		t.Fatal("no plan and no record, yet reported as maybe changed")
	}
}

func TestPlanPending(t *testing.T) {
	r := repotest.Lucid(t)
	if p, ok := PendingPlanEdit(r); ok {
		t.Fatalf("a pending edit before any: %+v", p)
	}
	at := time.Date(2026, 12, 5, 1, 2, 3, 0, time.UTC)
	if err := SetPlanPending(r, "claude/7", at); err != nil {
		t.Fatal(err)
	}
	if p, ok := PendingPlanEdit(r); !ok || p.Agent != "claude/7" || !p.At.Equal(at) {
		t.Fatalf("pending edit %+v, %v; want claude/7 at %v", p, ok, at)
	}
	ClearPlanPending(r)
	if p, ok := PendingPlanEdit(r); ok {
		t.Fatalf("a pending edit after clearing: %+v", p)
	}
	for _, bad := range []string{"not json", `{"agent":""}`} {
		os.WriteFile(r.PlanPendingPath(), []byte(bad), 0o644)
		if p, ok := PendingPlanEdit(r); ok {
			t.Errorf("%q reads as the pending edit %+v", bad, p)
		}
	}
}
