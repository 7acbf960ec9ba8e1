package guard

import (
	"slices"
	"strings"
	"testing"
)

// TestFormatWrites checks that the writes of formatters and fixers are
// marked as theirs (ShellWrite.Format), and no other.
func TestFormatWrites(t *testing.T) {
	formatters := []string{"prettier --write", "eslint --fix", "go fmt", "black", "gofmt -w", "clang-format -i"}
	for _, cmd := range []string{"prettier --write .", "npx eslint --fix src/a.js", "go fmt ./...", "black src",
		"gofmt -w x.go", "clang-format -i a.c", "find . -delete", "tar xzf missing.tgz", "rsync -a src/ dst/",
		"sed -i s/a/b/ x.go", "echo x > y && prettier -w z"} {
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
		fsys.add(path, kindFile)
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
	if got := scriptArgs([]shArg{{s: "--fix"}, {s: "a b"}, {s: "it's"}, {s: "x" + shUnknown}}); got != ` --fix 'a b' 'it'\''s' `+shUnknown {
		t.Errorf("scriptArgs: %q", got)
	}
}
