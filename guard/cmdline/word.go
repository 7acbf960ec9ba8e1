package cmdline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Unknown stands, inside an argument's text, for what only the running
// shell knows: a variable, a $( ), a ~. It is a Unicode noncharacter, so it
// does not occur in a real path; a path that contains it is never reported.
const Unknown = "\uffff"

// Arg is one word of a command after quote removal.
type Arg struct {
	Text string // the text, with Unknown where it is not known
	// Multi is set when the shell may turn the word into any number of
	// words: an unquoted expansion, a glob, a brace expansion.
	Multi bool
	Pos   uint // offset of the word in the source
	// Under, when not "", makes the argument the files under the folder
	// Text (absolute) that the doublestar glob Under matches: what find
	// hands to -exec and xargs. Only the shell analysis reads it as paths;
	// to everything else it is not a known word.
	Under string
	// Word is the word of the source the argument comes from, for
	// the stamp to insert before; with Part, the argument is that word's
	// unquoted text from byte At on (an option's attached value, a word of
	// env -S). nil when the argument is not a word's text byte for byte.
	// Split is set for a word of env -S: a script in it is spelled as env
	// reads its string.
	Word  *syntax.Word
	At    int
	Part  bool
	Split bool
}

// Lit is the argument's text when it is exactly one known word.
func (a Arg) Lit() (string, bool) {
	if a.Multi || a.Under != "" || strings.Contains(a.Text, Unknown) {
		return "", false
	}
	return a.Text, true
}

// From is the argument's text from byte i on, as the value attached to
// an option (-Sfoo, --file=foo).
func (a Arg) From(i int) Arg {
	return Arg{Text: a.Text[i:], Multi: a.Multi, Pos: a.Pos, Word: a.Word, At: a.At + i, Part: true, Split: a.Split}
}

// Is reports whether the argument is exactly the one known word s.
func (a Arg) Is(s string) bool {
	t, ok := a.Lit()
	return ok && t == s
}

// Args converts the words of a command.
func Args(words []*syntax.Word) []Arg {
	args := make([]Arg, len(words))
	for i, w := range words {
		args[i] = ArgOf(w)
	}
	return args
}

// ArgOf removes the quotes from a word, as the shell would, with
// Unknown in place of what it would expand.
func ArgOf(w *syntax.Word) Arg { return Unquote(w, nil) }

// Unquote is ArgOf, recording in m (when not nil) which bytes of
// the text are the word's own.
func Unquote(w *syntax.Word, m *SrcMap) Arg {
	if w == nil || len(w.Parts) == 0 {
		return Arg{Text: Unknown}
	}
	a := Arg{Pos: w.Pos().Offset(), Word: w}
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && PlainLit(lit.Value) {
			a.Text = lit.Value
			m.copied(0, int(lit.Pos().Offset()), len(lit.Value), Bare)
			return a
		}
	}
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if unquotedLit(&b, p.Value, i == 0, m, int(p.Pos().Offset())) {
				a.Multi = true
			}
		case *syntax.SglQuoted:
			text := DollarQuoted(p)
			switch {
			case !p.Dollar:
				m.copied(b.Len(), int(p.Pos().Offset())+1, len(text), Single)
			case text == p.Value: // no escape in it
				m.copied(b.Len(), int(p.Pos().Offset())+2, len(text), DollarSingle)
			}
			b.WriteString(text)
		case *syntax.DblQuoted:
			if dblQuoted(&b, p.Parts, m) {
				a.Multi = true
			}
		case *syntax.ProcSubst:
			m.hole(b.Len(), p)
			b.WriteString(Unknown) // a /dev/fd/N path
		default:
			m.hole(b.Len(), p)
			// $X, ${X}, $( ), $(( )) unquoted are split into words.
			b.WriteString(Unknown)
			a.Multi = true
		}
	}
	a.Text = b.String()
	return a
}

// PlainLit reports whether an unquoted literal means itself: no escapes,
// globs, braces or tilde.
func PlainLit(s string) bool {
	return !strings.ContainsAny(s, "\\*?[{~")
}

// unquotedLit appends an unquoted literal without its backslashes and
// reports whether it holds a glob or a brace expansion. A leading ~, or one
// after = or :, is the home folder: unknown. m records the bytes copied
// as they are; s starts at off in the source.
func unquotedLit(b *strings.Builder, s string, first bool, m *SrcMap, off int) (multi bool) {
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
				b.WriteString(Unknown)
				continue
			}
		}
		m.copied(b.Len(), off+i, 1, Bare)
		b.WriteByte(c)
	}
	return multi
}

// dblQuoted appends the text of a "..." word part and reports whether it
// expands to several words ("$@", "${a[@]}"). m records the bytes copied
// as they are.
func dblQuoted(b *strings.Builder, parts []syntax.WordPart, m *SrcMap) (multi bool) {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			Unescape(b, p.Value, "$`\"\\\n", m, int(p.Pos().Offset()), Double)
		case *syntax.ParamExp:
			if p.Index != nil || (p.Param != nil && p.Param.Value == "@") {
				multi = true
			}
			m.hole(b.Len(), p)
			b.WriteString(Unknown)
		default:
			m.hole(b.Len(), p)
			b.WriteString(Unknown)
		}
	}
	return multi
}

// Unescape appends s with a backslash removed before each byte of special
// (and a backslash-newline removed whole), as in "..." and heredocs. m
// records the bytes copied as they are, s starting at off in the source,
// quoted as q.
func Unescape(b *strings.Builder, s, special string, m *SrcMap, off int, q Quoting) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(special, s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		m.copied(b.Len(), off+i, 1, q)
		b.WriteByte(s[i])
	}
}

// heredocText is the text a heredoc feeds to its command: the body as
// written when the delimiter is quoted, otherwise with escapes removed and
// Unknown for expansions. m records the bytes copied as they are.
func heredocText(r *syntax.Redirect, m *SrcMap) string {
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
			m.hole(b.Len(), part)
			b.WriteString(Unknown)
		case quoted:
			m.copied(b.Len(), int(lit.Pos().Offset()), len(lit.Value), HeredocRaw)
			b.WriteString(lit.Value)
		default:
			Unescape(&b, lit.Value, "$`\\\n", m, int(lit.Pos().Offset()), HeredocExp)
		}
	}
	return b.String()
}

// StdinScript is the text of the heredoc or here-string a command reads
// as its standard input, if that is all it reads.
func StdinScript(redirs []*syntax.Redirect) (string, bool) {
	if r := StdinRedir(redirs); r != nil {
		return RedirText(r, nil), true
	}
	return "", false
}

// StdinRedir is the heredoc or here-string a command reads as its
// standard input, if that is what it reads: the last redirection of
// descriptor 0 wins.
func StdinRedir(redirs []*syntax.Redirect) *syntax.Redirect {
	var in *syntax.Redirect
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			in = r
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			in = nil
		}
	}
	return in
}

// RedirText is the text a heredoc or a here-string feeds to its command;
// m records the bytes copied as they are.
func RedirText(r *syntax.Redirect, m *SrcMap) string {
	if r.Op == syntax.WordHdoc {
		return Unquote(r.Word, m).Text + "\n"
	}
	return heredocText(r, m)
}
