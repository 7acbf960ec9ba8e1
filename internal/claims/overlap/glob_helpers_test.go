package overlap

import (
	"strings"
	"testing"
)

// matches runs the automaton on name.
func (g *globNFA) matches(name string) bool { return newRunner(g).matches(name) }

// runner runs one automaton on many names, reusing its sets of states:
// the property tests run each random glob on thousands of paths.
type runner struct {
	g         *globNFA
	in        []uint32 // in[s] == gen: s is in the set being built
	gen       uint32
	cur, next []int32
}

func newRunner(g *globNFA) *runner { return &runner{g: g, in: make([]uint32, g.states())} }

// matches runs the automaton on name.
func (m *runner) matches(name string) bool {
	g, in, gen := m.g, m.in, m.gen
	// closure adds to set the states its empty transitions reach, in
	// place: the set is its own stack.
	closure := func(set []int32) []int32 {
		gen++
		n := 0
		for _, s := range set {
			if in[s] != gen {
				in[s] = gen
				set[n] = s
				n++
			}
		}
		set = set[:n]
		for i := 0; i < len(set); i++ {
			for _, t := range g.empty(set[i]) {
				if in[t] != gen {
					in[t] = gen
					set = append(set, t)
				}
			}
		}
		return set
	}
	cur, next := closure(append(m.cur[:0], 0)), m.next
	for _, r := range name {
		next = next[:0]
		for _, s := range cur {
			for _, e := range g.out(s) {
				if e.set.has(r) {
					next = append(next, e.to)
				}
			}
		}
		cur, next = closure(next), cur
	}
	m.cur, m.next, m.gen = cur, next, gen
	for _, s := range cur {
		if g.accept[s] {
			return true
		}
	}
	return false
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
