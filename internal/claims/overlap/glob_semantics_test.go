package overlap

import (
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// TestDoublestarSemantics pins what doublestar.Match (v4.10.4) says, so that
// an upgrade that changes it fails here first, and checks that the glob
// automaton says the same: exactly for the globs exactGlob accepts, and at
// least as much (so that Globs never misses an overlap) for the
// others, each of which shows why exactGlob refuses it.
func TestDoublestarSemantics(t *testing.T) {
	for _, tc := range []struct {
		glob, path string
		match      bool // doublestar.Match's answer
		exact      bool // exactGlob accepts the glob
	}{
		// '*' takes any run of non-'/' runes, a leading '.' too.
		{"*.go", "a.go", true, true},
		{"*.go", "a/b.go", false, true},
		{"*", ".hidden", true, true},
		// "**" as a whole segment takes zero or more segments...
		{"a/**/b", "a/b", true, true},
		{"a/**/b", "a/x/y/b", true, true},
		{"**/b", "b", true, true},
		{"**/b", "x/y/b", true, true},
		{"**", "x/y", true, true},
		// ...and at the end the folder itself.
		{"a/**", "a", true, true},
		{"a/**", "a/b/c", true, true},
		{"a/**", "ab", false, true},
		// Elsewhere "**" is a plain star.
		{"a**", "abc", true, true},
		{"a**", "ab/c", false, true},
		{"**a", "b/a", false, true},
		{"a/**b", "a/xb", true, true},
		{"a/**b", "a/x/b", false, true},
		// '?' is one rune, never '/'.
		{"a?b", "axb", true, true},
		{"a?b", "a/b", false, true},
		{"?", "é", true, true},
		{"??", "é", false, true},
		{"?", "日", true, true},
		// Classes, on runes.
		{"[a-c]x", "bx", true, true},
		{"[é]", "é", true, true},
		{"[à-ê]", "é", true, true},
		{"[!a/]", "b", true, true},
		{"[!a/]", "a", false, true},
		{`[\]]`, "]", true, true},
		{"[a-]", "-", true, true},
		// Alternatives, which may hold '/' and nest.
		{"{a,b/c}", "b/c", true, true},
		{"{a,{b,c}d}", "cd", true, true},
		{"{a,{b,c}d}", "d", false, true},
		{"x{,y}", "x", true, true},
		{"{,a}", "a", true, true},
		// Escapes.
		{`\*`, "*", true, true},
		{`\*`, "a", false, true},
		{`a\/b`, "a/b", true, true},
		// When the name runs out, the rest of the pattern must be "", "*",
		// "**", "/**", "**/" or "/**/" (isZeroLengthPattern):
		{"a*", "a", true, true},
		{"a*/**", "ab", true, true},
		{"a*/**", "a", false, true}, // "*/**" is not in the list
		{"a/**/*", "a", false, true},
		// Classes match '/', and the scan's backtracking then misses a way:
		// "*" = "aab", "[^a]" = "/", "*" = "a" would match.
		{"a[^x]b", "a/b", true, false},
		{"a[/]b", "a/b", true, false},
		{"*[^a]*", "aab/a", false, false},
		// The scan reads a star with a brace after it as written: here a
		// plain star, though "**/a" matches "a".
		{"**{/a,b}", "a", false, false},
		{"**/a", "a", true, true},
		// A brace the scan has not reached when the name runs out is not
		// expanded.
		{"src/{**,*.go}", "src", false, false},
		{"src/{**,*.go}", "src/a.go", true, false},
		{"a*{,.bak}", "a", false, false},
		// "**/" counts as zero-length even with a plain star, and the scan
		// stops at the first way the name runs out.
		{"*a**/", "a", true, false},
		{"*a**/", "aa", false, false},
		{"a/**/", "a", true, false},
	} {
		got, err := doublestar.Match(tc.glob, tc.path)
		if err != nil || got != tc.match {
			t.Errorf("doublestar.Match(%q, %q) = %v, %v; want %v", tc.glob, tc.path, got, err, tc.match)
		}
		if Match(tc.glob, tc.path) != tc.match {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.glob, tc.path, !tc.match, tc.match)
		}
		if why := exactGlob(tc.glob); (why == "") != tc.exact {
			t.Errorf("exactGlob(%q) = %q, want exact %v", tc.glob, why, tc.exact)
		}
		model := compileGlob(tc.glob).matches(tc.path)
		if tc.exact && model != tc.match || tc.match && !model {
			t.Errorf("automaton of %q on %q = %v, doublestar %v (exact %v)", tc.glob, tc.path, model, tc.match, tc.exact)
		}
	}
}
