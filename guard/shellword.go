package guard

import (
	"strings"

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
	// word is the word of the source the argument comes from, for
	// StampLucid to insert before; with part, the argument is that word's
	// unquoted text from byte at on (an option's attached value, a word of
	// env -S). nil when the argument is not a word's text byte for byte.
	// split is set for a word of env -S: a script in it is spelled as env
	// reads its string.
	word  *syntax.Word
	at    int
	part  bool
	split bool
}

// lit is the argument's text when it is exactly one known word.
func (a shArg) lit() (string, bool) {
	if a.multi || a.under != "" || strings.Contains(a.s, shUnknown) {
		return "", false
	}
	return a.s, true
}

// from is the argument's text from byte i on, as the value attached to
// an option (-Sfoo, --file=foo).
func (a shArg) from(i int) shArg {
	return shArg{s: a.s[i:], multi: a.multi, pos: a.pos, word: a.word, at: a.at + i, part: true, split: a.split}
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
func shellArg(w *syntax.Word) shArg { return unquoteWord(w, nil) }

// unquoteWord is shellArg, recording in m (when not nil) which bytes of
// the text are the word's own.
func unquoteWord(w *syntax.Word, m *srcMap) shArg {
	if w == nil || len(w.Parts) == 0 {
		return shArg{s: shUnknown}
	}
	a := shArg{pos: w.Pos().Offset(), word: w}
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && plainLit(lit.Value) {
			a.s = lit.Value
			m.copied(0, int(lit.Pos().Offset()), len(lit.Value), bare)
			return a
		}
	}
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if unquotedLit(&b, p.Value, i == 0, m, int(p.Pos().Offset())) {
				a.multi = true
			}
		case *syntax.SglQuoted:
			text := dollarQuoted(p)
			switch {
			case !p.Dollar:
				m.copied(b.Len(), int(p.Pos().Offset())+1, len(text), single)
			case text == p.Value: // no escape in it
				m.copied(b.Len(), int(p.Pos().Offset())+2, len(text), dollarSingle)
			}
			b.WriteString(text)
		case *syntax.DblQuoted:
			if dblQuoted(&b, p.Parts, m) {
				a.multi = true
			}
		case *syntax.ProcSubst:
			m.hole(b.Len(), p)
			b.WriteString(shUnknown) // a /dev/fd/N path
		default:
			m.hole(b.Len(), p)
			// $X, ${X}, $( ), $(( )) unquoted are split into words.
			b.WriteString(shUnknown)
			a.multi = true
		}
	}
	a.s = b.String()
	return a
}

// dollarQuoted is the text of a '...' or $'...' part, the escapes of the
// latter decoded as bash decodes them.
func dollarQuoted(p *syntax.SglQuoted) string {
	if !p.Dollar {
		return p.Value
	}
	return ansiC(p.Value)
}

