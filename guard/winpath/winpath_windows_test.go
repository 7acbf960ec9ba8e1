//go:build windows

package winpath

import (
	"path/filepath"
	"testing"
)

// On Windows, path/filepath reads Clean's answers as Clean means them: a
// fixed point of filepath.Clean (no spelling left for it to change), and
// absolute exactly when IsAbs says so.
func TestCleanAsFilepathReadsIt(t *testing.T) {
	// Where the two part: filepath spells drive C's current folder C:.,
	// takes any byte before a colon for a drive letter (1:, CC: are names
	// to Windows), and has no one reading of \\ and \\?\ alone.
	apart := map[string]bool{`C:`: true, `\\?\`: true, `\\`: true, `1:\x`: true, `CC:\x`: true}
	for _, c := range cleanCases {
		got := Clean(c.in)
		if apart[got] {
			continue
		}
		if fc := filepath.Clean(got); fc != got {
			t.Errorf("filepath.Clean(Clean(%#q) = %#q) = %#q", c.in, got, fc)
		}
		if filepath.IsAbs(got) != IsAbs(got) {
			t.Errorf("IsAbs(%#q) = %v, filepath.IsAbs says %v", got, IsAbs(got), filepath.IsAbs(got))
		}
	}
}

// Abs places a relative path as filepath.Join does below an absolute
// folder.
func TestAbsAsFilepathJoins(t *testing.T) {
	const cwd = `C:\Users\me\repo`
	for _, p := range []string{`src\a.go`, `src/a.go`, `.\src\..\a.go`, `..\x`, `a`} {
		if got, want := Abs(cwd, p), filepath.Join(cwd, p); got != want {
			t.Errorf("Abs(%#q, %#q) = %#q, filepath.Join gives %#q", cwd, p, got, want)
		}
	}
}
