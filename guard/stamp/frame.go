package stamp

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"mvdan.cc/sh/v3/syntax"
)

// Lucid inserts its stamp into scripts nested in the command line
// (bash -c 'SCRIPT', a heredoc fed to bash, env -S 'STRING'). A script's
// text is the outer word after quote removal, so an insertion into the
// script lands in the line only where the script's bytes are the line's,
// one to one: a frame says where that is, and how the line quotes there.

// frame is a text Lucid reads: the command line itself (up is nil),
// or a script in it, mapped onto its parent's text by segs, its
// expansions by holes.
type frame struct {
	up    *frame
	segs  []cmdline.Seg
	holes []cmdline.Hole
	text  string
}

// scriptFrame is the frame of a script given as the word a of up's text.
func scriptFrame(up *frame, a cmdline.Arg) *frame {
	switch {
	case a.Word == nil:
		return &frame{up: up, text: a.Text} // its bytes map nowhere
	case a.Split: // a word of the string env -S splits
		return &frame{up: wordFrame(up, a.Word, 0, -1), segs: []cmdline.Seg{{At: 0, Src: a.At, N: len(a.Text), Q: cmdline.EnvWord}}, text: a.Text}
	}
	return wordFrame(up, a.Word, a.At, len(a.Text))
}

// wordFrame is the frame of n bytes of the unquoted text of word, a word
// of up's text, from byte at of that text on (n < 0: to its end).
func wordFrame(up *frame, word *syntax.Word, at, n int) *frame {
	m := &cmdline.SrcMap{}
	text := cmdline.Unquote(word, m).Text
	if n >= 0 && at+n < len(text) {
		text = text[:at+n] // the rest of the word is not this text's
	}
	return shifted(up, text, m, at)
}

// redirFrame is the frame of the text a heredoc or a here-string r (in
// up's text) feeds to its command.
func redirFrame(up *frame, r *syntax.Redirect) *frame {
	m := &cmdline.SrcMap{}
	text := cmdline.RedirText(r, m)
	return shifted(up, text, m, 0)
}

// shifted is the frame of text[at:], whose runs and holes m gives from
// the start of text. A run is kept only where up's bytes are the text's:
// the parser drops some bytes from what it reads (a NUL), which would
// shift every offset after them.
func shifted(up *frame, text string, m *cmdline.SrcMap, at int) *frame {
	f := &frame{up: up, text: text[min(at, len(text)):]}
	for _, h := range m.Holes {
		if h.At >= at {
			f.holes = append(f.holes, cmdline.Hole{At: h.At - at, Node: h.Node})
		}
	}
	for _, s := range m.Segs {
		if s.At+s.N <= at {
			continue
		}
		if s.At < at {
			cut := at - s.At
			s.At, s.Src, s.N = at, s.Src+cut, s.N-cut
		}
		s.N = min(s.N, len(text)-s.At)
		if s.N <= 0 || s.Src+s.N > len(up.text) || text[s.At:s.At+s.N] != up.text[s.Src:s.Src+s.N] {
			continue
		}
		s.At -= at
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
		for i < len(f.segs) && !(f.segs[i].At <= off && off < f.segs[i].At+f.segs[i].N) {
			i++
		}
		if i == len(f.segs) {
			return 0, "", false
		}
		s := f.segs[i]
		var ok bool
		if text, ok = spell(text, s.Q); !ok {
			return 0, "", false
		}
		off = s.Src + off - s.At
	}
	return off, text, true
}

// spell writes text so that, inserted where the line quotes as q, it
// reads as text after quote removal.
func spell(text string, q cmdline.Quoting) (string, bool) {
	var special string
	switch q {
	case cmdline.Single:
		return text, !strings.ContainsRune(text, '\'')
	case cmdline.HeredocRaw:
		return text, !strings.ContainsRune(text, '\n')
	case cmdline.DollarSingle:
		special = `\'`
	case cmdline.Double:
		special = "\\$`\""
	case cmdline.HeredocExp:
		special = "\\$`"
	case cmdline.EnvWord:
		// Outside quotes env -S takes \_ to split words too: only "..."
		// holds a blank.
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`).Replace(text) + `"`, true
	case cmdline.Bare:
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
