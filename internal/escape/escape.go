// Package escape makes text safe to print for a person or a model: every
// control character (C0 but newline and tab where a newline belongs, DEL,
// C1), the characters that reorder or break lines unseen (bidi controls,
// U+2028, U+2029) and every byte that is not UTF-8 are written as Go
// escapes (\x1b, \r, \u202e), so text read from the log, a claim or a
// payload cannot set a terminal's title, clear the screen, or hide words
// behind a carriage return. Everything printable, in any script, is left as
// it is. What an author wrote is fenced besides (Words, Block: said.go), so
// that it cannot pass for lucid's own words.
package escape

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line escapes s for a one-line place (a name, a task, a glob, a path):
// newlines and tabs are escaped too, and so are the guillemets (\u00ab,
// \u00bb), which fence an author's words (Words): a name or a path in
// lucid's sentence cannot open or close a fence.
func Line(s string) string { return escape(s, false) }

// Text escapes s for a place where lines belong (an entry's text, a diff, the
// plan): newline, tab and a CR before a newline stay.
func Text(s string) string { return escape(s, true) }

// Needed reports whether Line would change s (multiline: whether Text
// would): whether s, printed as it is, carries a control character.
func Needed(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if bad(r, n, multiline, s[i+n:]) {
			return true
		}
		i += n
	}
	return false
}

// bad reports whether rune r (n bytes; rest follows it) must be escaped.
func bad(r rune, n int, multiline bool, rest string) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true // not UTF-8
	case r == '\n', r == '\t':
		return !multiline
	case r == '\r':
		return !multiline || !strings.HasPrefix(rest, "\n")
	case r == '«', r == '»':
		return !multiline
	}
	return r < 0x20 || (r >= 0x7f && r < 0xa0) || hidden(r)
}

// hidden reports whether r reorders or breaks text without being seen:
// the bidi controls ("Trojan Source") and the Unicode line separators.
func hidden(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) ||
		(r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029
}

// JSON rewrites the characters that encoding/json leaves raw and Line would
// escape (DEL, C1, the bidi controls) as JSON escapes (\u007f), so that
// JSON output stays exact for programs and safe on a terminal. json already
// escapes C0 and U+2028/U+2029 and replaces invalid UTF-8.
func JSON(b []byte) []byte {
	if !Needed(string(b), true) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && bad(r, n, true, "") && r >= 0x7f {
			out = append(out, fmt.Sprintf(`\u%04x`, r)...)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

func escape(s string, multiline bool) string {
	if !Needed(s, multiline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !bad(r, n, multiline, s[i+n:]):
			b.WriteString(s[i : i+n])
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case r == '«', r == '»':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\r', '\u0085'
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// Writer escapes, as Text does, all that is written through it to w: the
// last guard of a command's output, whatever a message forgot. A rune cut
// between two writes is kept until the next write completes it.
type Writer struct {
	w     io.Writer
	carry []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (e *Writer) Write(p []byte) (int, error) {
	b := append(e.carry, p...)
	e.carry = nil
	// Keep an unfinished rune (or a CR that may be a CRLF) for later.
	if k := cut(b); k < len(b) {
		e.carry = append([]byte(nil), b[k:]...)
		b = b[:k]
	}
	if _, err := io.WriteString(e.w, Text(string(b))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is kept of an unfinished rune, escaped.
func (e *Writer) Flush() error {
	if len(e.carry) == 0 {
		return nil
	}
	b := e.carry
	e.carry = nil
	_, err := io.WriteString(e.w, Text(string(b)))
	return err
}

// cut is where b's complete runes end: before a last CR, or before the
// start of a rune that is not finished yet.
func cut(b []byte) int {
	n := len(b)
	if n > 0 && b[n-1] == '\r' {
		return n - 1
	}
	for i := n - 1; i >= 0 && i >= n-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return n
}
