package cmdline

import "mvdan.cc/sh/v3/syntax"

// Quoting is how the line writes a run of a nested script's bytes, which
// decides how text inserted there must be spelled.
type Quoting uint8

const (
	Bare         Quoting = iota // an unquoted word
	Single                      // '...'
	DollarSingle                // $'...'
	Double                      // "..."
	HeredocRaw                  // a heredoc whose delimiter is quoted: taken as written
	HeredocExp                  // a heredoc with a bare delimiter: $ ` \ are special
	EnvWord                     // a bare word of env -S's string: blanks split it
)

// Seg is a run of a script's text copied unchanged from its parent's:
// text[At:At+N] is the parent's text[Src:Src+N], quoted as Q there.
type Seg struct {
	At, Src, N int
	Q          Quoting
}

// Hole is an expansion in a script's text (a $X, a $( )), which the text
// holds as Unknown at At: Node is where its parent spells it.
type Hole struct {
	At   int
	Node syntax.Node
}

// SrcMap collects the runs of a word's unquoted text that are its source
// bytes unchanged, and its expansions, while the word is unquoted (see
// Unquote). A nil *SrcMap records nothing, which is what every caller
// but the stamp passes.
type SrcMap struct {
	Segs  []Seg
	Holes []Hole
}

// hole records that the text holds the expansion n at at.
func (m *SrcMap) hole(at int, n syntax.Node) {
	if m != nil {
		m.Holes = append(m.Holes, Hole{At: at, Node: n})
	}
}

// copied records that n bytes of the text, from at, are the source's from
// src, quoted as q.
func (m *SrcMap) copied(at, src, n int, q Quoting) {
	if m == nil || n == 0 {
		return
	}
	if k := len(m.Segs); k > 0 {
		if l := &m.Segs[k-1]; l.Q == q && l.At+l.N == at && l.Src+l.N == src {
			l.N += n
			return
		}
	}
	m.Segs = append(m.Segs, Seg{At: at, Src: src, N: n, Q: q})
}
