package overlap

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Pieces of random globs: every kind of element, on a small alphabet, so
// that enumerating short paths finds what the globs share.
var globPieces = []string{
	"a", "b", "é", ".", "/", "/", "/", "*", "*", "**", "**/", "/**", "?",
	"[ab]", "[a-b]", "[é]", "[à-ê]", "[!a/]", "[^/b]", "[^a]", `\*`, "a*", "*b",
	"{a,b/a}", "{,a}", "{a,**}", "{**/a,b}", "{a,{b,*}}", "{é,b}", "{/,}", "{*,}",
	"*{*,a}", "**{/a,b}", "{a/**,b}", "{,**}", "/{,*}", "{a,}",
}

// Runes of the paths enumerated; '*' is there for the escaped star.
const pathRunes = "ab.é/*"

func randomGlob(rng *rand.Rand) string {
	var sb strings.Builder
	for n := 1 + rng.Intn(5); n > 0; n-- {
		sb.WriteString(globPieces[rng.Intn(len(globPieces))])
	}
	return sb.String()
}

type sampleGlob struct {
	glob  string
	exact bool
	match []uint64 // bit i: doublestar.Match says the glob matches names[i]
}

// sample makes n random valid globs and asks doublestar, not the automaton,
// which of names each matches.
func sample(t *testing.T, rng *rand.Rand, n int, names []string) []sampleGlob {
	t.Helper()
	var out []sampleGlob
	for len(out) < n {
		g := randomGlob(rng)
		if !doublestar.ValidatePattern(g) {
			continue
		}
		s := sampleGlob{glob: g, exact: exactGlob(g) == "", match: make([]uint64, (len(names)+63)/64)}
		for i, name := range names {
			if ok, _ := doublestar.Match(g, name); ok {
				s.match[i/64] |= 1 << (i % 64)
			}
		}
		out = append(out, s)
	}
	return out
}

func sizes(t *testing.T) (globs, maxRunes int) {
	if testing.Short() {
		return 300, 4
	}
	return 800, 5
}

// The automaton of every glob says what doublestar.Match says on every
// short path: the same for exact globs, at least as much for the others.
func TestGlobAutomatonAgreesWithDoublestar(t *testing.T) {
	t.Parallel()
	n, maxRunes := sizes(t)
	names := paths(pathRunes, maxRunes)
	exact := 0
	for _, s := range sample(t, rand.New(rand.NewSource(1)), n, names) {
		g := newRunner(compileGlob(s.glob))
		if s.exact {
			exact++
		}
		for i, name := range names {
			want := s.match[i/64]&(1<<(i%64)) != 0
			if got := g.matches(name); got != want && (s.exact || want) {
				t.Errorf("glob %q (exact %v) on %q: automaton %v, doublestar %v", s.glob, s.exact, name, got, want)
				break
			}
		}
	}
	if exact < n/4 || exact > n*3/4 {
		t.Errorf("%d of %d random globs are exact: the sample no longer covers both kinds", exact, n)
	}
}

// Globs against brute force: every path up to maxRunes runes, asked
// of doublestar.Match directly. An overlap found there must be reported;
// a reported overlap of exact globs must come with a witness doublestar
// accepts for both, no longer than the shortest path found there.
func TestGlobsOverlapAgainstBruteForce(t *testing.T) {
	t.Parallel()
	n, maxRunes := sizes(t)
	names := paths(pathRunes, maxRunes)
	rng := rand.New(rand.NewSource(2))
	globs := sample(t, rng, n, names)
	var both, neither int
	for k := 0; k < 4*n; k++ {
		a, b := globs[rng.Intn(len(globs))], globs[rng.Intn(len(globs))]
		shortest := ""
		for i := range a.match {
			if common := a.match[i] & b.match[i]; common != 0 {
				for j := 0; j < 64; j++ {
					if common&(1<<j) != 0 {
						if name := names[i*64+j]; shortest == "" || utf8.RuneCountInString(name) < utf8.RuneCountInString(shortest) {
							shortest = name
						}
					}
				}
			}
		}
		w, got := Witness(a.glob, b.glob)
		if shortest != "" && !got {
			t.Errorf("Globs(%q, %q) = false, but both match %q", a.glob, b.glob, shortest)
			continue
		}
		if !a.exact || !b.exact {
			continue
		}
		if got {
			both++
			checkWitness(t, a.glob, b.glob, w)
			if shortest != "" && utf8.RuneCountInString(w) > utf8.RuneCountInString(shortest) {
				t.Errorf("Globs(%q, %q): witness %q is longer than %q", a.glob, b.glob, w, shortest)
			}
		} else {
			neither++
		}
	}
	if both < n/10 || neither < n/10 {
		t.Errorf("exact pairs: %d overlap, %d do not: the sample no longer covers both", both, neither)
	}
}
