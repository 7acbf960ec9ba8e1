package overlap

import "testing"

// FuzzGlobsOverlap: nothing panics; a path both globs match means they
// overlap; a witness is a path, and for exact globs one doublestar accepts
// for both; the automaton agrees with doublestar on the path; and what
// Clean lets through is exact and stays as it is.
func FuzzGlobsOverlap(f *testing.F) {
	for _, s := range [][3]string{
		{"src/**", "src/a/b.go", "src/a/b.go"},
		{"*.go", "src/*.go", "src/x.go"},
		{"**/*.go", "src/**/x.go", "src/x.go"},
		{"{a,b}/c", "b/*", "b/c"},
		{"[a-c]*", "d*", "d"},
		{"a/**/b", "a/b", "a/b"},
		{"src/{**,*.go}", "src", "src"},
		{"*a**/", "a", "aa"},
		{"a[^x]b", "a?b", "a/b"},
		{"**{/a,b}", "a", "a"},
		{"[é]x", "?x", "éx"},
		{"{a,{b,c}d}", "cd", "cd"},
		{`\*.go`, "*.go", "*.go"},
		{"{{\xdd}\x87}", "*", "\u0747"}, // braces join bytes into a rune
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, a, b, path string) {
		w, ok := Witness(a, b)
		if ok != Globs(b, a) {
			t.Errorf("Globs(%q, %q) is not symmetric", a, b)
		}
		if ok {
			if !isPath(w) {
				t.Errorf("Globs(%q, %q): witness %q is not a path", a, b, w)
			}
			if exactGlob(a) == "" && exactGlob(b) == "" {
				checkWitness(t, a, b, w)
			}
		}
		if isPath(path) && Match(a, path) && Match(b, path) && !ok {
			t.Errorf("Globs(%q, %q) = false, but both match %q", a, b, path)
		}
		if validGlob(a) && isPath(path) {
			want := Match(a, path)
			if got := compileGlob(a).matches(path); got != want && (exactGlob(a) == "" || want) {
				t.Errorf("automaton of %q on %q = %v, doublestar %v", a, path, got, want)
			}
		}
		if clean, err := Clean(a); err == nil {
			if why := exactGlob(clean); why != "" {
				t.Errorf("Clean(%q) = %q, which %s", a, clean, why)
			}
			if again, err := Clean(clean); err != nil || again != clean {
				t.Errorf("Clean(%q) = %q, %v; want it unchanged", clean, again, err)
			}
		}
	})
}
