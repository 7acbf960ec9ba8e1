package shell

import (
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
)

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
	w := &walker{fs: &memoFS{shellFS: fsys}}
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
