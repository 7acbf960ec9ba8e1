package termview

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/view/board"
)

// loader reads the board and the newest n entries of the log.
type loader func(n int) (*board.Board, *board.LogPage, error)

// changedMsg: lucid's files changed, or a tick passed.
type changedMsg struct{}

// loadedMsg carries what a loader read.
type loadedMsg struct {
	b    *board.Board
	page *board.LogPage
	n    int
	err  error
}

// watchErrMsg: the watch of the files stopped; the view no longer moves.
type watchErrMsg struct{ err error }

// The lines around the body of a view: the header and the tabs above, the
// keys below.
const chrome = 3

// Log entries read at the least, however small the window.
const minEntries = 10

// model is the terminal view: the last frame read, the view shown, and
// how far each view is scrolled.
type model struct {
	load    loader
	f       frame
	loaded  bool
	err     string // the last load's or the watch's error, escaped
	more    bool   // the log has older entries than those read
	n       int    // entries asked of the log
	loading bool
	dirty   bool // a change came while loading: load again after
	view    int
	offset  [numViews]int
	width   int
	height  int
}

func newModel(load loader) *model {
	return &model{load: load, width: 80, height: 24}
}

func (m *model) Init() tea.Cmd { return m.fetch() }

// fetch reads the board in a command, off the program's loop.
func (m *model) fetch() tea.Cmd {
	m.loading = true
	load, n := m.load, m.wantEntries()
	return func() tea.Msg {
		b, page, err := load(n)
		return loadedMsg{b: b, page: page, n: n, err: err}
	}
}

// rows is how many lines of a view the window shows.
func (m *model) rows() int { return max(1, m.height-chrome) }

// wantEntries is how many log entries fill the window down to where the
// log view is scrolled, and a window more, so that scrolling on finds
// them read: a window at a time, not a read per line scrolled.
func (m *model) wantEntries() int {
	r := m.rows()
	return min(500, max(minEntries, (m.offset[viewLog]/r+2)*r))
}

// reload asks for the board again, after the load under way if any.
func (m *model) reload() tea.Cmd {
	if m.loading {
		m.dirty = true
		return nil
	}
	return m.fetch()
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.clamp()
		if m.more && m.wantEntries() > m.n {
			return m, m.reload()
		}
	case tea.KeyPressMsg:
		return m, m.key(msg.String())
	case changedMsg:
		return m, m.reload()
	case loadedMsg:
		m.loading = false
		if msg.err != nil {
			m.err = escape.Line(msg.err.Error())
		} else {
			m.err = ""
			m.f, m.loaded, m.n = makeFrame(msg.b, msg.page), true, msg.n
			m.more = msg.page != nil && msg.page.More
			m.clamp()
		}
		if m.dirty || m.more && m.wantEntries() > m.n {
			m.dirty = false
			return m, m.fetch()
		}
	case watchErrMsg:
		m.err = escape.Line("not live: " + msg.err.Error())
	}
	return m, nil
}

// key acts on a key press.
func (m *model) key(k string) tea.Cmd {
	switch k {
	case "q", "ctrl+c":
		return tea.Quit
	case "1", "2", "3", "4":
		m.view = int(k[0] - '1')
	case "tab":
		m.view = (m.view + 1) % numViews
	case "shift+tab":
		m.view = (m.view + numViews - 1) % numViews
	case "j", "down":
		m.offset[m.view]++
	case "k", "up":
		m.offset[m.view]--
	case "pgdown", "space", "f":
		m.offset[m.view] += m.rows()
	case "pgup", "b":
		m.offset[m.view] -= m.rows()
	case "home", "g":
		m.offset[m.view] = 0
	case "end", "G":
		m.offset[m.view] = len(m.items(m.view))
	default:
		return nil
	}
	m.clamp()
	if m.view == viewLog && m.more && m.wantEntries() > m.n {
		return m.reload()
	}
	return nil
}

// items are the lines of view v, its notes after them.
func (m *model) items(v int) []line {
	s := m.f.sections[v]
	return append(s.lines[:len(s.lines):len(s.lines)], s.notes...)
}

// clamp keeps each view's scroll within its lines.
func (m *model) clamp() {
	for v := range m.offset {
		m.offset[v] = max(0, min(m.offset[v], len(m.items(v))-m.rows()))
	}
}

// styles of the tones.
var styles = [...]lipgloss.Style{
	normal: lipgloss.NewStyle(),
	name:   lipgloss.NewStyle().Bold(true),
	dim:    lipgloss.NewStyle().Faint(true),
	good:   lipgloss.NewStyle().Foreground(lipgloss.Green),
	warn:   lipgloss.NewStyle().Foreground(lipgloss.Yellow),
	alert:  lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true),
	plan:   lipgloss.NewStyle().Foreground(lipgloss.Magenta),
}

var (
	tabOn  = lipgloss.NewStyle().Reverse(true).Bold(true)
	tabOff = lipgloss.NewStyle().Faint(true)
)

// render styles l and cuts it to the window's width.
func (m *model) render(l line) string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(styles[s.tone].Render(s.text))
	}
	return ansi.Truncate(b.String(), m.width, "…")
}

func (m *model) View() tea.View {
	var out []string
	if m.loaded {
		out = append(out, m.render(m.f.header))
	} else {
		out = append(out, m.render(line{{"lucid watch: reading the board…", dim}}))
	}
	var tabs []string
	for i, s := range m.f.sections {
		t := fmt.Sprintf(" %d %s (%d) ", i+1, s.title, len(s.lines))
		switch {
		case i == m.view:
			tabs = append(tabs, tabOn.Render(t))
		case i == viewNotices && len(s.lines) > 0:
			tabs = append(tabs, styles[alert].Render(t)) // a notice not looked at stands out
		default:
			tabs = append(tabs, tabOff.Render(t))
		}
	}
	out = append(out, ansi.Truncate(strings.Join(tabs, " "), m.width, "…"))

	items, rows := m.items(m.view), m.rows()
	top := m.offset[m.view]
	shown := items[min(top, len(items)):min(top+rows, len(items))]
	if m.loaded && len(items) == 0 {
		shown = []line{{{m.f.sections[m.view].empty, dim}}}
	}
	for _, l := range shown {
		out = append(out, m.render(l))
	}
	for range rows - len(shown) {
		out = append(out, "")
	}

	foot := line{{"1-4 tab: views · j/k ↑/↓: scroll · q: quit", dim}}
	if len(items) > rows {
		foot = append(foot, span{fmt.Sprintf(" · %d–%d of %d", top+1, top+len(shown), len(items)), dim})
	}
	if m.err != "" {
		foot = line{{m.err, alert}}
	}
	out = append(out, m.render(foot))

	v := tea.NewView(strings.Join(out, "\n"))
	v.AltScreen = true
	return v
}
