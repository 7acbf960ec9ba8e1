package gitstore

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Inside answers as the system's paths go: a sibling whose name begins
// with the folder's is outside, a name that begins with two dots is
// inside, and on Windows another volume is outside and case does not
// count.
func TestInside(t *testing.T) {
	type insideCase struct {
		dir, path, rel string
		ok             bool
	}
	cases := []insideCase{
		{"/a", "/a", ".", true},
		{"/a", "/a/b", "b", true},
		{"/a", "/a/b/c/", "b/c", true},
		{"/a", "/ab", "", false},
		{"/a/b", "/a", "", false},
		{"/a", "/a/..b", "..b", true},
		{"/a", "/a/../b", "", false},
		{"/a", "/", "", false},
		{"/", "/a", "a", true},
		{"a", "/a/b", "", false},
		{"/a", "a/b", "", false},
		{"a", "a/b", "b", true},
		// A Windows path is one name with backslashes here, and its
		// ".." is part of that name.
		{`C:\a`, `C:\a\b`, "", false},
		{`/a`, `/a/..\b`, `..\b`, true},
	}
	if runtime.GOOS == "windows" {
		cases = []insideCase{
			{`C:\a`, `C:\a`, `.`, true},
			{`C:\a`, `C:\a\b`, `b`, true},
			{`C:\a`, `C:\a\b\c`, `b\c`, true},
			{`C:\a`, `C:/a/b`, `b`, true},
			{`C:\a`, `c:\A\b`, `b`, true},
			{`C:\a`, `C:\ab`, ``, false},
			{`C:\a\b`, `C:\a`, ``, false},
			{`C:\a`, `C:\a\..b`, `..b`, true},
			{`C:\a`, `C:\a\..\b`, ``, false},
			{`C:\a`, `D:\a\b`, ``, false},
			{`C:\a`, `\a\b`, ``, false},
			{`\\host\share\a`, `\\host\share\a\b`, `b`, true},
			{`\\host\share\a`, `\\host\other\a\b`, ``, false},
			{`a`, `a\b`, `b`, true},
		}
	}
	for _, tc := range cases {
		rel, ok := Inside(tc.dir, tc.path)
		if rel != tc.rel || ok != tc.ok {
			t.Errorf("Inside(%q, %q) = %q, %v; want %q, %v", tc.dir, tc.path, rel, ok, tc.rel, tc.ok)
		}
	}
}

// SameFile knows a file by another spelling of its path, and through a
// link, and tells two files apart.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, nil, 0o644)
	os.WriteFile(b, nil, 0o644)
	link := filepath.Join(dir, "l")
	if err := os.Symlink(a, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{a, a, true},
		{a, dir + "/./a", true},
		{a, link, true},
		{a, b, false},
		{a, filepath.Join(dir, "missing"), false},
		{filepath.Join(dir, "missing"), filepath.Join(dir, "missing"), true},
	} {
		if got := SameFile(tc.a, tc.b); got != tc.want {
			t.Errorf("SameFile(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}
