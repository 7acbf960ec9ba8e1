package overlap

import (
	"strings"
	"testing"
)

// matches runs the automaton on name.
func (g *globNFA) matches(name string) bool {
	cur := g.closure([]int32{0})
	for _, r := range name {
		var next []int32
		for _, s := range cur {
			for _, e := range g.out(s) {
				if e.set.has(r) {
					next = append(next, e.to)
				}
			}
		}
		cur = g.closure(next)
	}
	for _, s := range cur {
		if g.accept[s] {
			return true
		}
	}
	return false
}

// closure adds to states those their empty transitions reach.
func (g *globNFA) closure(states []int32) []int32 {
	in := make([]bool, g.states())
	var out []int32
	for len(states) > 0 {
		s := states[len(states)-1]
		states = states[:len(states)-1]
		if !in[s] {
			in[s] = true
			out = append(out, s)
			states = append(states, g.empty(s)...)
		}
	}
	return out
}

// isPath reports whether p is a path as Globs means it: non-empty
// segments, none "." or "..".
func isPath(p string) bool {
	for _, s := range strings.Split(p, "/") {
		if s == "" || s == "." || s == ".." {
			return false
		}
	}
	return true
}

// paths lists every path over the runes of alphabet up to maxRunes long.
func paths(alphabet string, maxRunes int) []string {
	var out []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		if prefix != "" && isPath(prefix) {
			out = append(out, prefix)
		}
		if n == maxRunes {
			return
		}
		for _, r := range alphabet {
			grow(prefix+string(r), n+1)
		}
	}
	grow("", 0)
	return out
}

// checkWitness fails t unless w is a path both globs match.
func checkWitness(t *testing.T, a, b, w string) {
	t.Helper()
	if !isPath(w) || !Match(a, w) || !Match(b, w) {
		t.Errorf("overlap of %q and %q: witness %q is not a path both match", a, b, w)
	}
}
