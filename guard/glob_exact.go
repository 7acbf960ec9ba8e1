package guard

import (
	"slices"
	"strings"
)

// exactGlob returns "" when doublestar.Match reads the glob as the regular
// language its automaton holds (compileGlob), so that GlobsOverlap is exact
// for it; otherwise it says, as the end of a sentence about the glob, what
// makes doublestar stray from that reading and what to write instead. Each
// rule stands for a behaviour of doublestar's backtracking scan, pinned by
// TestDoublestarSemantics:
//
//   - a class that can match '/': the scan lets it, and then the scan's
//     star and "**/" backtracking can miss a way to match;
//   - a '*' or "**" right before a '{' that would make it part of "**" or
//     "**/": the scan reads the star with the brace as written, so
//     "**{/a,b}" has a plain star and does not match "a", but reads it
//     with the brace expanded when it comes back after a "**/" backtrack;
//   - a '{...}' right after '*' or '/' with an alternative made only of
//     '*', '/' and braces (or empty): when the name ends before the scan
//     reaches the brace, doublestar does not expand it ("src/{**,*.go}"
//     does not match "src", though "src/**" does);
//   - a glob that can end in '/': "**/" counts as zero-length even where
//     "**" is a plain star, and the scan stops at the first way the name
//     runs out, so "*a**/" matches "a" but not "aa".
func exactGlob(pat string) string {
	if !validGlob(pat) {
		return "is not a valid glob"
	}
	g := parseBraces(pat)
	for i := 0; i < len(pat); {
		if g.altEnd(i) >= 0 || pat[i] == '{' {
			i++
			continue
		}
		end := g.elemEnd(i)
		switch pat[i] {
		case '[':
			set, negate, _ := parseClass(pat, i)
			if set.has('/') != negate {
				return "has a class that can match '/' (doublestar's [^x] and [!x] do): add '/' to a negated class, like [^x/], or leave it out of the class"
			}
		case '*':
			if g.startsBrace(end, "*") {
				return "has a '*' right before a '{' with an alternative that starts with '*' or is empty: write the alternatives as separate globs"
			}
			if n := g.follow(end); n < len(pat) && pat[n] == '*' && g.startsBrace(n+1, "/$") {
				return "has a '**' right before a '{' with an alternative that starts with '/' or is empty: write the alternatives as separate globs"
			}
			if g.zeroBrace(end) {
				return "has a '{...}' right after '*' with an alternative of only '*' and '/', or an empty one, which doublestar does not match as empty: write the alternatives as separate globs"
			}
		case '/':
			if g.zeroBrace(end) {
				return "has a '{...}' right after '/' with an alternative of only '*' and '/', or an empty one, which doublestar does not match as empty: write the alternatives as separate globs, like 'src/**' 'src/*.go'"
			}
		}
		if pat[i] == '/' || pat[i] == '\\' && end == i+2 && pat[i+1] == '/' {
			if slices.Contains(g.firsts(end, nil), len(pat)) {
				return "can end in '/': write a folder as 'dir/**'"
			}
		}
		i = end
	}
	return ""
}

// startsBrace reports whether a brace comes next from offset i and one of
// its expansions starts with a byte in set, where '$' stands for the end of
// the pattern (an empty alternative at the end).
func (g *globParse) startsBrace(i int, set string) bool {
	i = g.follow(i)
	if i == len(g.pat) || g.pat[i] != '{' {
		return false
	}
	for _, f := range g.firsts(i, nil) {
		if f == len(g.pat) && strings.Contains(set, "$") || f < len(g.pat) && strings.IndexByte(set, g.pat[f]) >= 0 {
			return true
		}
	}
	return false
}

// zeroBrace reports whether a brace comes next from offset i with an
// expansion made only of '*' and '/', or empty: one that could complete a
// zero-length rest (see zeroLength).
func (g *globParse) zeroBrace(i int) bool {
	i = g.follow(i)
	if i == len(g.pat) || g.pat[i] != '{' {
		return false
	}
	return g.onlyStarSlash(i, g.closeOf(i)+1, g.marks(len(g.pat)+1))
}

// onlyStarSlash reports whether some expansion of the text from offset p
// reaches offset stop through '*' and '/' elements alone; seen has the
// braces already tried.
func (g *globParse) onlyStarSlash(p, stop int, seen marks) bool {
	for p != stop {
		switch {
		case p == len(g.pat):
			return false
		case g.altEnd(p) >= 0:
			p = g.altEnd(p) + 1
		case g.pat[p] == '{':
			if !seen.first(p) {
				return false
			}
			for a := p + 1; a >= 0; a = g.nextAlt(p, a) {
				if g.onlyStarSlash(a, stop, seen) {
					return true
				}
			}
			return false
		case g.pat[p] == '*' || g.pat[p] == '/':
			p++
		default:
			return false
		}
	}
	return true
}
