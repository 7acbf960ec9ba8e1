package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// words is how a text splits, as AddJSON has it.
func words(raw string) []string {
	var out []string
	split([]byte(raw), true, func(w []byte) { out = append(out, string(w)) })
	return out
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{`The Session-cache, v2!`, []string{"the", "session", "cache", "v2"}},
		{`line one\nline two`, []string{"line", "one", "line", "two"}},
		{`say \"hi\" to C:\\Users`, []string{"say", "hi", "to", "c", "users"}},
		{`caf\u00e9 \u00c9T\u00c9 `, []string{"café", "été"}},
		{`Über → naïve_name`, []string{"über", "naïve", "name"}},
		{`\u003cb\u003ebold`, []string{"b", "bold"}},
		{`trailing \`, []string{"trailing"}},
		{``, nil},
	} {
		if got := words(c.raw); !slices.Equal(got, c.want) {
			t.Errorf("words(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
	q := NewQuery([]string{"Session-Cache", "session", "  ", "É"})
	if got := q.Terms(); !slices.Equal(got, []string{"session", "cache", "é"}) {
		t.Errorf("terms %q", got)
	}
}

// TestLower holds the eight-bytes-at-a-time Lower to a byte at a time.
func TestLower(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		want := make([]byte, len(b))
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				c += 32
			}
			want[i] = c
		}
		if got := Lower([]byte("x"), b); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("Lower(%q) = %q, want %q", b, got[1:], want)
		}
	}
}

// TestMentions: Find and Mentions never leave out a line whose text has a
// word that begins with a word of the query, and count the lines that
// hold each word as it is, whatever the case and the JSON escapes.
func TestMentions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vocab := []string{"Cache", "cachés", "SESSION", "sessions", "über", "ÜBER", "token", "tok", "x", "\"quoted\"", "new\nline", "é", "É", "a→b", "tab\there"}
	queries := [][]string{{"cache"}, {"session", "über"}, {"é"}, {"tok", "token"}, {"x"}, {"ÜB"}}
	for range 300 {
		var lines []string
		for range 1 + r.IntN(12) {
			var text []string
			for range r.IntN(5) {
				text = append(text, vocab[r.IntN(len(vocab))])
			}
			b, _ := json.Marshal(map[string]string{"text": strings.Join(text, " ")})
			lines = append(lines, string(b))
		}
		block := []byte(strings.Join(lines, "\n") + "\n")
		var starts []int
		for i := 0; i < len(block); i += bytes.IndexByte(block[i:], '\n') + 1 {
			starts = append(starts, i)
		}
		freq := new([256]int)
		for _, c := range block {
			freq[c]++
		}
		lowered := Lower(nil, block)
		for _, words := range queries {
			q := NewQuery(words)
			df := make([]int, len(q.terms))
			marked := map[int]bool{}
			q.Mentions(lowered, starts, freq, df, func(line int) { marked[line] = true })
			wantDF := make([]int, len(q.terms))
			for i, l := range lines {
				low := string(Lower(nil, []byte(l)))
				for j, t := range q.terms {
					if strings.Contains(low, string(t)) {
						wantDF[j]++
					}
				}
				var e struct{ Text string }
				json.Unmarshal([]byte(l), &e)
				d := q.NewDoc()
				raw, _ := json.Marshal(e.Text)
				d.AddJSON(raw[1 : len(raw)-1])
				if d.Score() > 0 && !marked[i] {
					t.Fatalf("%q: line %s matches but was left out", words, l)
				}
			}
			if !slices.Equal(df, wantDF) {
				t.Fatalf("%q: df %v, want %v, in\n%s", words, df, wantDF, block)
			}
		}
	}
}

// TestScore: a rare word weighs more than a common one; a word said
// twice more than once, but not twice as much; a long text less than a
// short one; no match is 0.
func TestScore(t *testing.T) {
	q := NewQuery([]string{"build", "redis"})
	q.SetCounts(1000, []int{500, 5})
	score := func(text string) float64 {
		d := q.NewDoc()
		d.AddJSON([]byte(text))
		return d.Score()
	}
	rare, common := score("uses redis"), score("uses build")
	once, twice := score("the build"), score("the build build")
	long := score("the build is slow because the linker runs twice over every package in the tree and more")
	switch {
	case rare <= common:
		t.Errorf("rare word %v <= common word %v", rare, common)
	case twice <= once || twice >= 2*once:
		t.Errorf("twice %v against once %v", twice, once)
	case long >= once:
		t.Errorf("long text %v >= short text %v", long, once)
	case score("nothing here") != 0:
		t.Errorf("no match scores %v", score("nothing here"))
	case score("builds") != score("build"):
		t.Errorf("a word that begins with the query's scores otherwise")
	}
}

// A query takes at most MaxWords words, counted as they are searched for:
// split (a punctuation joins two), lowered, each once.
func TestCheckWords(t *testing.T) {
	numbered := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("w%d", i))
		}
		return out
	}
	for _, c := range []struct {
		words []string
		want  int // the count refused; 0 when taken
	}{
		{numbered(MaxWords), 0},
		{append(numbered(MaxWords), "W1", "w1", "(w2)"), 0},
		{numbered(MaxWords + 1), MaxWords + 1},
		{[]string{strings.Join(numbered(MaxWords+1), "-")}, MaxWords + 1},
		{numbered(10000), 10000},
		{nil, 0},
	} {
		err := CheckWords(c.words)
		var many *TooManyWordsError
		switch {
		case c.want == 0 && err != nil:
			t.Errorf("%d words: %v", len(c.words), err)
		case c.want > 0 && (!errors.As(err, &many) || many.N != c.want):
			t.Errorf("%d words: %v, want %d refused", len(c.words), err, c.want)
		case c.want > 0 && strings.Contains(err.Error(), "\n"):
			t.Errorf("the error is not one line: %q", err)
		}
	}
}
