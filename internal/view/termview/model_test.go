package termview

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/lucid-dev/lucid/internal/view/board"
)

// loads is a loader of testBoard and testPage that counts its calls and
// remembers the entries asked for.
type loads struct {
	calls []int
	err   error
}

func (l *loads) load(n int) (*board.Board, *board.LogPage, error) {
	l.calls = append(l.calls, n)
	if l.err != nil {
		return nil, nil, l.err
	}
	return testBoard(), testPage(), nil
}

// send gives m msg and runs the command it returns, if any, giving m its
// message in turn, as the program would; it returns the last message no
// model handles (tea.QuitMsg), or nil.
func send(m *model, msg tea.Msg) tea.Msg {
	for msg != nil {
		_, cmd := m.Update(msg)
		if cmd == nil {
			return nil
		}
		msg = cmd()
		if _, quit := msg.(tea.QuitMsg); quit {
			return msg
		}
	}
	return nil
}

func key(s string) tea.KeyPressMsg {
	switch s {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

// started is a model as the program starts it, loaded, in a window w×h.
func started(t *testing.T, l *loads, w, h int) *model {
	t.Helper()
	m := newModel(l.load)
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	send(m, m.Init()())
	return m
}

// screen is what the view shows, without its styles.
func screen(m *model) string { return ansi.Strip(m.View().Content) }

// The number keys, tab and shift+tab switch the view; the tab of the view
// shown is the one highlighted.
func TestViewSwitch(t *testing.T) {
	m := started(t, &loads{}, 120, 30)
	for _, step := range []struct {
		key, shows string
	}{
		{"", "codex·21259d codex idle"},
		{"2", "lead·30df32 holds src/** go.mod"},
		{"3", "[violation] «wrote src/a.go"},
		{"4", "[denied] a claim of lead·30df32 stopped a write"},
		{"tab", "codex·21259d codex idle"},
		{"shift+tab", "[denied]"},
		{"shift+tab", "[violation]"},
		{"1", "gemini·9f0e1d gemini ended"},
	} {
		if step.key != "" {
			send(m, key(step.key))
		}
		if s := screen(m); !strings.Contains(s, step.shows) {
			t.Fatalf("after %q the screen does not show %q:\n%s", step.key, step.shows, s)
		}
	}
	// The header names the repository and counts; the tabs count each view.
	s := screen(m)
	for _, want := range []string{"lucid watch /home/dev/repo · 3 agents (1 working) · 2 claims · 2 notices", " 3 Log (5) ", " 4 Notices (2) "} {
		if !strings.Contains(s, want) {
			t.Errorf("the screen does not show %q:\n%s", want, s)
		}
	}
}

// j/k and the arrows scroll the view shown, and stop at its ends; each
// view keeps its own place.
func TestScroll(t *testing.T) {
	m := started(t, &loads{}, 120, chrome+2) // two lines of a view
	send(m, key("3"))
	first := func() string {
		return strings.Split(screen(m), "\n")[2]
	}
	for _, step := range []struct {
		key, first string
	}{
		{"k", "[note]"}, // the top already
		{"j", "[violation]"},
		{"down", "[question"},
		{"up", "[violation]"},
		{"G", "[fact]"}, // the last window: the fact and the note on older entries
		{"j", "[fact]"},
		{"g", "[note]"},
	} {
		send(m, key(step.key))
		if got := first(); !strings.HasPrefix(got, step.first) {
			t.Errorf("after %q the view begins %q, want %q", step.key, got, step.first)
		}
	}
	send(m, key("g"))
	send(m, key("j"))
	if !strings.Contains(screen(m), "2–3 of 6") {
		t.Errorf("the footer does not say where the view is:\n%s", screen(m))
	}
	send(m, key("1"))
	if got := first(); !strings.HasPrefix(got, "lead·30df32") {
		t.Errorf("the agents view begins %q: scrolling the log moved it", got)
	}
}

// Scrolling the log towards the end of what was read, when older entries
// follow, reads more of them; a window of any height reads what fills it,
// and a window more.
func TestScrollReadsMore(t *testing.T) {
	var calls []int
	long := func(n int) (*board.Board, *board.LogPage, error) {
		calls = append(calls, n)
		page := &board.LogPage{More: n < 100}
		for i := range min(n, 100) {
			page.Entries = append(page.Entries, entry(fmt.Sprintf("e%d", i), "fact", "s1", "lead·30df32", fmt.Sprintf("fact %d", i), 0))
		}
		return testBoard(), page, nil
	}
	m := newModel(long)
	send(m, tea.WindowSizeMsg{Width: 120, Height: chrome + 20})
	send(m, m.Init()())
	if len(calls) != 1 || calls[0] != 40 {
		t.Fatalf("a window of 20 lines read %v entries, want [40]", calls)
	}
	send(m, key("3"))
	for range 30 {
		send(m, key("j"))
	}
	if !strings.Contains(screen(m), "fact 49") {
		t.Errorf("scrolling 30 lines down did not show the 50th entry (read %v):\n%s", calls, screen(m))
	}
	for range 5 {
		send(m, key("G"))
	}
	if !strings.Contains(screen(m), "fact 99") || len(calls) > 6 {
		t.Errorf("scrolling to the end did not show the oldest entry (read %v):\n%s", calls, screen(m))
	}
}

// q and ctrl+c quit.
func TestQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		m := started(t, &loads{}, 80, 24)
		if msg := send(m, key(k)); msg == nil {
			t.Errorf("%s did not quit", k)
		}
	}
	m := started(t, &loads{}, 80, 24)
	if msg := send(m, key("x")); msg != nil {
		t.Errorf("x quit")
	}
}

// A change while a read is under way is read once that read is done, not
// lost and not read twice at once.
func TestChangeWhileLoading(t *testing.T) {
	l := &loads{}
	m := newModel(l.load)
	read := m.Init()
	if _, cmd := m.Update(changedMsg{}); cmd != nil {
		t.Fatal("a change during a read started another read")
	}
	_, cmd := m.Update(read())
	if cmd == nil {
		t.Fatal("the change that came during the read was lost")
	}
	send(m, cmd())
	if len(l.calls) != 2 {
		t.Errorf("read %d times, want 2", len(l.calls))
	}
}

// A failed read keeps what was shown and says why, escaped; the next good
// read clears it.
func TestLoadError(t *testing.T) {
	l := &loads{}
	m := started(t, l, 120, 24)
	l.err = errors.New("log.jsonl: \x1b]0;pwned\x07 denied")
	send(m, changedMsg{})
	s := m.View().Content
	if !strings.Contains(ansi.Strip(s), `log.jsonl: \x1b]0;pwned\a denied`) || strings.Contains(s, "\x07") {
		t.Errorf("the error is not shown escaped:\n%q", s)
	}
	if !strings.Contains(screen(m), "codex·21259d") {
		t.Errorf("the board shown before the error is gone:\n%s", screen(m))
	}
	l.err = nil
	send(m, changedMsg{})
	if strings.Contains(screen(m), "pwned") {
		t.Errorf("the error stays after a good read:\n%s", screen(m))
	}
}

// Lines are cut to the window's width.
func TestWidth(t *testing.T) {
	m := started(t, &loads{}, 30, 24)
	for _, l := range strings.Split(screen(m), "\n") {
		if w := ansi.StringWidth(l); w > 30 {
			t.Errorf("a line of %d columns in a window of 30: %q", w, l)
		}
	}
}
