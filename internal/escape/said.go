package escape

import "strings"

// What an author wrote (an agent or a person: a message, an entry's text,
// a claim's task, a release's why, a line of the plan) reaches another
// agent's context fenced, so that nothing in it passes for lucid's own
// words: lucid's lines start "lucid: " or are its own structure (the
// digest's "## " headings, "  Answer with:", "  To hand it over:"), and
// no line of an author's starts so. The fence has two forms, one rule:
//
//   - Words, inline, for what is said in a sentence of lucid's: on one
//     line between « and », every line break and control character shown
//     as an escape (\n, \x1b), and the guillemets within shown as \u00ab
//     and \u00bb, so that the text can neither break the line nor end the
//     fence early. The sentence around it names the author.
//   - Block, for a document an author keeps (the plan, digest.md, a plan
//     change's diff): each of its lines after Bar, its controls shown, so
//     that none starts a line; the block ends where the bars stop. The
//     line before it names the document.
//
// lucid's own lines never start with Bar, and never put « in its own words.
const (
	Open  = "«"
	Close = "»"
	Bar   = "│"
)

// Words fences s inline, as an author's words in a sentence of lucid's:
// «s» on one line, its line breaks, tabs and controls shown as escapes, its
// guillemets as \u00ab and \u00bb. A CRLF is one line break, shown \n.
func Words(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return Open + Line(s) + Close
}

// Block fences the document s line by line: each line of it, its controls
// shown as Text shows them (tabs kept), after indent and "│ " ("│" alone
// for a blank line). A final line break ends the last line; the result has
// none. "" is one blank line.
func Block(s, indent string) string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var b strings.Builder
	b.Grow(len(s) + 8*strings.Count(s, "\n") + 8)
	for i, l := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(indent)
		b.WriteString(Bar)
		if l != "" {
			b.WriteByte(' ')
			b.WriteString(Text(l))
		}
	}
	return b.String()
}
