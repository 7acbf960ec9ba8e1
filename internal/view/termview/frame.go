package termview

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/view/board"
)

// tone is how a span of a line stands out in the terminal; plain text
// drops it.
type tone int

const (
	normal tone = iota
	name        // an agent's label
	dim         // what matters less: times, ids
	good        // working
	warn        // stale, unreported, idle waiting
	alert       // a violation, a denial
	plan        // a plan change
)

// span is a piece of a line. Its text is escaped when it is made: all
// that reaches the terminal goes through one of the constructors below.
type span struct {
	text string
	tone tone
}

// line is one item of a section.
type line []span

func (l line) String() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.text)
	}
	return b.String()
}

// section is one of the views: a title and its items.
type section struct {
	title string
	lines []line
	empty string // what stands in for no lines
	notes []line // what follows the lines, not counted among them
}

// The views, in the order of their keys 1 to 4.
const (
	viewAgents = iota
	viewClaims
	viewLog
	viewNotices
	numViews
)

// frame is what the board and a page of the log show at one moment.
type frame struct {
	header   line
	sections [numViews]section
}

// makeFrame builds the frame of b and page. Ages are counted from b.At, the
// moment the board was read.
func makeFrame(b *board.Board, page *board.LogPage) frame {
	now := b.At
	f := frame{header: header(b)}

	agents := section{title: "Agents", empty: "no agent has acted here yet"}
	for _, a := range b.Agents {
		agents.lines = append(agents.lines, agentLine(a, b.Top, now))
	}
	claims := section{title: "Claims", empty: "no claims"}
	for _, c := range b.Claims {
		claims.lines = append(claims.lines, claimLine(c, b.Top, b.Fetched, now))
	}
	for _, e := range b.Editing {
		claims.notes = append(claims.notes, editingLine(e, now))
	}
	log := section{title: "Log", empty: "no entries"}
	if page != nil {
		for _, e := range page.Entries {
			log.lines = append(log.lines, entryLine(e, now))
		}
		if page.More {
			log.notes = append(log.notes, line{{"… older entries: lucid log", dim}})
		}
		if page.Invalid > 0 {
			log.notes = append(log.notes, line{{fmt.Sprintf("%d line(s) of the log are not valid entries and were skipped", page.Invalid), warn}})
		}
	}
	notices := section{title: "Notices", empty: "no notices"}
	for _, n := range b.Notices {
		notices.lines = append(notices.lines, noticeLine(n, now))
	}
	f.sections = [numViews]section{agents, claims, log, notices}
	return f
}

// header names the repository and counts what the views hold.
func header(b *board.Board) line {
	working := 0
	for _, a := range b.Agents {
		if a.State == board.Working {
			working++
		}
	}
	counts := fmt.Sprintf("%s (%d working) · %s · %s",
		count(len(b.Agents), "agent"), working, count(len(b.Claims), "claim"),
		count(len(b.Notices), "notice"))
	return line{{"lucid watch ", name}, {escape.Line(b.Top), normal}, {" · " + counts, normal}}
}

// count is n things in words: "1 claim", "3 claims", "2 entries".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(thing, "y"))
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// elsewhere names the work tree wt when it is not top, the one watched.
func elsewhere(wt, top string) span {
	if wt == "" || wt == top {
		return span{}
	}
	return span{" in " + escape.Line(wt), dim}
}

func agentLine(a board.Agent, top string, now time.Time) line {
	state := tone(normal)
	switch a.State {
	case board.Working:
		state = good
	case board.Ended:
		state = dim
	}
	l := line{{escape.Line(a.Label), name}}
	if a.Client != "" {
		l = append(l, span{" " + escape.Line(a.Client), dim})
	}
	l = append(l, span{" " + escape.Line(a.State), state}, elsewhere(a.Worktree, top))
	if a.State == board.Ended && !a.Ended.IsZero() {
		l = append(l, span{" " + present.Ago(a.Ended, now), normal})
	} else {
		l = append(l, span{", last active " + present.Ago(a.LastSeen, now), normal})
	}
	// A denial first: it is what a person may have to act on.
	if d := a.Denied; d != nil {
		l = append(l, span{fmt.Sprintf(", denied by %s on %s (%s) %s",
			escape.Line(d.Label), escape.Line(d.Path), escape.Line(d.Glob), present.Ago(d.At, now)), alert})
	}
	unread := fmt.Sprint(a.Unread)
	if a.UnreadMore {
		unread += "+"
	}
	return append(l, span{fmt.Sprintf(": %s, %s, %s unread, %s waiting",
		count(len(a.Claims), "claim"), count(a.Entries, "entry"), unread, count(a.Waiting, "message")), normal})
}

