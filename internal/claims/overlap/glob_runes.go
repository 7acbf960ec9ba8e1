package overlap

import (
	"cmp"
	"iter"
	"slices"
	"unicode/utf8"
)

// runeRange is the closed interval [lo, hi] of runes.
type runeRange struct{ lo, hi rune }

// runeSet is a set of runes as sorted, disjoint, non-touching intervals.
// The edges of a glob's automaton carry them, so a class like [a-z] or a
// negated class is one edge, not thousands.
type runeSet []runeRange

// Every rune a path can hold: a name is decoded as UTF-8, which never yields
// a surrogate (an invalid byte decodes as U+FFFD).
var (
	anyRune     = runeSet{{0, 0xD7FF}, {0xE000, utf8.MaxRune}}
	nonSlash    = runeSet{{0, '/' - 1}, {'/' + 1, 0xD7FF}, {0xE000, utf8.MaxRune}}
	slashOnly   = runeSet{{'/', '/'}}
	dotOnly     = runeSet{{'.', '.'}}
	nonSlashDot = runeSet{{0, '.' - 1}, {'/' + 1, 0xD7FF}, {0xE000, utf8.MaxRune}}
)

// normalize sorts and merges ranges in place, and keeps only runes a path
// can hold.
func (s runeSet) normalize() runeSet {
	slices.SortFunc(s, func(a, b runeRange) int { return cmp.Compare(a.lo, b.lo) })
	out := s[:0]
	for _, r := range s {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			if r.hi > out[n-1].hi {
				out[n-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out.intersect(anyRune)
}

// shared yields the intervals of the runes in both s and t, in order.
func (s runeSet) shared(t runeSet) iter.Seq2[rune, rune] {
	return func(yield func(lo, hi rune) bool) {
		i, j := 0, 0
		for i < len(s) && j < len(t) {
			lo, hi := max(s[i].lo, t[j].lo), min(s[i].hi, t[j].hi)
			if lo <= hi && !yield(lo, hi) {
				return
			}
			if s[i].hi < t[j].hi {
				i++
			} else {
				j++
			}
		}
	}
}

// intersect returns the runes in both s and t, in a new set.
func (s runeSet) intersect(t runeSet) runeSet {
	var out runeSet
	for lo, hi := range s.shared(t) {
		out = append(out, runeRange{lo, hi})
	}
	return out
}

// meets reports whether s and t share a rune, without building the
// intersection.
func (s runeSet) meets(t runeSet) bool {
	for range s.shared(t) {
		return true
	}
	return false
}

// complement returns the runes a path can hold that are not in s.
func (s runeSet) complement() runeSet {
	var out runeSet
	next := rune(0)
	for _, r := range s {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, runeRange{next, utf8.MaxRune})
	}
	return out.intersect(anyRune)
}

// has reports whether r is in s.
func (s runeSet) has(r rune) bool {
	for _, x := range s {
		if r < x.lo {
			return false
		}
		if r <= x.hi {
			return true
		}
	}
	return false
}
