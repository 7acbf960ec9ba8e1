package overlap

import "testing"

// BenchmarkGlobsOverlap times one claim check against one active claim, for
// pairs like the ones agents write.
func BenchmarkGlobsOverlap(b *testing.B) {
	for _, bc := range []struct{ name, a, c string }{
		{"disjoint-dirs", "src/guard/**", "src/hooks/**"},
		{"nested", "src/**", "src/guard/*.go"},
		{"ext-vs-dir", "**/*.go", "docs/**/*.md"},
		{"braces", "{cmd,internal}/**/*_test.go", "cmd/lucid/{claim,release}.go"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Globs(bc.a, bc.c)
			}
		})
	}
}