func claimLine(c board.Claim, top string, fetched, now time.Time) line {
	l := line{{escape.Line(c.Label), name}, {" holds ", normal}, {escape.Line(strings.Join(c.Globs, " ")), normal}}
	if c.Task != "" {
		l = append(l, span{" for " + escape.Words(c.Task), normal})
	}
	when := "claimed " + present.Ago(c.Created, now)
	if c.Lease {
		l = append(l, span{" under a lease (its write took it; it ends with its turn)", normal})
		when = "leased " + present.Ago(c.Created, now)
	}
	switch {
	case !c.Active:
		when += ", no longer active"
	case !c.Ends.IsZero():
		when += ", ends " + present.In(c.Ends, now)
	}
	l = append(l, elsewhere(c.Worktree, top), span{" (" + when + ")", dim})
	if c.Machine != "" {
		copied := "copy fetched " + present.Ago(fetched, now)
		if fetched.IsZero() {
			copied = "copy never fetched"
		}
		l = append(l, span{fmt.Sprintf(" on %s, %s", escape.Line(c.Machine), copied), warn})
	}
	return l
}

func entryLine(e board.Entry, now time.Time) line {
	kind, t := e.Kind, normal
	switch e.Kind {
	case logformat.KindViolation:
		t = alert
	case logformat.KindPlan:
		t = plan
	case logformat.KindSupersede:
		kind = "replaces " + e.Supersedes
		if e.Retired {
			kind = "retires " + e.Supersedes
		}
	}
	if len(e.To) > 0 {
		if e.Ask {
			kind = "question"
		}
		kind += " to " + strings.Join(e.To, ", ")
		if len(e.Claim) > 0 {
			kind += " on " + strings.Join(e.Claim, " ")
		}
	}
	// The text is its writer's words, fenced (a plan change's counts the
	// lines it added and removed).
	l := line{{"[" + escape.Line(kind) + "] ", t}, {escape.Words(e.Text), t},
		{" — ", dim}, {escape.Line(e.Label), name},
		{", " + present.Ago(e.Time(), now) + ", " + escape.Line(e.ID), dim}}
	for _, s := range e.Stale {
		l = append(l, span{" " + escape.Line(s.String()), warn})
	}
	return l
}

func noticeLine(n board.Notice, now time.Time) line {
	t := warn
	if n.Kind == board.NoticeViolation || n.Kind == board.NoticeDenied {
		t = alert
	}
	text := escape.Line(n.Text)
	if n.Entry != "" {
		text = escape.Words(n.Text) // the entry's text: its writer's words
	}
	l := line{{"[" + escape.Line(n.Kind) + "] ", t}, {text, t}}
	// Who and where, unless the text says it already.
	var about []string
	if n.Label != "" && !strings.Contains(n.Text, n.Label) {
		about = append(about, escape.Line(n.Label))
	}
	if n.Path != "" && !strings.Contains(n.Text, n.Path) {
		about = append(about, escape.Line(n.Path))
	}
	about = append(about, present.Ago(n.At, now))
	return append(l, span{" — " + strings.Join(about, ", "), dim})
}

// editingLine is a file agents changed lately, without a claim between
// them: "edited src/a.go: lead·1bd236 2 min ago, codex·77ae91 under a
// minute ago".
func editingLine(e board.Editing, now time.Time) line {
	tone := dim
	if len(e.Edits) > 1 {
		tone = warn // several agents in one file
	}
	l := line{{"edited " + escape.Line(e.Path) + ": ", tone}}
	for i, ed := range e.Edits {
		if i > 0 {
			l = append(l, span{", ", dim})
		}
		l = append(l, span{escape.Line(ed.Label), name}, span{" " + present.Ago(ed.At, now), dim})
	}
	return l
}

// writePlain writes f as plain text: the header, then each section's title
// and its items, one a line.
func writePlain(w io.Writer, f frame) error {
	var b strings.Builder
	b.WriteString(f.header.String())
	b.WriteString("\n")
	for _, s := range f.sections {
		fmt.Fprintf(&b, "\n%s (%d)\n", s.title, len(s.lines))
		if len(s.lines) == 0 {
			fmt.Fprintf(&b, "  %s\n", s.empty)
		}
		for _, l := range s.lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
		for _, l := range s.notes {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
