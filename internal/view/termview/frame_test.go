package termview

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/view/board"
)

var at = time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)

// testBoard is a board as Load reads it: two agents of two clients, one
// denied by the other's claim, a claim of another machine, and notices.
func testBoard() *board.Board {
	return &board.Board{
		At:  at,
		Top: "/home/dev/repo",
		Agents: []board.Agent{
			{ID: "s1", Label: "lead·30df32", Client: "claude", State: board.Working, LastSeen: at.Add(-30 * time.Second),
				Claims: []string{"c1"}, Entries: 3, Unread: 2, Waiting: 1},
			{ID: "s2", Label: "codex·21259d", Client: "codex", State: board.Idle, LastSeen: at.Add(-7 * time.Minute),
				Entries: 1, Unread: board.MaxUnread, UnreadMore: true,
				Denied: &board.Denial{At: at.Add(-8 * time.Minute), Path: "src/a.go", Owner: "s1", Label: "lead·30df32", Glob: "src/**"}},
			{ID: "s3", Label: "gemini·9f0e1d", Client: "gemini", State: board.Ended, Worktree: "/home/dev/repo-docs", LastSeen: at.Add(-3 * time.Hour), Ended: at.Add(-3 * time.Hour)},
		},
		Claims: []board.Claim{
			{ID: "c1", Owner: "s1", Worktree: "/home/dev/repo", Label: "lead·30df32", Task: "refactor auth", Globs: []string{"src/**", "go.mod"},
				Created: at.Add(-12 * time.Minute), Ends: at.Add(20 * time.Minute), Active: true},
			{ID: "c2", Owner: "x9", Label: "lead·77ae91", Task: "docs", Globs: []string{"docs/**"},
				Created: at.Add(-2 * time.Hour), Active: true, Machine: "laptop"},
		},
		Fetched: at.Add(-4 * time.Minute),
		Notices: []board.Notice{
			{ID: "n1", Kind: board.NoticeDenied, At: at.Add(-8 * time.Minute), Agent: "s2", Label: "codex·21259d",
				Text: "a claim of lead·30df32 stopped a write", Path: "src/a.go"},
			{ID: "n2", Kind: board.NoticeStale, At: at.Add(-time.Minute), Text: "a fact cites a changed file", Path: "auth.go", Entry: "e1"},
		},
	}
}

func entry(id, kind, agent, label, text string, ago time.Duration) board.Entry {
	e := logformat.Entry{ID: id, At: at.Add(-ago).Format(logformat.TimeFormat), Agent: agent, Kind: kind, Text: text}
	return board.Entry{Listed: logstore.Listed{Entry: e}, Label: label}
}

func testPage() *board.LogPage {
	fact := entry("e1", logformat.KindFact, "s1", "lead·30df32", "tokens expire after 15 min", 5*time.Minute)
	fact.Stale = []logstore.Stale{{Path: "auth.go", Line: 12, NowLine: 14}}
	plan := entry("e2", logformat.KindPlan, "s1", "lead·30df32", "plan.md changed: +2 -1 lines", 4*time.Minute)
	plan.Diff = "--- plan.md\n+++ plan.md\n@@ -1 +1,2 @@\n-old step\n+new step\n+another\n"
	msg := entry("e3", logformat.KindMessage, "s2", "codex·21259d", "may I have src/a.go?", 3*time.Minute)
	msg.Ask, msg.Claim, msg.To = true, []string{"src/a.go"}, []string{"lead·30df32"}
	return &board.LogPage{Entries: []board.Entry{
		entry("e5", logformat.KindNote, "s2", "codex·21259d", "\x1b[31mred\x1b[0m and\rhidden", 10*time.Second),
		entry("e4", logformat.KindViolation, "s2", "codex·21259d", "wrote src/a.go under lead·30df32's claim", 2*time.Minute),
		msg, plan, fact,
	}, More: true}
}

// The plain frame: the four sections in order, one line per item, ages
// counted from the board's moment.
func TestPlainFrame(t *testing.T) {
	var b strings.Builder
	if err := writePlain(&b, makeFrame(testBoard(), testPage())); err != nil {
		t.Fatal(err)
	}
	want := `lucid watch /home/dev/repo · 3 agents (1 working) · 2 claims · 2 notices

Agents (3)
  lead·30df32 claude working, last active under a minute ago: 1 claim, 3 entries, 2 unread, 1 message waiting
  codex·21259d codex idle, last active 7 min ago, denied by lead·30df32 on src/a.go (src/**) 8 min ago: 0 claims, 1 entry, 999+ unread, 0 messages waiting
  gemini·9f0e1d gemini ended in /home/dev/repo-docs 3 h ago: 0 claims, 0 entries, 0 unread, 0 messages waiting

Claims (2)
  lead·30df32 holds src/** go.mod for «refactor auth» (claimed 12 min ago, ends in 20 min)
  lead·77ae91 holds docs/** for «docs» (claimed 2 h ago) on laptop, copy fetched 4 min ago

Log (5)
  [note] «\x1b[31mred\x1b[0m and\rhidden» — codex·21259d, under a minute ago, e5
  [violation] «wrote src/a.go under lead·30df32's claim» — codex·21259d, 2 min ago, e4
  [question to lead·30df32 on src/a.go] «may I have src/a.go?» — codex·21259d, 3 min ago, e3
  [plan] «plan.md changed: +2 -1 lines» — lead·30df32, 4 min ago, e2
  [fact] «tokens expire after 15 min» — lead·30df32, 5 min ago, e1 ⚠stale: auth.go changed (line 12 is now at 14)
  … older entries: lucid log

Notices (2)
  [denied] a claim of lead·30df32 stopped a write — codex·21259d, src/a.go, 8 min ago
  [stale] «a fact cites a changed file» — auth.go, 1 min ago
`
	if got := b.String(); got != want {
		t.Errorf("frame:\n%s\nwant:\n%s", got, want)
	}
}

// What models wrote reaches the terminal escaped, wherever it is shown:
// no escape sequence, no carriage return.
func TestFrameEscapes(t *testing.T) {
	bad := "x\x1b[31mred\r\x07\u202e"
	b := testBoard()
	b.Top = "/repo" + bad
	b.Agents[0].Label, b.Agents[0].Client, b.Agents[1].Denied.Path, b.Agents[2].Worktree = bad, bad, bad, bad
	b.Claims[0].Task, b.Claims[0].Globs, b.Claims[1].Machine = bad, []string{bad}, bad
	b.Notices[0].Text, b.Notices[0].Label = bad, bad
	page := testPage()
	page.Entries[0].Label, page.Entries[1].ID = bad, bad
	page.Entries[4].Stale[0].Path = bad
	f := makeFrame(b, page)
	var out strings.Builder
	if err := writePlain(&out, f); err != nil {
		t.Fatal(err)
	}
	m := newModel(nil)
	m.f, m.loaded, m.width = f, true, 1000
	for v := range numViews {
		m.view = v
		out.WriteString(m.View().Content) // styled: lipgloss's own sequences, and no other
	}
	text := out.String()
	for _, c := range []string{"x\x1b[31m", "\r", "\x07", "\u202e"} {
		if strings.Contains(text, c) {
			t.Errorf("%q reached the terminal", c)
		}
	}
	if n := strings.Count(ansi.Strip(text), `x\x1b[31mred\r\a\u202e`); n < 20 {
		t.Errorf("the escaped text shows %d times, want at least 20:\n%s", n, text)
	}
}
