package overlap

import (
	"strings"
	"unicode/utf8"
)

// globParse is a valid pattern with its brace structure: what doublestar's
// scan sees at each byte offset.
type globParse struct {
	pat string
	// jump[i] is, for a ',' or '}' that ends an alternative, the offset of
	// the closing '}' of its brace; for a '{', -2 minus that offset; -1
	// elsewhere. It is nil without braces.
	jump []int32
	// scratch backs the marks of one walk at a time.
	scratch marks
}

// parseBraces finds each brace's alternatives and end, the way doublestar's
// indexMatchedClosingAlt and indexNextAlt do: skipping escapes and classes.
// pat must be valid.
func parseBraces(pat string) globParse {
	g := globParse{pat: pat}
	if strings.IndexByte(pat, '{') < 0 {
		return g
	}
	g.jump = make([]int32, len(pat))
	var stack []int // offsets of the open braces, then of their commas
	for i := range g.jump {
		g.jump[i] = -1
	}
	for i := 0; i < len(pat); {
		switch pat[i] {
		case '{':
			g.jump[i] = -2 // marks an open brace on the stack
			stack = append(stack, i)
			i++
		case ',':
			if len(stack) > 0 {
				stack = append(stack, i)
			}
			i++
		case '}':
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if pat[top] == '{' {
					g.jump[top] = int32(-2 - i)
					break
				}
				g.jump[top] = int32(i)
			}
			g.jump[i] = int32(i)
			i++
		default:
			i = g.elemEnd(i)
		}
	}
	return g
}

// closeOf returns the offset of the '}' that closes the '{' at offset i.
func (g *globParse) closeOf(i int) int { return int(-2 - g.jump[i]) }

// nextAlt returns where the alternative after the one starting at offset a
// of the brace at offset i starts, or -1 after the last one. The first
// starts at i+1.
func (g *globParse) nextAlt(i, a int) int {
	end := g.closeOf(i)
	for c := a; c < end; c++ {
		if g.pat[c] == ',' && int(g.jump[c]) == end {
			return c + 1
		}
	}
	return -1
}

// altEnd returns, for a ',' or '}' at offset i that ends an alternative,
// the offset of its brace's '}'; -1 elsewhere.
func (g *globParse) altEnd(i int) int {
	if g.jump == nil || g.jump[i] < 0 {
		return -1
	}
	return int(g.jump[i])
}

// elemEnd returns where the element starting at i ends: an escape, a class
// or one rune.
func (g *globParse) elemEnd(i int) int {
	switch g.pat[i] {
	case '\\':
		_, w := utf8.DecodeRuneInString(g.pat[i+1:])
		return i + 1 + w
	case '[':
		_, _, end := parseClass(g.pat, i)
		return end
	}
	_, w := utf8.DecodeRuneInString(g.pat[i:])
	return i + w
}

// follow returns where the scan reads next from offset i: the end of an
// alternative continues after its brace's '}'. It returns len(pat) at the
// end.
func (g *globParse) follow(i int) int {
	for i < len(g.pat) && g.altEnd(i) >= 0 {
		i = g.altEnd(i) + 1
	}
	return i
}

// parseClass reads the class at pat[i] == '[' as doublestar's matcher does
// and returns the runes it lists, whether it is negated, and its end.
func parseClass(pat string, i int) (set runeSet, negate bool, end int) {
	i++
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	last := utf8.MaxRune
	for i < len(pat) && pat[i] != ']' {
		r, w := utf8.DecodeRuneInString(pat[i:])
		i += w
		if last < utf8.MaxRune && r == '-' && i < len(pat) && pat[i] != ']' {
			if pat[i] == '\\' {
				i++
			}
			hi, w := utf8.DecodeRuneInString(pat[i:])
			i += w
			if last <= hi {
				set = append(set, runeRange{last, hi})
			}
			last = utf8.MaxRune
			continue
		}
		if r == '\\' && i < len(pat) {
			r, w = utf8.DecodeRuneInString(pat[i:])
			i += w
		}
		set = append(set, runeRange{r, r})
		last = r
	}
	return set.normalize(), negate, i + 1
}

// marks is a set of small numbers. The walks through alternatives below
// keep one, so that a run of braces like "{,}{,}{,}" costs each walk time in
// proportion to its length, not 2 to the number of braces.
type marks []uint64

// marks returns an empty set for numbers below n, reusing g's scratch:
// one walk at a time may use it.
func (g *globParse) marks(n int) marks {
	words := n/64 + 1
	if cap(g.scratch) < words {
		g.scratch = make(marks, words)
	}
	m := g.scratch[:words]
	clear(m)
	return m
}

// first reports whether i was not in the set, and adds it.
func (m marks) first(i int) bool {
	if m[i/64]&(1<<(i%64)) != 0 {
		return false
	}
	m[i/64] |= 1 << (i % 64)
	return true
}

// firsts appends the offsets of the elements that can come first from
// offset i on, entering braces; len(pat) stands for the end. Each offset
// comes once.
func (g *globParse) firsts(i int, out []int) []int {
	return g.firstsFrom(i, out, g.marks(len(g.pat)+1))
}

func (g *globParse) firstsFrom(i int, out []int, seen marks) []int {
	i = g.follow(i)
	if !seen.first(i) {
		return out
	}
	if i < len(g.pat) && g.pat[i] == '{' {
		for a := i + 1; a >= 0; a = g.nextAlt(i, a) {
			out = g.firstsFrom(a, out, seen)
		}
		return out
	}
	return append(out, i)
}

// zeroRest reports whether some expansion of the pattern from offset p is
// a rest doublestar's isZeroLengthPattern accepts.
func (g *globParse) zeroRest(p int) bool {
	var seen marks
	if g.jump != nil {
		seen = g.marks(32 * (len(g.pat) + 1))
	}
	return g.zeroRestFrom(p, [4]byte{}, 0, seen)
}

// zeroRestFrom is zeroRest where the expansion holds acc[:n] so far; seen
// has the (offset, acc[:n]) already tried.
func (g *globParse) zeroRestFrom(p int, acc [4]byte, n int, seen marks) bool {
	for {
		p = g.follow(p)
		if p == len(g.pat) {
			switch string(acc[:n]) {
			case "", "*", "**", "/**", "**/", "/**/":
				return true
			}
			return false
		}
		switch g.pat[p] {
		case '{':
			k := 1 << n // acc[:n] as a number in [1, 32)
			for i, c := range acc[:n] {
				if c == '/' {
					k |= 1 << i
				}
			}
			if !seen.first(32*p + k) {
				return false
			}
			for a := p + 1; a >= 0; a = g.nextAlt(p, a) {
				if g.zeroRestFrom(a, acc, n, seen) {
					return true
				}
			}
			return false
		case '*', '/':
			if n == len(acc) {
				return false
			}
			acc[n] = g.pat[p]
			n++
			p++
		default:
			return false
		}
	}
}
