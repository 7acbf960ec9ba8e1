package overlap

import (
	"strconv"
	"strings"
	"testing"
)

func TestGlobsOverlap(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"src/**", "src/a/b.go", true},
		{"src/**", "src", true}, // a folder claim covers the folder itself
		{"src/**", "srcx/**", false},
		{"src/guard/**", "src/hooks/**", false},
		{"src/guard/**", "src/**/*.go", true},
		{"*.go", "src/*.go", false}, // '*' takes no '/'
		{"**/*.go", "src/*.go", true},
		{"**/*.go", "src/**/x.go", true},
		{"**/*.go", "docs/**/*.md", false},
		{"**/*_test.go", "guard/*.go", true},
		{"*_test.go", "guard/*.go", false},
		{"{a,b}/c", "b/*", true},
		{"{a,b/a}", "b/*", true},
		{"{a,b}/c", "d/*", false},
		{"a/{b,c}/**", "a/d/**", false},
		{"{cmd,internal}/**/*_test.go", "cmd/lucid/{claim,release}.go", false},
		{"{cmd,internal}/**/*_test.go", "cmd/lucid/{claim,release}_test.go", true},
		{"[a-c]*", "d*", false},
		{"[a-c]*", "?", true},
		{"src/[ab].go", "src/[bc].go", true},
		{"src/[a].go", "src/[bc].go", false},
		{"a/**/b", "a/b", true},
		{"x/**/y/**/z", "x/y/z", true},
		{"a/*/b", "a/**/c", false},
		{"a/*", "a", false},
		{"**/b", "b", true},
		{"**", "deep/down/file", true},
		{"?", "ab", false},
		{"??", "a*", true},
		{"a?c", "a/c", false},
		{"*", ".x", true}, // doublestar's '*' takes a leading dot
		{".*", ".?", true},
		{`\*.go`, "x.go", false},
		{`\*.go`, "*.go", true},
		{"a.go", "a.go", true},
		{"a.go", "b.go", false},
		{".lucid/**", "**/*.jsonl", true},
		{"[é]x", "?x", true},
		{"é/**", "?/x", true},
		{"[à-ê]", "é", true},
		{"[à-ê]", "ë", false},
		{"src/日本/*.go", "src/??/*.go", true},
		{"src/日本/*.go", "src/?/*.go", false},
		{"{a", "a", false}, // not a glob: matches nothing
		{"a", "{a,b}}", false},
		{"{\xdd}\x87", "*", false}, // not UTF-8: matches nothing
	} {
		for _, p := range [][2]string{{tc.a, tc.b}, {tc.b, tc.a}} {
			w, got := Witness(p[0], p[1])
			if got != tc.want {
				t.Errorf("Globs(%q, %q) = %v, want %v", p[0], p[1], got, tc.want)
			}
			if got {
				checkWitness(t, p[0], p[1], w)
			}
			if Globs(p[0], p[1]) != got {
				t.Errorf("Globs(%q, %q) and Witness disagree", p[0], p[1])
			}
		}
	}
}

// A path with "." or ".." segments is no file of the tree; nor is an empty
// segment.
func TestGlobsOverlapPathsOnly(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"?", "[.]"},
		{"a/*/b", "a/[.][.]/b"},
		{"a*", "*/"},
		{"a/**", "a/"},
		{"*//*", "**"},
	} {
		if w, ok := Witness(tc.a, tc.b); ok {
			t.Errorf("Globs(%q, %q) = true with witness %q, want false", tc.a, tc.b, w)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		glob, path string
		want       bool
	}{
		{"src/**", "src/guard/glob.go", true},
		{"src/**", "src", true},
		{"src/*.go", "src/guard/glob.go", false},
		{"**/*.go", "glob.go", true},
		{"{a,b}}", "a}", false}, // doublestar.Match says true; the glob is not valid
		{"[a", "[a", false},
		{"{\xdd}\x87", "\u0747", false}, // doublestar.Match says true: braces join bytes
	} {
		if got := Match(tc.glob, tc.path); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
}

func TestCleanGlob(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"src/**", "src/**"},
		{"./a//b", "a/b"},
		{"a/./b", "a/b"},
		{"src/", "src/**"},
		{"src//", "src/**"},
		{"src/**/", "src/**"},
		{"**/", "**"},
		{"{a,b}/", "{a,b}/**"},
		{"*.go", "*.go"},
		{"**/*.{go,md}", "**/*.{go,md}"},
		{"a/{b/c,d}/*", "a/{b/c,d}/*"},
		{"x/{a/./b,c}", "x/{a/./b,c}"}, // a '/' in braces does not split segments
		{"[!./]*", "[!./]*"},
		{"a...b/x", "a...b/x"},
		{"é/[à-ê]", "é/[à-ê]"},
		{"src/{,test/}*.go", "src/{,test/}*.go"},
		{"{,a/}**", "{,a/}**"},
	} {
		got, err := Clean(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Clean(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			continue
		}
		if again, err := Clean(got); err != nil || again != got {
			t.Errorf("Clean(%q) = %q, %v; a clean glob should stay as it is", got, again, err)
		}
	}
}

func TestCleanGlobRefuses(t *testing.T) {
	for _, tc := range []struct{ in, why string }{
		{"", "empty"},
		{"/etc/passwd", "absolute"},
		{"//x", "absolute"},
		{"../x", "'..'"},
		{"a/../../x", "'..'"},
		{"a/..", "'..'"},
		{"{..,a}/x", "'..'"},
		{"a/{b,..}", "'..'"},
		{".", "whole work tree"},
		{"./", "whole work tree"},
		{"[a", "not a valid glob"},
		{"a{b", "not a valid glob"},
		{"a}", "not a valid glob"},
		{`a\`, "not a valid glob"},
		{"[]a]", "not a valid glob"},
		{"a\xffb", "UTF-8"},
		{"a[^x]b", "class that can match '/'"},
		{"a[!.]*", "class that can match '/'"},
		{"a[+-0]", "class that can match '/'"},
		{"a[/]b/", "class that can match '/'"},
		{"src/{**,*.go}", "does not expand"},
		{"a*{,.bak}", "does not expand"},
		{"a*{b,{,*}}", "does not expand"},
		{"**{/a,b}", "'**' right before"},
		{"a*{*b,c}", "'*' right before"},
		{"src/{a/,b}", "end in '/'"},
	} {
		got, err := Clean(tc.in)
		if err == nil {
			t.Errorf("Clean(%q) = %q, want an error about %s", tc.in, got, tc.why)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.why) || strings.Contains(msg, "\n") || tc.in != "" && !strings.Contains(msg, strconv.Quote(tc.in)) {
			t.Errorf("Clean(%q) error %q: want one line naming the glob and %s", tc.in, msg, tc.why)
		}
	}
}

// Every glob Clean lets through is one Globs decides exactly.
func TestCleanGlobIsExact(t *testing.T) {
	for _, in := range []string{"src/", "**/*.go", "{a,b}/", "a/{b,c}/**", "*.{go,md}", "x/**/y", "[!./]*"} {
		got, err := Clean(in)
		if err != nil {
			t.Fatal(err)
		}
		if why := exactGlob(got); why != "" {
			t.Errorf("Clean(%q) = %q, which %s", in, got, why)
		}
	}
}
