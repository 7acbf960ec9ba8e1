package cmdline

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// ansiCases are $'...' bodies with what bash 5.2 prints for them; the
// comments mark where expand.Literal, which lucid used before, differs.
var ansiCases = []struct{ in, want string }{
	{`plain`, "plain"},
	{`\a\b\e\E\f\n\r\t\v`, "\a\b\x1b\x1b\f\n\r\t\v"},
	{`\\\'\"\?`, `\'"?`},
	{`\z\$\%d\8\9`, `\z\$\%d\8\9`},
	{`a\x2fb`, "a/b"},
	{`\x41g\x100\x`, "Ag\x100\\x"},
	{`\x{2f}etc\x{41g}`, "/etcAg}"},     // expand: \x{2f}etc\x{41g}
	{`\x{4142}\x{1234567890}`, "B\x90"}, // low 8 bits; expand keeps the text
	{`a\x{}b`, "a"},
	{`\057etc\0101\1011`, "/etc\b1A1"},
	{`\500\777`, "@\xff"},  // expand: \xff\xff
	{`\578\19`, "/8\x019"}, // expand: ""
	{`a\400b`, "a"},        // expand: a\xffb
	{`\u00e9\u41\u12345\u\ug`, "éAሴ5\\u\\ug"},
	{`\U1F600\U\U7fffffff`, "😀\\U\xfd\xbf\xbf\xbf\xbf\xbf"}, // expand: 😀\U\uFFFD
	{`\uD800\U110000`, "\xed\xa0\x80\xf4\x90\x80\x80"},      // expand: \uFFFD\uFFFD
	{`\UFFFFFFFFa\U80000000b`, "ab"},                        // expand: \uFFFDa\uFFFDb
	{`\ca\cA\c?\c[\c~\c1`, "\x01\x01\x7f\x1b\x1e\x11"},      // expand keeps each \c
	{`\c\\x\c\x\c\'`, "\x1cx\x1cx\x1c'"},
	{`a\c`, `a\c`},
	{`a\c@b`, "a"},
	{`cut\0here`, "cut"},
	{`cut\u0000here`, "cut"},
	{`caf\xc3\xa9`, "café"},
}

func TestANSIC(t *testing.T) {
	for _, c := range ansiCases {
		if got := ansiC(c.in); got != c.want {
			t.Errorf("$'%s' = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestANSICAsBash decodes a corpus of $'...' words, every escape with every
// byte after it and random mixes of them, and compares with what bash
// prints for them.
func TestANSICAsBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	env := []string{"LC_ALL=C.UTF-8"}
	out, _ := exec.Command(bash, "-c", `printf %s "${BASH_VERSINFO[0]}"`).Output()
	if v, err := strconv.Atoi(string(out)); err != nil || v < 5 {
		t.Skipf("bash %q is older than 5", out)
	}
	cmd := exec.Command(bash, "-c", `printf %s $'\u00e9'`)
	cmd.Env = env
	if out, _ = cmd.Output(); string(out) != "é" {
		t.Skipf("no UTF-8 locale C.UTF-8 for bash: $'\\u00e9' is %q", out)
	}

	bodies := ansiCorpus()
	var script strings.Builder
	script.WriteString(`printf '%s\0'`)
	for _, s := range bodies {
		word := "$'" + s + "'"
		if got := dollarBody(t, word); got != s {
			t.Fatalf("%s parses as %q, not %q: not a test case", word, got, s)
		}
		script.WriteString(" " + word)
	}
	cmd = exec.Command(bash)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(script.String() + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("bash: %v: %s", err, stderr.Bytes())
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(got) != len(bodies) {
		t.Fatalf("bash printed %d words for %d", len(got), len(bodies))
	}
	bad := 0
	for i, s := range bodies {
		if dec := ansiC(s); dec != got[i] {
			t.Errorf("$'%s': lucid %q, bash %q", s, dec, got[i])
			if bad++; bad == 20 {
				t.Fatal("more differ")
			}
		}
	}
}

// dollarBody is the text syntax gives for the one $'...' word src.
func dollarBody(t *testing.T, src string) string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(f.Stmts) != 1 || len(call.Args) != 1 || len(call.Args[0].Parts) != 1 {
		t.Fatalf("%s is not one word", src)
	}
	q, ok := call.Args[0].Parts[0].(*syntax.SglQuoted)
	if !ok || !q.Dollar {
		t.Fatalf("%s is not one $'...'", src)
	}
	return q.Value
}

// ansiCorpus is the words TestANSICAsBash asks bash about: the cases above,
// each escape letter with each printable byte after it, every octal
// escape, numbers at the edges of \x, \u and \U, and random mixes.
func ansiCorpus() []string {
	var bodies []string
	for _, c := range ansiCases {
		bodies = append(bodies, c.in)
	}
	bodies = append(bodies, `\'Z`) // a ' after any other escape ends the word
	for c := byte(' '); c < 0x7f; c++ {
		if b := string(c); c != '\'' {
			bodies = append(bodies, `\`+b+"Z", `\c`+b+"Z", `\x`+b+"Z", `\u`+b+"Z", `\x{`+b+"}Z")
		}
	}
	for n := 0; n < 0o1000; n++ {
		bodies = append(bodies, fmt.Sprintf(`a\%o8`, n), fmt.Sprintf(`a\%03o9`, n))
	}
	for _, n := range []uint64{1, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdfff, 0xfffd, 0xffff, 0x10000,
		0x10ffff, 0x110000, 0x1fffff, 0x200000, 0x3ffffff, 0x4000000, 0x7fffffff, 0x80000000, 0xffffffff} {
		bodies = append(bodies, fmt.Sprintf(`\U%xZ`, n), fmt.Sprintf(`\U%08Xz`, n), fmt.Sprintf(`\x{%x}Z`, n))
		if n <= 0xffff {
			bodies = append(bodies, fmt.Sprintf(`\u%xZ`, n), fmt.Sprintf(`\u%04Xz`, n))
		}
		if n <= 0xff {
			bodies = append(bodies, fmt.Sprintf(`\x%xZ`, n))
		}
	}
	// Pieces that make escapes, joined at random; a lone ' or a
	// trailing \ would end or break the word, and is left out.
	pieces := []string{`\`, `\\`, `\'`, "x", "u", "U", "c", "{", "}", "0", "1", "4", "7", "8",
		"9", "a", "f", "F", "g", "?", `"`, "e", "n", "@", "é", " ", "\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for len(bodies) < 6000 {
		var b strings.Builder
		for n := 1 + r.IntN(12); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if s := b.String(); validBody(s) {
			bodies = append(bodies, s)
		}
	}
	return bodies
}

// validBody reports whether s can stand between $' and ': no quote that is
// not escaped, no backslash left without a byte to escape.
func validBody(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i++; i == len(s) {
				return false
			}
		case '\'':
			return false
		}
	}
	return true
}

// FuzzANSIC checks that the decoder never panics, that a word is never
// longer decoded than written (each escape is at least as long as what it
// stands for), that no NUL comes out, and that a word with no backslash is
// its own text.
func FuzzANSIC(f *testing.F) {
	for _, s := range ansiCorpus()[:len(ansiCases)+200] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ansiC(s)
		switch {
		case len(got) > len(s):
			t.Fatalf("$'%s' = %q, longer than written", s, got)
		case strings.Contains(got, "\x00"):
			t.Fatalf("$'%s' = %q, with a NUL", s, got)
		case !strings.ContainsAny(s, "\\\x00") && got != s:
			t.Fatalf("$'%s' = %q, without an escape", s, got)
		}
	})
}
