package overlap

// The paths a claim can cover are relative paths as git and the guard see
// them: one or more non-empty segments joined by '/', none of them "." or
// "..". pathState tracks where a name stands in that shape.
type pathState uint8

const (
	segStart  pathState = iota // at the start, or just after a '/'
	segDot                     // the segment so far is "."
	segDotDot                  // the segment so far is ".."
	segName                    // inside a segment that is a real name
	segDead                    // not a path: a leading, doubled or trailing '/', or "." or ".."
)

// step moves a pathState over one rune of the class c: '/' (0), '.' (1)
// or any other rune (2).
func (s pathState) step(c int) pathState {
	switch {
	case s == segDead:
		return segDead
	case c == 0:
		if s == segName {
			return segStart
		}
		return segDead
	case c == 1 && s == segStart:
		return segDot
	case c == 1 && s == segDot:
		return segDotDot
	}
	return segName
}

// runeClasses split an edge's runes by what they do to a pathState.
var runeClasses = [3]runeSet{slashOnly, dotOnly, nonSlashDot}

// Witness searches the product of the two automata and the path
// shape for a name both accept, and returns the shortest. An invalid glob
// overlaps nothing.
//
// The search goes by length: it takes every empty transition (of either
// automaton) from the states found at one length before it takes a rune,
// so the first accepting state found ends a shortest name.
func Witness(a, b string) (string, bool) {
	na, nb := compileGlob(a), compileGlob(b)
	if na == nil || nb == nil {
		return "", false
	}
	// A product state is (sa*|B| + sb)*4 + pathState.
	width := nb.states()
	seen := make([]uint64, (na.states()*width*4+63)/64)
	order := make([]productStep, 1, 64)
	order[0] = productStep{state: int32(segStart), ea: -1}
	seen[0] = 1 << segStart
	add := func(k int, s productStep) {
		if seen[k/64]&(1<<(k%64)) == 0 {
			seen[k/64] |= 1 << (k % 64)
			s.state = int32(k)
			order = append(order, s)
		}
	}
	for start := 0; start < len(order); {
		// Empty transitions: the states at this length.
		for i := start; i < len(order); i++ {
			k := int(order[i].state)
			sa, sb, ps := int32(k/4/width), int32(k/4%width), k%4
			if pathState(ps) == segName && na.accept[sa] && nb.accept[sb] {
				return witness(order, i, na, nb), true
			}
			for _, t := range na.empty(sa) {
				add((int(t)*width+int(sb))*4+ps, productStep{from: int32(i), ea: -1})
			}
			for _, t := range nb.empty(sb) {
				add((int(sa)*width+int(t))*4+ps, productStep{from: int32(i), ea: -1})
			}
		}
		// Runes: the states one longer.
		end := len(order)
		for i := start; i < end; i++ {
			k := int(order[i].state)
			sa, sb, ps := int32(k/4/width), int32(k/4%width), pathState(k%4)
			for ia := na.first[sa]; ia < na.first[sa+1]; ia++ {
				ea := &na.edges[ia]
				for ib := nb.first[sb]; ib < nb.first[sb+1]; ib++ {
					eb := &nb.edges[ib]
					if !ea.set.meets(eb.set) {
						continue
					}
					for c := range runeClasses {
						next := ps.step(c)
						if next == segDead || !meetsClass(ea.set, eb.set, c) {
							continue
						}
						add((int(ea.to)*width+int(eb.to))*4+int(next), productStep{from: int32(i), ea: ia, eb: ib, class: int8(c)})
					}
				}
			}
		}
		start = end
	}
	return "", false
}

// productStep is a product state found, with the one it came from and, if
// it took a rune, the edges it took (offsets in the automata's edges; ea
// is -1 for an empty transition) and the rune's class.
type productStep struct {
	state, from int32
	ea, eb      int32
	class       int8
}

// witness spells the name that led to order[i].
func witness(order []productStep, i int, na, nb *globNFA) string {
	var rs []rune
	for j := int32(i); j > 0; j = order[j].from {
		if st := order[j]; st.ea >= 0 {
			rs = append(rs, pickIn(na.edges[st.ea].set, nb.edges[st.eb].set, runeClasses[st.class]))
		}
	}
	for l, r := 0, len(rs)-1; l < r; l, r = l+1, r-1 {
		rs[l], rs[r] = rs[r], rs[l]
	}
	return string(rs)
}

// meetsClass reports whether a and b share a rune of runeClasses[c].
func meetsClass(a, b runeSet, c int) bool {
	switch c {
	case 0:
		return a.has('/') && b.has('/')
	case 1:
		return a.has('.') && b.has('.')
	}
	for lo, hi := range a.shared(b) {
		// Any rune of [lo, hi] but '.' and '/' will do.
		if hi-lo >= 2 || lo != '.' && lo != '/' || hi != '.' && hi != '/' {
			return true
		}
	}
	return false
}

// pickIn returns a rune in all three sets, which must share one: a
// readable one when it can, so that a witness reads like a file name.
func pickIn(a, b, c runeSet) rune {
	for _, r := range "xab0_" {
		if a.has(r) && b.has(r) && c.has(r) {
			return r
		}
	}
	best, found := rune(0), false
	for l, h := range a.intersect(b).shared(c) {
		if h >= '!' {
			return max(l, '!')
		}
		if !found {
			best, found = l, true
		}
	}
	return best
}
