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
	stack     []int32
}

func newRunner(g *globNFA) *runner { return &runner{g: g, in: make([]uint32, g.states())} }

// matches runs the automaton on name.
func (m *runner) matches(name string) bool {
	m.cur = m.closure(append(m.next[:0], 0), m.cur[:0])
	for _, r := range name {
		m.next = m.next[:0]
		for _, s := range m.cur {
			for _, e := range m.g.out(s) {
				if e.set.has(r) {
					m.next = append(m.next, e.to)
				}
			}
		}
		m.cur = m.closure(m.next, m.cur[:0])
	}
	for _, s := range m.cur {
		if m.g.accept[s] {
			return true
		}
	}
	return false
}

// closure puts into out the states and those their empty transitions
// reach.
func (m *runner) closure(states, out []int32) []int32 {
	m.gen++
	m.stack = append(m.stack[:0], states...)
	for len(m.stack) > 0 {
		s := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		if m.in[s] != m.gen {
			m.in[s] = m.gen
			out = append(out, s)
			m.stack = append(m.stack, m.g.empty(s)...)
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