// ansiC decodes the text between the quotes of a $'...' word as bash 5 does
// in a UTF-8 locale. lucid decodes it itself: expand.Literal could, but
// linking mvdan.cc/sh/v3/expand (and with it pattern and internal) runs their
// init, two regexp compiles among it, at the start of every lucid process,
// every hook included.
//
// Where bash and expand.Literal disagree, this follows bash:
//   - \x{H...} takes any number of hex digits and an optional }, so
//     $'a\x{2f}b' is a/b; expand keeps the text as written.
//   - \cX is the control character X&0x1f (\c? is DEL, \c\\ is Ctrl-\);
//     expand keeps the text as written.
//   - an octal escape ends at an 8 or a 9 ($'\578' is /8); expand reads
//     them as digits and writes a NUL, which ends the word.
//   - an octal escape past \377 keeps its low 8 bits ($'\500' is @, $'\400'
//     a NUL); expand writes 0xff.
//   - \u and \U write surrogates and values up to 0x7fffffff in the original
//     UTF-8 of up to six bytes, and nothing at all past that; expand writes
//     U+FFFD.
//
// In a C locale bash writes \u or \U past 0x7f as the text \u00E9 instead;
// agents' shells run in UTF-8, so this does not. A NUL ends the word.
func ansiC(s string) string {
	if !strings.ContainsAny(s, "\\\x00") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch c = s[i]; c {
			case 'a':
				c = '\a'
			case 'b':
				c = '\b'
			case 'e', 'E':
				c = 0x1b
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'v':
				c = '\v'
			case '\\', '\'', '"', '?':
			case '0', '1', '2', '3', '4', '5', '6', '7':
				n, w := ansiDigits(s[i:], 3, 8)
				i += w - 1
				c = byte(n)
			case 'x', 'u', 'U':
				n, w := ansiCode(s[i:])
				if w == 0 {
					b.WriteByte('\\')
					break
				}
				i += w - 1
				if c != 'x' && n != 0 {
					appendUTF8(&b, n)
					continue
				}
				c = byte(n)
			case 'c':
				if i+1 == len(s) {
					b.WriteByte('\\')
					break
				}
				i++
				if c = s[i]; c == '\\' && i+1 < len(s) && s[i+1] == '\\' {
					i++
				}
				if c == '?' {
					c = 0x7f
				} else {
					c &= 0x1f
				}
			default:
				b.WriteByte('\\')
			}
		}
		if c == 0 {
			break
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ansiCode reads the number of a \x, \u or \U escape, s starting at the
// letter, and returns it with the length of the escape from the letter on;
// the length is 0 when there is no number, and the escape means itself.
func ansiCode(s string) (n uint64, w int) {
	max := 8
	switch s[0] {
	case 'x':
		if len(s) > 1 && s[1] == '{' {
			n, w = ansiDigits(s[2:], len(s), 16)
			if w += 2; w < len(s) && s[w] == '}' {
				w++
			}
			return n, w // \x{} is a NUL
		}
		max = 2
	case 'u':
		max = 4
	}
	if n, w = ansiDigits(s[1:], max, 16); w == 0 {
		return 0, 0
	}
	return n, w + 1
}

// ansiDigits reads up to max digits of base 8 or 16 at the start of s and
// returns their value (past 64 bits, its low bits) and how many there were.
func ansiDigits(s string, max int, base uint64) (n uint64, w int) {
	for ; w < max && w < len(s); w++ {
		var d uint64
		switch c := s[w]; {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c && c <= 'f':
			d = uint64(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return n, w
		}
		if d >= base {
			return n, w
		}
		n = n*base + d
	}
	return n, w
}

// appendUTF8 writes r in UTF-8 as bash does: the original encoding of up to
// six bytes, surrogates included, and nothing past 31 bits.
func appendUTF8(b *strings.Builder, r uint64) {
	if r < 0x80 {
		b.WriteByte(byte(r))
		return
	}
	if r > 0x7fffffff {
		return
	}
	n := 2 // bytes; n of them hold 5n+1 bits
	for r >= 1<<(5*n+1) {
		n++
	}
	b.WriteByte(0xff<<(8-n) | byte(r>>(6*(n-1))))
	for k := n - 2; k >= 0; k-- {
		b.WriteByte(0x80 | byte(r>>(6*k))&0x3f)
	}
}

// plainLit reports whether an unquoted literal means itself: no escapes,
// globs, braces or tilde.
func plainLit(s string) bool {
	return !strings.ContainsAny(s, "\\*?[{~")
}

// unquotedLit appends an unquoted literal without its backslashes and
// reports whether it holds a glob or a brace expansion. A leading ~, or one
// after = or :, is the home folder: unknown. m records the bytes copied
// as they are; s starts at off in the source.
func unquotedLit(b *strings.Builder, s string, first bool, m *srcMap, off int) (multi bool) {
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
		m.copied(b.Len(), off+i, 1, bare)
		b.WriteByte(c)
	}
	return multi
}

// dblQuoted appends the text of a "..." word part and reports whether it
// expands to several words ("$@", "${a[@]}"). m records the bytes copied
// as they are.
func dblQuoted(b *strings.Builder, parts []syntax.WordPart, m *srcMap) (multi bool) {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			unescape(b, p.Value, "$`\"\\\n", m, int(p.Pos().Offset()), double)
		case *syntax.ParamExp:
			if p.Index != nil || (p.Param != nil && p.Param.Value == "@") {
				multi = true
			}
			m.hole(b.Len(), p)
			b.WriteString(shUnknown)
		default:
			m.hole(b.Len(), p)
			b.WriteString(shUnknown)
		}
	}
	return multi
}

// unescape appends s with a backslash removed before each byte of special
// (and a backslash-newline removed whole), as in "..." and heredocs. m
// records the bytes copied as they are, s starting at off in the source,
// quoted as q.
func unescape(b *strings.Builder, s, special string, m *srcMap, off int, q quoting) {
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
// shUnknown for expansions. m records the bytes copied as they are.
func heredocText(r *syntax.Redirect, m *srcMap) string {
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
			b.WriteString(shUnknown)
		case quoted:
			m.copied(b.Len(), int(lit.Pos().Offset()), len(lit.Value), heredocRaw)
			b.WriteString(lit.Value)
		default:
			unescape(&b, lit.Value, "$`\\\n", m, int(lit.Pos().Offset()), heredocExp)
		}
	}
	return b.String()
}

// stdinScript is the text of the heredoc or here-string a command reads
// as its standard input, if that is all it reads.
func stdinScript(redirs []*syntax.Redirect) (string, bool) {
	if r := stdinRedir(redirs); r != nil {
		return redirText(r, nil), true
	}
	return "", false
}

// stdinRedir is the heredoc or here-string a command reads as its
// standard input, if that is what it reads: the last redirection of
// descriptor 0 wins.
func stdinRedir(redirs []*syntax.Redirect) *syntax.Redirect {
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

// redirText is the text a heredoc or a here-string feeds to its command;
// m records the bytes copied as they are.
func redirText(r *syntax.Redirect, m *srcMap) string {
	if r.Op == syntax.WordHdoc {
		return unquoteWord(r.Word, m).s + "\n"
	}
	return heredocText(r, m)
}
