package hooks

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
)

// maxEntryText bounds one entry's text in the digest and the delta, so that
// one long entry cannot take the whole budget.
const maxEntryText = 1200

// FormatEntry writes one entry as agents and people read it:
//
//   - [fact] «the text» (lead·1bd236, 5 min ago, 01JEX…)
//     evidence: src/auth.go:42 ⚠stale: src/auth.go changed (line 42 is now at 57)
//
// The text is its writer's words, fenced (escape.Words): on one line, its
// line breaks shown, so that none of it passes for a line of lucid's.
// stale holds the entry's stale marks (from a logstore.Checker); labels
// names the writer, and those the entry is said to.
func FormatEntry(e logformat.Entry, stale []logstore.Stale, labels *present.Labeler, now time.Time) string {
	var b strings.Builder
	kind := e.Kind
	if e.Kind == logformat.KindSupersede {
		if e.Retired {
			kind = "retired " + e.Supersedes
		} else {
			kind = "replaces " + e.Supersedes
		}
	}
	if e.Addressed() { // said to some: whom, and what of a claim
		var to []string
		for _, t := range e.To {
			to = append(to, labels.Naming().Label(t, ""))
		}
		kind += " to " + strings.Join(to, ", ")
		if len(e.Claim) > 0 {
			kind += " on " + strings.Join(e.Claim, " ")
		}
	}
	text := e.Text
	cut := ""
	if len(text) > maxEntryText {
		n := maxEntryText
		for n > 0 && !utf8Start(text[n]) {
			n--
		}
		text, cut = text[:n], "… (`lucid log` has it all)"
	}
	text = escape.Words(text) + cut
	fmt.Fprintf(&b, "- [%s] %s (%s, %s, %s)\n", escape.Line(kind), text, escape.Line(labels.Label(e.Agent)), present.Ago(e.Time(), now), e.ID)
	marks := map[int]string{}
	for _, s := range stale {
		marks[s.Index] = s.String()
	}
	for i, ev := range e.Evidence {
		cite := escape.Line(ev.Path)
		if ev.Line > 0 {
			cite = fmt.Sprintf("%s:%d", cite, ev.Line)
		}
		if m := marks[i]; m != "" {
			fmt.Fprintf(&b, "  evidence: %s %s\n", cite, escape.Line(m))
		} else {
			fmt.Fprintf(&b, "  evidence: %s\n", cite)
		}
	}
	return b.String()
}
