package guard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// StampLucid inserts its stamp into scripts nested in the command line
// (bash -c 'SCRIPT', a heredoc fed to bash, env -S 'STRING'). A script's
// text is the outer word after quote removal, so an insertion into the
// script lands in the line only where the script's bytes are the line's,
// one to one: a frame says where that is, and how the line quotes there.

// quoting is how the line writes a run of a nested script's bytes, which
// decides how text inserted there must be spelled.
type quoting uint8

const (
	bare         quoting = iota // an unquoted word
	single                      // '...'
	dollarSingle                // $'...'
	double                      // "..."
	heredocRaw                  // a heredoc whose delimiter is quoted: taken as written
	heredocExp                  // a heredoc with a bare delimiter: $ ` \ are special
	envWord                     // a bare word of env -S's string: blanks split it
)

// seg is a run of a script's text copied unchanged from its parent's:
// text[at:at+n] is the parent's text[src:src+n], quoted as q there.
type seg struct {
	at, src, n int
	q          quoting
}

// hole is an expansion in a script's text (a $X, a $( )), which the text
// holds as shUnknown at at: node is where its parent spells it.
type hole struct {
	at   int
	node syntax.Node
}

// srcMap collects the runs of a word's unquoted text that are its source
// bytes unchanged, and its expansions, while the word is unquoted (see
// unquoteWord). A nil *srcMap records nothing, which is what every caller
// but StampLucid passes.
type srcMap struct {
	segs  []seg
	holes []hole
}

// hole records that the text holds the expansion n at at.
func (m *srcMap) hole(at int, n syntax.Node) {
	if m != nil {
		m.holes = append(m.holes, hole{at: at, node: n})
	}
}

// copied records that n bytes of the text, from at, are the source's from
// src, quoted as q.
func (m *srcMap) copied(at, src, n int, q quoting) {
	if m == nil || n == 0 {
		return
	}
	if k := len(m.segs); k > 0 {
		if l := &m.segs[k-1]; l.q == q && l.at+l.n == at && l.src+l.n == src {
			l.n += n
			return
		}
	}
	m.segs = append(m.segs, seg{at: at, src: src, n: n, q: q})
}

// frame is a text StampLucid reads: the command line itself (up is nil),
// or a script in it, mapped onto its parent's text by segs, its
// expansions by holes.
type frame struct {
	up    *frame
	segs  []seg
	holes []hole
	text  string
}

// scriptFrame is the frame of a script given as the word a of up's text.
func scriptFrame(up *frame, a shArg) *frame {
	switch {
	case a.word == nil:
		return &frame{up: up, text: a.s} // its bytes map nowhere
	case a.split: // a word of the string env -S splits
		return &frame{up: wordFrame(up, a.word, 0, -1), segs: []seg{{at: 0, src: a.at, n: len(a.s), q: envWord}}, text: a.s}
	}
	return wordFrame(up, a.word, a.at, len(a.s))
}

// wordFrame is the frame of n bytes of the unquoted text of word, a word
// of up's text, from byte at of that text on (n < 0: to its end).
func wordFrame(up *frame, word *syntax.Word, at, n int) *frame {
	m := &srcMap{}
	text := unquoteWord(word, m).s
	if n >= 0 && at+n < len(text) {
		text = text[:at+n] // the rest of the word is not this text's
	}
	return shifted(up, text, m, at)
}

// redirFrame is the frame of the text a heredoc or a here-string r (in
// up's text) feeds to its command.
func redirFrame(up *frame, r *syntax.Redirect) *frame {
	m := &srcMap{}
	text := redirText(r, m)
	return shifted(up, text, m, 0)
}

// shifted is the frame of text[at:], whose runs and holes m gives from
// the start of text. A run is kept only where up's bytes are the text's:
// the parser drops some bytes from what it reads (a NUL), which would
// shift every offset after them.
func shifted(up *frame, text string, m *srcMap, at int) *frame {
	f := &frame{up: up, text: text[min(at, len(text)):]}
	for _, h := range m.holes {
		if h.at >= at {
			f.holes = append(f.holes, hole{at: h.at - at, node: h.node})
		}
	}
	for _, s := range m.segs {
		if s.at+s.n <= at {
			continue
		}
		if s.at < at {
			cut := at - s.at
			s.at, s.src, s.n = at, s.src+cut, s.n-cut
		}
		s.n = min(s.n, len(text)-s.at)
		if s.n <= 0 || s.src+s.n > len(up.text) || text[s.at:s.at+s.n] != up.text[s.src:s.src+s.n] {
			continue
		}
		s.at -= at
		f.segs = append(f.segs, s)
	}
	return f
}

// place finds where in the command line to insert text so that this
// frame's text gets text inserted before its byte off: the offset in the
// line, and text spelled for the quoting there. ok is false where the
// byte is not the line's (an escape, an expansion) or the quoting cannot
// hold text.
func (f *frame) place(off int, text string) (int, string, bool) {
	for ; f.up != nil; f = f.up {
		i := 0
		for i < len(f.segs) && !(f.segs[i].at <= off && off < f.segs[i].at+f.segs[i].n) {
			i++
		}
		if i == len(f.segs) {
			return 0, "", false
		}
		s := f.segs[i]
		var ok bool
		if text, ok = spell(text, s.q); !ok {
			return 0, "", false
		}
		off = s.src + off - s.at
	}
	return off, text, true
}

// spell writes text so that, inserted where the line quotes as q, it
// reads as text after quote removal.
func spell(text string, q quoting) (string, bool) {
	var special string
	switch q {
	case single:
		return text, !strings.ContainsRune(text, '\'')
	case heredocRaw:
		return text, !strings.ContainsRune(text, '\n')
	case dollarSingle:
		special = `\'`
	case double:
		special = "\\$`\""
	case heredocExp:
		special = "\\$`"
	case envWord:
		// Outside quotes env -S takes \_ to split words too: only "..."
		// holds a blank.
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`).Replace(text) + `"`, true
	case bare:
		var b strings.Builder
		for i := 0; i < len(text); i++ {
			c := text[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_=/.,:@%+-", c) >= 0) {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		return b.String(), !strings.ContainsRune(text, '\n')
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if strings.IndexByte(special, text[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(text[i])
	}
	return b.String(), true
}
