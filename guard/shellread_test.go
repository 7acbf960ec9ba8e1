package guard

import (
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// TestFormatWrites checks that the writes of formatters and fixers are
// marked as theirs (ShellWrite.Format), and no other.
func TestFormatWrites(t *testing.T) {
	formatters := []string{"prettier --write", "eslint --fix", "go fmt", "black", "gofmt -w", "clang-format -i"}
	for _, cmd := range []string{"prettier --write .", "npx eslint --fix src/a.js", "go fmt ./...", "black src",
		"gofmt -w x.go", "clang-format -i a.c", "find . -delete", "tar xzf missing.tgz", "rsync -a src/ dst/",
		"sed -i s/a/b/ x.go", "awk -i inplace 1 x.txt", "echo x > y && prettier -w z"} {
		ws := analyzeShell(cmd, "/repo", "", allDirs{}).Writes
		if len(ws) == 0 {
			t.Errorf("%s: no write", cmd)
		}
		for _, w := range ws {
			if want := slices.Contains(formatters, w.By); w.Format != want {
				t.Errorf("%s: %s [%s] Format %v, want %v", cmd, w.Path, w.By, w.Format, want)
			}
		}
	}
}

func TestPkgScripts(t *testing.T) {
	fsys := newTestFS()
	for path, text := range map[string]string{
		"/p/ok/package.json":        `{"name": "x", "scripts": {"a": "prettier --write .", "b": "x \u0026\u0026 y"}, "dependencies": {"z": "1"}}`,
		"/p/bad/package.json":       `{"scripts": {"a": "x"`,
		"/p/noscripts/package.json": `{"scripts": "nope"}`,
		"/p/big/package.json":       `{"scripts": {"a": "` + strings.Repeat("x", maxConfigBytes) + `"}}`,
	} {
		fsys.add(path, realpath.File)
		fsys.files[path] = text
	}
	w := &shellWalker{fs: &memoFS{shellFS: fsys}}
	for dir, want := range map[string]map[string]string{
		"/p/ok":        {"a": "prettier --write .", "b": "x && y"},
		"/p/bad":       nil,
		"/p/noscripts": {},
		"/p/big":       nil,
		"/p/none":      nil,
	} {
		got := w.pkgScripts(dir)
		if (got == nil) != (want == nil) || len(got) != len(want) {
			t.Errorf("%s: got %q, want %q", dir, got, want)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: script %s is %q, want %q", dir, k, got[k], v)
			}
		}
	}
	if got := scriptArgs([]cmdline.Arg{{Text: "--fix"}, {Text: "a b"}, {Text: "it's"}, {Text: "x" + cmdline.Unknown}}); got != ` --fix 'a b' 'it'\''s' `+cmdline.Unknown {
		t.Errorf("scriptArgs: %q", got)
	}
}

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
