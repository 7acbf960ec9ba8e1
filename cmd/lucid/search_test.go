package main

import (
	"testing"
	"time"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.Local)
	for _, c := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2h", now.Add(-2 * time.Hour), true},
		{"90m", now.Add(-90 * time.Minute), true},
		{"3d", now.AddDate(0, 0, -3), true},
		{"0d", now, true},
		{"2026-12-01", time.Date(2026, 12, 1, 0, 0, 0, 0, time.Local), true},
		{"2026-12-01T08:00:00Z", time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), true},
		{"-2h", time.Time{}, false},
		{"-3d", time.Time{}, false},
		{"yesterday", time.Time{}, false},
		{"2026-13-01", time.Time{}, false},
		{"d", time.Time{}, false},
	} {
		got, ok := parseSince(c.in, now)
		if ok != c.ok || ok && !got.Equal(c.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\n  b\tc", "a b c"},
		{"short", "short"},
		{"ééééé", "éé…"}, // 10 bytes, not cut inside a letter
		{"abcdefgh", "abcde…"},
	} {
		if got := oneLine(c.in, 5); got != c.want {
			t.Errorf("oneLine(%q, 5) = %q, want %q", c.in, got, c.want)
		}
	}
}
