package overlap

import (
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// exactGlob returns "" when doublestar.Match reads the glob as the regular
// language its automaton holds (compileGlob), so that Globs is exact
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
//   - a '{...}' that could complete the rest of the pattern to one that
//     counts as zero-length (see zeroRest), after something that does not
//     start it: when the name runs out before the scan reaches the brace,
//     doublestar does not expand it ("src/{**,*.go}" does not match "src",
//     though "src/**" does);
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
		}
		if g.zeroRest(end) != g.zeroRaw(end) {
			return "has a '{...}' that doublestar does not expand when a name ends before it, so that it matches less than it reads: write the alternatives as separate globs ('src/**' 'src/*.go' for 'src/{**,*.go}')"
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

// zeroRaw reports whether doublestar accepts when the name runs out with
// its scan at offset p, having reached no brace after p: it asks
// doublestar about the rest of the pattern as the scan then holds it, the
// alternatives around p chosen and the braces after p as written. Where
// this differs from zeroRest, doublestar's answer depends on how far its
// scan went before.
func (g *globParse) zeroRaw(p int) bool {
	var rest []byte
	for p < len(g.pat) {
		switch {
		case g.altEnd(p) >= 0:
			p = g.altEnd(p) + 1
			continue
		case g.pat[p] == '{':
			end := g.closeOf(p) + 1
			rest = append(rest, g.pat[p:end]...)
			p = end
		default:
			end := g.elemEnd(p)
			rest = append(rest, g.pat[p:end]...)
			p = end
		}
		// isZeroLengthPattern accepts nothing longer than "/**/" unless it
		// starts with a brace.
		if len(rest) > 4 && rest[0] != '{' {
			return false
		}
	}
	return doublestar.MatchUnvalidated(string(rest), "")
}
