package overlap

import (
	"slices"
	"unicode/utf8"
)

// A glob compiles to a nondeterministic automaton over runes that accepts
// the names doublestar.Match accepts: exactly those for a glob exactGlob
// accepts, and a few more for the others (see exactGlob). It follows
// doublestar's own scan rather than a textbook reading of glob syntax,
// because the two differ in places a claim can hit (TestDoublestarSemantics
// pins each):
//
//   - "**" is a doublestar only as a whole segment: at the start of the
//     pattern or after a '/', and followed by '/' or the end. Elsewhere it
//     is a star. "**/" takes zero or more whole segments; a final "**"
//     takes the rest of the name, '/' included.
//   - when the name runs out, doublestar accepts only if the rest of the
//     pattern is "", "*", "**", "/**", "**/" or "/**/", or becomes one by
//     choosing alternatives (isZeroLengthPattern). So "a/**" matches "a",
//     but "a*/**" does not. A state accepts only where the name can end in
//     that sense: right after a rune was taken, with that rest.
//   - '?' and '*' never take '/'; a class can ("a[^x]b" matches "a/b").
//
// The states, each at a byte offset p of the pattern:
//
//   - at(p, seg): the scan is about to read at p; seg says whether that is
//     the start of a segment (doublestar's startOfSegment). Not accepting:
//     no rune was taken to get here.
//   - fresh(p, seg): a rune was just taken and the scan stands at p; it
//     accepts if the rest of the pattern from p is zero-length.
//   - star(p): inside a star, after which the scan resumes at p.
//   - dsHead(p), dsIn(p), dsEnd(p): before, inside and at the end of a
//     segment that "**/" takes; the scan then resumes at p.
//   - all: after a final "**".
//
// Empty transitions go through alternatives and past what may take nothing
// (a star, "**/"); the search in Witness follows them as it goes,
// which keeps the automaton linear in the pattern's length.

// globEdge is a transition on any rune of set.
type globEdge struct {
	set runeSet
	to  int32
}

// globNFA is a compiled glob. State 0 is the start. State s takes a rune
// by edges[first[s]:first[s+1]] and nothing by eps[epsFirst[s]:epsFirst[s+1]].
type globNFA struct {
	edges    []globEdge
	first    []int32
	eps      []int32
	epsFirst []int32
	accept   []bool
}

func (g *globNFA) states() int { return len(g.accept) }

func (g *globNFA) out(s int32) []globEdge { return g.edges[g.first[s]:g.first[s+1]] }

func (g *globNFA) empty(s int32) []int32 { return g.eps[g.epsFirst[s]:g.epsFirst[s+1]] }

// State kinds, as slots in globBuilder.ids: p*kindSlots + kind.
const (
	kindAt     = iota // and kindAt+1 with seg
	kindFresh  = 2    // and kindFresh+1 with seg
	kindStar   = 4
	kindDsHead = 5
	kindDsIn   = 6
	kindDsEnd  = 7
	kindAll    = 8 // at offset 0
	kindSlots  = 9
)

type globBuilder struct {
	globParse
	g *globNFA
	// ids[slot] is the state in slot, -1 before it exists; slots[state] is
	// the slot of a state.
	ids   []int32
	slots []int32
	// lits holds the one-rune sets of literal edges, to allocate them
	// together.
	lits []runeRange
}

// compileGlob returns nil for a pattern that is not valid (validGlob): such
// a glob matches nothing here, as in Match.
func compileGlob(pat string) *globNFA {
	if !validGlob(pat) {
		return nil
	}
	n := len(pat) + 1
	est := n + 4
	b := &globBuilder{
		globParse: parseBraces(pat),
		g: &globNFA{
			edges:    make([]globEdge, 0, est),
			first:    make([]int32, 0, est+1),
			eps:      make([]int32, 0, est),
			epsFirst: make([]int32, 0, est+1),
			accept:   make([]bool, 0, est),
		},
		ids:   make([]int32, kindSlots*n),
		slots: make([]int32, 0, est),
		lits:  make([]runeRange, 0, len(pat)),
	}
	for i := range b.ids {
		b.ids[i] = -1
	}
	b.state(kindAt + 1) // the start: at(0, seg)
	for s := 0; s < len(b.slots); s++ {
		b.g.first = append(b.g.first, int32(len(b.g.edges)))
		b.g.epsFirst = append(b.g.epsFirst, int32(len(b.g.eps)))
		b.expand(int32(s), int(b.slots[s]))
	}
	b.g.first = append(b.g.first, int32(len(b.g.edges)))
	b.g.epsFirst = append(b.g.epsFirst, int32(len(b.g.eps)))
	return b.g
}

// state returns the state in slot, making it if need be.
func (b *globBuilder) state(slot int) int32 {
	if b.ids[slot] < 0 {
		b.ids[slot] = int32(len(b.slots))
		b.slots = append(b.slots, int32(slot))
		p, kind := slot/kindSlots, slot%kindSlots
		accept := false
		switch kind {
		case kindFresh, kindFresh + 1, kindStar, kindDsEnd:
			accept = b.zeroRest(p)
		case kindAll:
			accept = true
		}
		b.g.accept = append(b.g.accept, accept)
	}
	return b.ids[slot]
}

