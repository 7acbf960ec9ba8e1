// Package escape makes text safe to print for a person or a model: every
// control character (C0 but newline and tab where a newline belongs, DEL,
// C1) and every byte that is not UTF-8 is written as a Go escape (\x1b, \r,
// \u0085), so text read from the log, a claim or a payload cannot set a
// terminal's title, clear the screen, or hide words behind a carriage
// return. Everything printable, in any script, is left as it is.
package escape

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line escapes s for a one-line place (a name, a task, a glob, a path):
// newlines and tabs are escaped too.
func Line(s string) string { return escape(s, false) }

// Text escapes s for a place where lines belong (an entry's text, a diff, the
// plan): newline, tab and a CR before a newline stay.
func Text(s string) string { return escape(s, true) }

// Needed reports whether Line would change s (multiline: whether Text
// would).
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
	}
	return r < 0x20 || (r >= 0x7f && r < 0xa0)
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
