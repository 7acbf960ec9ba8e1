package guard

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// shUnknown stands, inside an argument's text, for what only the running
// shell knows: a variable, a $( ), a ~. It is a Unicode noncharacter, so it
// does not occur in a real path; a path that contains it is never reported.
const shUnknown = "\uffff"

// shArg is one word of a command after quote removal.
type shArg struct {
	s string // the text, with shUnknown where it is not known
	// multi is set when the shell may turn the word into any number of
	// words: an unquoted expansion, a glob, a brace expansion.
	multi bool
	pos   uint // offset of the word in the source
	// under, when not "", makes the argument the files under the folder s
	// (absolute) that the doublestar glob under matches: what find hands
	// to -exec and xargs. Only write reads it; to everything else it is
	// not a known word.
	under string
}

// lit is the argument's text when it is exactly one known word.
func (a shArg) lit() (string, bool) {
	if a.multi || a.under != "" || strings.Contains(a.s, shUnknown) {
		return "", false
	}
	return a.s, true
}

// is reports whether the argument is exactly the one known word s.
func (a shArg) is(s string) bool {
	t, ok := a.lit()
	return ok && t == s
}

// shellArgs converts the words of a command.
func shellArgs(words []*syntax.Word) []shArg {
	args := make([]shArg, len(words))
	for i, w := range words {
		args[i] = shellArg(w)
	}
	return args
}

// shellArg removes the quotes from a word, as the shell would, with
// shUnknown in place of what it would expand.
func shellArg(w *syntax.Word) shArg {
	if w == nil || len(w.Parts) == 0 {
		return shArg{s: shUnknown}
	}
	a := shArg{pos: w.Pos().Offset()}
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && plainLit(lit.Value) {
			a.s = lit.Value
			return a
		}
	}
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if unquotedLit(&b, p.Value, i == 0) {
				a.multi = true
			}
		case *syntax.SglQuoted:
			b.WriteString(dollarQuoted(p))
		case *syntax.DblQuoted:
			if dblQuoted(&b, p.Parts) {
				a.multi = true
			}
		case *syntax.ProcSubst:
			b.WriteString(shUnknown) // a /dev/fd/N path
		default:
			// $X, ${X}, $( ), $(( )) unquoted are split into words.
			b.WriteString(shUnknown)
			a.multi = true
		}
	}
	a.s = b.String()
	return a
}

// dollarQuoted is the text of a '...' or $'...' part, the escapes of the
// latter decoded as bash does (expand.Literal; it stops at a \0).
func dollarQuoted(p *syntax.SglQuoted) string {
	if !p.Dollar || !strings.Contains(p.Value, `\`) {
		return p.Value
	}
	s, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{p}})
	if err != nil {
		return shUnknown
	}
	return s
}

// plainLit reports whether an unquoted literal means itself: no escapes,
// globs, braces or tilde.
func plainLit(s string) bool {
	return !strings.ContainsAny(s, "\\*?[{~")
}

// unquotedLit appends an unquoted literal without its backslashes and
// reports whether it holds a glob or a brace expansion. A leading ~, or one
// after = or :, is the home folder: unknown.
func unquotedLit(b *strings.Builder, s string, first bool) (multi bool) {
	brace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
				}
				continue
			}
		case '*', '?', '[':
			multi = true
		case '{':
			brace = true
		case ',':
			if brace {
				multi = true
			}
		case '.':
			if brace && i+1 < len(s) && s[i+1] == '.' {
				multi = true
			}
		case '~':
			if (i == 0 && first) || (i > 0 && (s[i-1] == '=' || s[i-1] == ':')) {
				b.WriteString(shUnknown)
				continue
			}
		}
		b.WriteByte(c)
	}
	return multi
}

// dblQuoted appends the text of a "..." word part and reports whether it
// expands to several words ("$@", "${a[@]}").
func dblQuoted(b *strings.Builder, parts []syntax.WordPart) (multi bool) {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			unescape(b, p.Value, "$`\"\\\n")
		case *syntax.ParamExp:
			if p.Index != nil || (p.Param != nil && p.Param.Value == "@") {
				multi = true
			}
			b.WriteString(shUnknown)
		default:
			b.WriteString(shUnknown)
		}
	}
	return multi
}

// unescape appends s with a backslash removed before each byte of special
// (and a backslash-newline removed whole), as in "..." and heredocs.
func unescape(b *strings.Builder, s, special string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(special, s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
}

// heredocText is the text a heredoc feeds to its command: the body as
// written when the delimiter is quoted, otherwise with escapes removed and
// shUnknown for expansions.
func heredocText(r *syntax.Redirect) string {
	if r.Hdoc == nil {
		return ""
	}
	quoted := r.Word == nil
	if r.Word != nil {
		for _, p := range r.Word.Parts {
			if lit, ok := p.(*syntax.Lit); !ok || strings.Contains(lit.Value, `\`) {
				quoted = true
			}
		}
	}
	var b strings.Builder
	for _, part := range r.Hdoc.Parts {
		lit, ok := part.(*syntax.Lit)
		switch {
		case !ok:
			b.WriteString(shUnknown)
		case quoted:
			b.WriteString(lit.Value)
		default:
			unescape(&b, lit.Value, "$`\\\n")
		}
	}
	return b.String()
}

// stdinScript is the text of the heredoc or here-string a command reads
// as its standard input, if that is all it reads.
func stdinScript(redirs []*syntax.Redirect) (string, bool) {
	text, ok := "", false
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			text, ok = heredocText(r), true
		case syntax.WordHdoc:
			text, ok = shellArg(r.Word).s+"\n", true
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			text, ok = "", false
		}
	}
	return text, ok
}