func (b *globBuilder) at(p int, seg bool) int32 {
	if seg {
		return b.state(p*kindSlots + kindAt + 1)
	}
	return b.state(p*kindSlots + kindAt)
}

func (b *globBuilder) fresh(p int, seg bool) int32 {
	if seg {
		return b.state(p*kindSlots + kindFresh + 1)
	}
	return b.state(p*kindSlots + kindFresh)
}

func (b *globBuilder) edge(set runeSet, to int32) {
	b.g.edges = append(b.g.edges, globEdge{set, to})
}

func (b *globBuilder) epsTo(to int32) {
	b.g.eps = append(b.g.eps, to)
}

// expand adds the transitions of state s, in slot.
func (b *globBuilder) expand(s int32, slot int) {
	p, kind := slot/kindSlots, slot%kindSlots
	switch kind {
	case kindAt, kindAt + 1:
		b.read(p, kind == kindAt+1)
	case kindFresh, kindFresh + 1:
		b.read(p, kind == kindFresh+1)
	case kindStar:
		b.edge(nonSlash, s)
		b.read(p, false)
	case kindDsHead:
		b.edge(nonSlash, b.state(p*kindSlots+kindDsIn))
		b.edge(slashOnly, b.state(p*kindSlots+kindDsEnd))
		b.read(p, true)
	case kindDsIn:
		b.edge(nonSlash, s)
		b.edge(slashOnly, b.state(p*kindSlots+kindDsEnd))
	case kindDsEnd:
		b.epsTo(b.state(p*kindSlots + kindDsHead))
	case kindAll:
		b.edge(anyRune, s)
	}
}

// read adds the transitions of at(p, seg), those of the element the scan
// reads next from p, to the state being expanded: the states that stand at
// p (fresh, star, dsHead) take them directly rather than through an empty
// transition, which halves the search in Witness.
func (b *globBuilder) read(p int, seg bool) {
	pat := b.pat
	p = b.follow(p)
	switch {
	case p == len(pat):
		// The pattern is spent and the name is not: no way on.
	case pat[p] == '{':
		for a := p + 1; a >= 0; a = b.nextAlt(p, a) {
			b.epsTo(b.at(a, seg))
		}
	case pat[p] == '*':
		b.star(p, seg)
	case pat[p] == '?':
		b.edge(nonSlash, b.fresh(p+1, false))
	case pat[p] == '[':
		set, negate, end := parseClass(pat, p)
		if negate {
			set = set.complement()
		}
		if len(set) > 0 {
			b.edge(set, b.fresh(end, false))
		}
	default:
		q := p
		if pat[q] == '\\' {
			q++
		}
		r, w := utf8.DecodeRuneInString(pat[q:])
		b.lits = append(b.lits, runeRange{r, r})
		n := len(b.lits)
		b.edge(b.lits[n-1:n:n], b.fresh(q+w, r == '/'))
	}
}

// star adds the readings of a '*' at offset p. doublestar decides what the
// star is when its scan first meets it, from the bytes that follow in the
// pattern as it holds it then: a '{' not yet reached is not expanded, so
// "**{/x,}" is a plain star; but a later pass over the same star (after a
// "**/" backtrack) sees the expansion. Where the two readings can differ
// (never in a glob exactGlob accepts) the automaton takes both, so that it
// accepts at least what doublestar does.
func (b *globBuilder) star(p int, seg bool) {
	pat := b.pat
	var buf1, buf2 [4]int
	var plain [4]int // where plain-star readings resume, each once
	nplain := 0
	for _, n1 := range b.lookahead(p+1, buf1[:0]) {
		next := p + 1 // where a plain star resumes; -1 for none
		if n1 < len(pat) && pat[n1] == '*' {
			next = n1 + 1
			if seg {
				next = -1
				for _, n2 := range b.lookahead(n1+1, buf2[:0]) {
					switch {
					case n2 == len(pat):
						// A final "**" takes the rest of the name, whatever it is.
						b.edge(anyRune, b.state(kindAll))
					case pat[n2] == '/':
						b.epsTo(b.state((n2+1)*kindSlots + kindDsHead))
					default:
						next = n1 + 1
					}
				}
			}
		}
		if next < 0 || slices.Contains(plain[:nplain], next) {
			continue
		}
		if nplain < len(plain) {
			plain[nplain] = next
			nplain++
		}
		// A plain star takes one or more non-'/' runes, after which the
		// scan resumes at next (doublestar's star backtrack point), or none.
		b.edge(nonSlash, b.state(next*kindSlots+kindStar))
		b.epsTo(b.at(next, false))
	}
}

// lookahead appends the offsets the scan may read next after offset i: the
// following element, or, at a brace, the brace itself as written and the
// first element of each of its expansions.
func (b *globBuilder) lookahead(i int, out []int) []int {
	i = b.follow(i)
	out = append(out, i)
	if i < len(b.pat) && b.pat[i] == '{' {
		out = b.firsts(i, out)
	}
	return out
}
