// Package search scores texts by their relevance to a few words, the way a
// search engine does, for lucid search: it splits texts into words,
// matches each word of the query as the start of a word of the text
// ("cache" finds "caches" and "cached"), and weighs the matches with BM25.
//
// It reads texts as they lie in a line of the log, JSON strings with their
// escapes, so that a million lines are scored without decoding them, and it
// gives a cheap test on a whole line (Query.Mentions) that a reader runs
// first: a line that cannot hold any of the words is never parsed.
package search

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// BM25's constants: k1 bounds what repeating a word adds (the third
// "cache" adds far less than the first), b how much a long text is
// discounted against a text of typicalWords words. The log's entries are
// a sentence or two; a fixed typical length spares a pass over the log to
// measure the average.
const (
	k1           = 1.2
	b            = 0.75
	typicalWords = 20
)

// MaxWords is the most words a query takes. Each word is looked for in
// every line of the log, and matched against every word of each line that
// may hold one: a query of thousands of words would read a large log for
// minutes. A person's search says what it wants in a few.
const MaxWords = 16

// TooManyWordsError is the error of a query of more than MaxWords words.
type TooManyWordsError struct{ N int }

func (e *TooManyWordsError) Error() string {
	return fmt.Sprintf("a search takes at most %d words, and this one has %d: keep the few that say most", MaxWords, e.N)
}

// CheckWords returns a *TooManyWordsError when words, split as NewQuery splits
// them, are more than MaxWords different words.
func CheckWords(words []string) error {
	if n := len(NewQuery(words).terms); n > MaxWords {
		return &TooManyWordsError{N: n}
	}
	return nil
}

// Query is the words searched for, each lowered, and their weights.
type Query struct {
	terms [][]byte
	// hints[i] is a part of terms[i] made of ASCII only, which a line that
	// holds terms[i] holds too once its ASCII letters are lowered; nil when
	// the term has none (then every line may hold it).
	hints [][]byte
	idf   []float64
	// byFirst[c] are the indexes of the terms that begin with byte c: a
	// word of a text is compared only with those.
	byFirst [256][]int
}

// NewQuery splits words as texts are split (letters and digits; the rest
// separates) and keeps each word once. Every word weighs the same until
// SetCounts.
func NewQuery(words []string) *Query {
	q := &Query{}
	seen := map[string]bool{}
	for _, w := range words {
		split([]byte(w), false, func(tok []byte) {
			if seen[string(tok)] {
				return
			}
			seen[string(tok)] = true
			t := bytes.Clone(tok)
			q.byFirst[t[0]] = append(q.byFirst[t[0]], len(q.terms))
			q.terms = append(q.terms, t)
			q.hints = append(q.hints, asciiHint(t))
			q.idf = append(q.idf, 1)
		})
	}
	return q
}

// asciiHint is the longest run of ASCII bytes in term, nil when none.
func asciiHint(term []byte) []byte {
	var best []byte
	start := 0
	for i := 0; i <= len(term); i++ {
		if i == len(term) || term[i] >= utf8.RuneSelf {
			if i-start > len(best) {
				best = term[start:i]
			}
			start = i + 1
		}
	}
	return best
}

// Empty reports whether the query has no words.
func (q *Query) Empty() bool { return len(q.terms) == 0 }

// Terms are the words searched for, as split and lowered.
func (q *Query) Terms() []string {
	out := make([]string, len(q.terms))
	for i, t := range q.terms {
		out[i] = string(t)
	}
	return out
}

