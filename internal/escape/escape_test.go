package escape

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineAndText(t *testing.T) {
	for _, c := range []struct{ in, line, text string }{
		{"plain text, café, 日本", "plain text, café, 日本", "plain text, café, 日本"},
		{"title\x1b]0;x\x07", `title\x1b]0;x\a`, `title\x1b]0;x\a`},
		{"a\rb", `a\rb`, `a\rb`},
		{"a\r\nb\tc", `a\r\nb\tc`, "a\r\nb\tc"},
		{"nul\x00 del\x7f c1\u0085 csi\u009b", `nul\x00 del\x7f c1\u0085 csi\u009b`, `nul\x00 del\x7f c1\u0085 csi\u009b`},
		{"rtl\u202eevil\u2066 ls\u2028", `rtl\u202eevil\u2066 ls\u2028`, `rtl\u202eevil\u2066 ls\u2028`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
		{"ends in CR\r", `ends in CR\r`, `ends in CR\r`},
	} {
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
	}
	if got := Quote("say \"hi\"\x1b"); got != `"say \"hi\"\x1b"` {
		t.Errorf("Quote = %s", got)
	}
}

func TestJSON(t *testing.T) {
	b, _ := json.Marshal(map[string]string{"t": "a\x1b\x7f\u0085\u202e b"})
	got := JSON(b)
	if bytes.ContainsAny(got, "\x1b\x7f") || bytes.Contains(got, []byte("\u0085")) || bytes.Contains(got, []byte("\u202e")) {
		t.Errorf("JSON left a control raw: %q", got)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["t"] != "a\x1b\x7f\u0085\u202e b" {
		t.Errorf("JSON(%s) = %s reads back as %q, %v: want the same value", b, got, back["t"], err)
	}
}

// TestWriterSplits: a rune or a CRLF cut between two writes comes out as
// if written whole.
func TestWriterSplits(t *testing.T) {
	in := "é\u0085\r\nx\ry日\x1b"
	for cut := 0; cut <= len(in); cut++ {
		var out bytes.Buffer
		w := NewWriter(&out)
		w.Write([]byte(in[:cut]))
		w.Write([]byte(in[cut:]))
		w.Flush()
		if want := Text(in); out.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, out.String(), want)
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add("a\x1b[2J\r\n\x00\u0085\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Text(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("not UTF-8: %q", out)
			}
			for i, r := range out {
				if (r < 0x20 && r != '\n' && r != '\t' && !(r == '\r' && strings.HasPrefix(out[i+1:], "\n"))) || (r >= 0x7f && r < 0xa0) || hidden(r) {
					t.Fatalf("raw %U in %q (from %q)", r, out, s)
				}
			}
		}
		if strings.ContainsAny(Line(s), "\n\t\r") {
			t.Fatalf("Line kept a line break: %q", Line(s))
		}
	})
}
