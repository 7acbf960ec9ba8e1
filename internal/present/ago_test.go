package present_test

import (
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/present"
)

// How long ago, as a person says it, at each step's edge.
func TestAgo(t *testing.T) {
	now := time.Date(2026, 12, 5, 2, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "at an unknown time"},
		{now.Add(time.Minute), "under a minute ago"}, // a clock a little ahead
		{now, "under a minute ago"},
		{now.Add(-59 * time.Second), "under a minute ago"},
		{now.Add(-time.Minute), "1 min ago"},
		{now.Add(-59*time.Minute - 59*time.Second), "59 min ago"},
		{now.Add(-time.Hour), "1 h ago"},
		{now.Add(-47 * time.Hour), "47 h ago"},
		{now.Add(-48 * time.Hour), "2 days ago"},
		{now.Add(-400 * 24 * time.Hour), "400 days ago"},
	} {
		if got := present.Ago(tc.t, now); got != tc.want {
			t.Errorf("Ago(now%+v) = %q, want %q", tc.t.Sub(now), got, tc.want)
		}
	}
}

// How long until, to the nearest minute, at each step's edge.
func TestIn(t *testing.T) {
	now := time.Date(2026, 12, 5, 2, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Minute, "now"},
		{0, "now"},
		{59 * time.Second, "in under a minute"},
		{time.Minute, "in 1 min"},
		{14*time.Minute + 29*time.Second, "in 14 min"},
		{19*time.Minute + 59*time.Second, "in 20 min"},
		{59 * time.Minute, "in 59 min"},
		{59*time.Minute + 45*time.Second, "in 1 h"},
		{90 * time.Minute, "in 2 h"},
		{47 * time.Hour, "in 47 h"},
		{72 * time.Hour, "in 3 days"},
	} {
		if got := present.In(now.Add(tc.d), now); got != tc.want {
			t.Errorf("In(now+%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