// Lower appends text to dst with its ASCII letters lowered, for Mentions,
// eight bytes at a time: the first pass of lucid search lowers the
// whole log.
func Lower(dst, text []byte) []byte {
	n := len(dst)
	dst = append(dst, text...)
	out := dst[n:]
	i := 0
	for ; i+8 <= len(out); i += 8 {
		x := binary.LittleEndian.Uint64(out[i:])
		const ones, highs = 0x0101010101010101, 0x8080808080808080
		low7 := x &^ highs
		// The high bit of each byte: at least 'A', above 'Z', ASCII.
		geA := low7 + ones*(0x80-'A')
		gtZ := low7 + ones*(0x7f-'Z')
		upper := (geA &^ gtZ) &^ x & highs
		binary.LittleEndian.PutUint64(out[i:], x|upper>>2)
	}
	for ; i < len(out); i++ {
		if c := out[i]; 'A' <= c && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return dst
}

// Mentions finds the lines of a block of the log, lowered by Lower, that
// may hold one of the words, and calls mark with the index of each (in
// starts, the offset where each line begins), once or more. It never
// leaves out a line that holds a word: a word of the line that begins with
// a word of the query has that word in it, bytes and all, once lowered. It
// adds one to df[i] for each line that has word i as it is: the count of
// lines with the word, for SetCounts. freq is as Find has it.
func (q *Query) Mentions(lowered []byte, starts []int, freq *[256]int, df []int, mark func(line int)) {
	for i, t := range q.terms {
		Find(lowered, starts, t, freq, func(line int) {
			df[i]++
			mark(line)
		})
		switch h := q.hints[i]; {
		case h == nil:
			for line := range starts {
				mark(line)
			}
		case len(h) < len(t):
			Find(lowered, starts, h, freq, mark)
		}
	}
}

// Find calls found once with each line of block (starts has the offset
// where each begins) that holds sub, looking for the byte of sub that is
// the rarest in freq (how often each byte occurs in such blocks).
func Find(block []byte, starts []int, sub []byte, freq *[256]int, found func(line int)) {
	k := 0
	for i, c := range sub {
		if freq[c] < freq[sub[k]] {
			k = i
		}
	}
	for at := 0; at < len(block); {
		i := index(block[at:], sub, k)
		if i < 0 {
			return
		}
		// The line of at+i: the last whose start is at or before it.
		line, _ := slices.BinarySearch(starts, at+i+1)
		line--
		found(line)
		if line+1 == len(starts) {
			return
		}
		at = starts[line+1]
	}
}

// index is bytes.Index(s, sub), which jumps from one sub[0] to the next:
// in text the first letter of a word is often common ("s" of "session"),
// its rarest letter less so.
func index(s, sub []byte, k int) int {
	c := sub[k]
	for i := k; i < len(s); i++ {
		o := bytes.IndexByte(s[i:], c)
		if o < 0 {
			return -1
		}
		i += o
		if start := i - k; start+len(sub) <= len(s) && bytes.Equal(s[start:start+len(sub)], sub) {
			return start
		}
	}
	return -1
}

// SetCounts weighs each word by how rare it is: n texts of which df[i]
// have word i (BM25's idf, which stays above zero for a word that every
// text has).
func (q *Query) SetCounts(n int, df []int) {
	for i := range q.idf {
		d := float64(min(df[i], n))
		q.idf[i] = math.Log(1 + (float64(n)-d+0.5)/(d+0.5))
	}
}

// Doc gathers the words of one text, given in parts, for Score.
type Doc struct {
	q     *Query
	tf    []int
	words int
	tok   []byte
}

// NewDoc returns a Doc to score texts against q; Reset starts the next.
func (q *Query) NewDoc() *Doc { return &Doc{q: q, tf: make([]int, len(q.terms))} }

// Reset empties d for the next text.
func (d *Doc) Reset() {
	clear(d.tf)
	d.words = 0
}

// AddJSON adds a part of the text as the content of a JSON string,
// escapes and all: an escaped letter (\u00e9) is read as the letter, any
// other escape (\n, \") separates words.
func (d *Doc) AddJSON(raw []byte) { split(raw, true, d.word) }

func (d *Doc) word(tok []byte) {
	d.words++
	for _, i := range d.q.byFirst[tok[0]] {
		if bytes.HasPrefix(tok, d.q.terms[i]) {
			d.tf[i]++
		}
	}
}

// Score is BM25 of the text against the query: 0 when no word matches.
func (d *Doc) Score() float64 {
	s := 0.0
	norm := k1 * (1 - b + b*float64(d.words)/typicalWords)
	for i, n := range d.tf {
		if n > 0 {
			tf := float64(n)
			s += d.q.idf[i] * tf * (k1 + 1) / (tf + norm)
		}
	}
	return s
}

// split calls word with each word of text, lowered: a run of letters and
// digits. With escapes, text is a JSON string's content. The slice word
// gets is reused.
func split(text []byte, escapes bool, word func([]byte)) {
	var tok []byte
	var enc [utf8.UTFMax]byte
	flush := func() {
		if len(tok) > 0 {
			word(tok)
			tok = tok[:0]
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			tok = append(tok, c)
			i++
			continue
		case 'A' <= c && c <= 'Z':
			tok = append(tok, c+'a'-'A')
			i++
			continue
		}
		r, size := rune(c), 1
		switch {
		case escapes && c == '\\' && i+1 < len(text):
			r, size = ' ', 2
			if text[i+1] == 'u' && i+6 <= len(text) {
				if v, ok := hex4(text[i+2 : i+6]); ok {
					r, size = rune(v), 6
				}
			}
		case c >= utf8.RuneSelf:
			r, size = utf8.DecodeRune(text[i:])
		}
		i += size
		if r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r < utf8.RuneSelf && isWordByte(byte(r)) {
			n := utf8.EncodeRune(enc[:], unicode.ToLower(r))
			tok = append(tok, enc[:n]...)
			continue
		}
		flush()
	}
	flush()
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func hex4(h []byte) (uint16, bool) {
	var v uint16
	for _, c := range h {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(c)
	}
	return v, true
}
