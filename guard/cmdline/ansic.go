package cmdline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// DollarQuoted is the text of a '...' or $'...' part, the escapes of the
// latter decoded as bash decodes them.
func DollarQuoted(p *syntax.SglQuoted) string {
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
				n, w := ANSIDigits(s[i:], 3, 8)
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
			n, w = ANSIDigits(s[2:], len(s), 16)
			if w += 2; w < len(s) && s[w] == '}' {
				w++
			}
			return n, w // \x{} is a NUL
		}
		max = 2
	case 'u':
		max = 4
	}
	if n, w = ANSIDigits(s[1:], max, 16); w == 0 {
		return 0, 0
	}
	return n, w + 1
}

// ANSIDigits reads up to max digits of base 8 or 16 at the start of s and
// returns their value (past 64 bits, its low bits) and how many there were.
func ANSIDigits(s string, max int, base uint64) (n uint64, w int) {
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
