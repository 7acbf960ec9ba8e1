package shell

import (
	"slices"
	"testing"
)

func TestPatchNames(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"unified", "--- a/x.go\t2024-01-01 10:00:00\n+++ b/x.go\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n", []string{"a/x.go", "b/x.go"}},
		{"new file", "--- /dev/null\n+++ b/new.go\n@@ -0,0 +1 @@\n+x\n", []string{"b/new.go"}},
		{"git rename", "diff --git a/old name.go b/new name.go\nsimilarity index 100%\nrename from old name.go\nrename to new name.go\n", []string{"a/old name.go", "b/new name.go"}},
		{"git quoted", "diff --git \"a/t\\303\\251.go\" \"b/t\\303\\251.go\"\n--- \"a/t\\303\\251.go\"\n+++ \"b/t\\303\\251.go\"\n", []string{"a/té.go", "b/té.go"}},
		{"context", "*** x.c.orig\n--- x.c\n***************\n*** 1 ****\n--- 1,2 ----\n+ b\n", []string{"x.c.orig", "x.c"}},
		{"Index", "Index: lib/y.c\n===\n--- lib/y.c.orig\n+++ lib/y.c.new\n", []string{"lib/y.c", "lib/y.c.orig", "lib/y.c.new"}},
		{"crlf", "--- a/w.txt\r\n+++ b/w.txt\r\n", []string{"a/w.txt", "b/w.txt"}},
		{"not a header", "--- a/x\n--- b/y\nsome text\n", nil},
	} {
		if got := patchNames(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		n    int
		want string
		ok   bool
	}{
		{"a/b/c.go", 1, "b/c.go", true},
		{"a//b/c.go", 2, "c.go", true},
		{"a/b/c.go", 0, "a/b/c.go", true},
		{"a/b/c.go", -1, "c.go", true},
		{"c.go", 1, "", false},
		{"/abs/x", 1, "abs/x", true},
	} {
		if got, ok := stripPath(tc.name, tc.n); got != tc.want || ok != tc.ok {
			t.Errorf("stripPath(%q, %d) = %q, %v; want %q, %v", tc.name, tc.n, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzPatchNames reads arbitrary text as a patch: each name comes once,
// and none is /dev/null.
func FuzzPatchNames(f *testing.F) {
	f.Add("--- a/x\n+++ b/x\n")
	f.Add("diff --git \"a/q\\\"\" b/y\n*** /dev/null\n--- c\n")
	f.Fuzz(func(t *testing.T, text string) {
		seen := map[string]bool{}
		for _, n := range patchNames(text) {
			if seen[n] || n == "" || n == "/dev/null" {
				t.Fatalf("%q: name %q", text, n)
			}
			seen[n] = true
		}
	})
}
