package applypatch

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// patchCase is one archive of testdata/patches (README.md there).
type patchCase struct {
	name  string
	shell bool
	patch string
	paths []string
	err   string // "" when Codex applies the patch
}

func patchCorpus(t testing.TB) []patchCase {
	t.Helper()
	files, err := filepath.Glob("../../../testdata/patches/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no patch corpus in testdata/patches (%v)", err)
	}
	var out []patchCase
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := patchCase{name: strings.TrimSuffix(filepath.Base(f), ".txtar")}
		for _, s := range a.Files {
			switch s.Name {
			case "shell":
				c.shell = true
			case "patch":
				c.patch = string(s.Data)
			case "paths":
				for _, l := range strings.Split(strings.TrimSpace(string(s.Data)), "\n") {
					if l != "" {
						c.paths = append(c.paths, l)
					}
				}
			case "error":
				c.err = strings.TrimSpace(string(s.Data))
			default:
				t.Fatalf("%s: unknown section %q", f, s.Name)
			}
		}
		out = append(out, c)
	}
	return out
}

// describe writes a patch's hunks as the corpus's paths sections do.
func describe(p Patch) []string {
	var out []string
	if p.Dir != "" {
		out = append(out, "cd "+p.Dir)
	}
	for _, f := range p.Files {
		l := string(f.Op) + " " + f.Path
		if f.MoveTo != "" {
			l += " -> " + f.MoveTo
		}
		out = append(out, l)
	}
	return out
}

func TestPatchCorpus(t *testing.T) {
	for _, c := range patchCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			var err error
			if c.shell {
				patches, ok, serr := ShellPatches(c.patch)
				if !ok {
					t.Fatalf("ShellPatches found no apply_patch in %q", c.patch)
				}
				for _, p := range patches {
					got = append(got, describe(p)...)
				}
				err = serr
			} else {
				var p Patch
				p, err = Parse(c.patch)
				got = describe(p)
			}
			if !reflect.DeepEqual(got, c.paths) {
				t.Errorf("hunks:\n got %q\nwant %q", got, c.paths)
			}
			switch {
			case c.err == "" && err != nil:
				t.Errorf("Codex applies this patch, but the parser says: %v", err)
			case c.err != "" && err == nil:
				t.Errorf("Codex rejects this patch (%s), but the parser accepts it", c.err)
			case c.err != "" && !strings.Contains(err.Error(), c.err):
				t.Errorf("error %q does not say %q", err, c.err)
			}
		})
	}
}

func TestPatchErrorIsTyped(t *testing.T) {
	_, err := Parse("*** Begin Patch\n*** Frobnicate File: x\n*** End Patch")
	var pe *PatchError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(pe.Error(), "Frobnicate") {
		t.Fatalf("want a *PatchError at line 2 naming the bad header, got %v", err)
	}
	if _, err := Parse(""); err == nil || !strings.Contains(err.Error(), "Begin Patch") {
		t.Errorf("an empty patch: want an error naming the begin marker, got %v", err)
	}
}

func TestPatchEmptyIsValid(t *testing.T) {
	// Codex accepts a patch with no hunks (and writes nothing).
	p, err := Parse("*** Begin Patch\n*** End Patch\n")
	if err != nil || len(p.Files) != 0 {
		t.Fatalf("got %v, %v", p.Files, err)
	}
}

func TestParsedPatchPaths(t *testing.T) {
	p := Patch{Dir: "web", Files: []PatchFile{
		{Op: PatchUpdate, Path: "a.go", MoveTo: "../src/a.go"},
		{Op: PatchAdd, Path: "/abs/b.go"},
		{Op: PatchDelete, Path: "./a.go"}, // the same file twice: once
		{Op: PatchUpdate, MoveTo: "c.go"}, // a move whose source a failed parse lost
	}}
	got := p.Paths("/repo")
	want := []string{"/repo/web/a.go", "/repo/src/a.go", "/abs/b.go", "/repo/web/c.go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Paths:\n got %q\nwant %q", got, want)
	}
	if got := (Patch{Dir: "/else", Files: p.Files[:1]}).Paths("/repo"); got[0] != "/else/a.go" {
		t.Errorf("an absolute cd: got %q", got)
	}
}

func TestShellPatchesNone(t *testing.T) {
	for _, cmd := range []string{"echo apply_patch", "git apply x.diff", "ls -la", "if (", "cat apply_patch.txt"} {
		if ps, ok, err := ShellPatches(cmd); ok || len(ps) > 0 || err != nil {
			t.Errorf("%q: want no apply_patch, got %v %v %v", cmd, ps, ok, err)
		}
	}
}

// A shell command that does not parse but mentions apply_patch: whatever
// headers its lines hold are still the guard's to see.
func TestShellPatchesUnparsable(t *testing.T) {
	cmd := "apply_patch <<'EOF' ; (\n*** Begin Patch\n*** Delete File: src/a.go\n*** End Patch\nEOF\n"
	ps, ok, err := ShellPatches(cmd + "fi )")
	if !ok || err == nil {
		t.Fatalf("want an error for an unparsable command, got ok=%v err=%v", ok, err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, describe(p)...)
	}
	if !reflect.DeepEqual(got, []string{"delete src/a.go"}) {
		t.Errorf("got %q", got)
	}
}

func FuzzParsePatch(f *testing.F) {
	for _, c := range patchCorpus(f) {
		f.Add(c.patch)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse(text)
		if err == nil {
			// What Codex would apply names a file in every hunk.
			for _, h := range p.Files {
				if h.Path == "" && h.MoveTo == "" {
					t.Fatalf("a hunk without a path in an accepted patch: %q", text)
				}
			}
		}
		// A header line is never lost, whatever surrounds it.
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
			path, ok := strings.CutPrefix(l, patchDelete)
			if !ok || err == nil {
				continue
			}
			found := false
			for _, h := range p.Files {
				found = found || h.Path == path || h.MoveTo == path
			}
			if !found {
				t.Fatalf("a malformed patch hid %q: %q -> %v", path, text, describe(p))
			}
		}
		ShellPatches(text)
		ShellPatches("apply_patch <<'EOF'\n" + text + "\nEOF\n")
	})
}

// The hook pays these on every apply_patch and every shell command.
func BenchmarkParsePatch(b *testing.B) {
	var text string
	for _, c := range patchCorpus(b) {
		if c.name == "all-ops" {
			text = c.patch
		}
	}
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkShellPatches(b *testing.B) {
	for _, bc := range []struct{ name, cmd string }{
		{"no-apply_patch", "go test ./... 2>&1 | tail -20 && git status --short"},
		{"heredoc", "cd src && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.go\n+package a\n*** End Patch\nEOF\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				ShellPatches(bc.cmd)
			}
		})
	}
}

// A patch in a heredoc whose delimiter is <<- loses its leading tabs, as
// the shell strips them.
func TestPatchInTabbedHeredoc(t *testing.T) {
	cmd := "apply_patch <<-'EOF'\n\t*** Begin Patch\n\t*** Add File: a.txt\n\t+x\n\t*** End Patch\n\tEOF\n"
	patches, ok, err := ShellPatches(cmd)
	if err != nil || !ok || len(patches) != 1 || len(patches[0].Paths("/w")) != 1 {
		t.Errorf("%+v %v %v", patches, ok, err)
	}
}

// Chunks Codex refuses: a second chunk without "@@", a chunk with no
// lines, one that ends at once; each still names its file.
func TestPatchChunkErrors(t *testing.T) {
	for _, tc := range []struct{ patch, err string }{
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\nz\n*** End Patch", "expected a chunk to start with '@@'"},
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n*** End Patch", "a chunk has no lines"},
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n*** End of File\n*** End Patch", "a chunk has no lines"},
	} {
		p, err := Parse(tc.patch)
		if err == nil || !strings.Contains(err.Error(), tc.err) || len(p.Paths("/w")) != 1 {
			t.Errorf("%q: %v, paths %v; want %q", tc.patch, err, p.Paths("/w"), tc.err)
		}
	}
}

// The error names the patch as a whole where no line is to blame; a long
// patch is clipped in messages; a heredoc's delimiter may be double-quoted.
func TestPatchErrorAndHeredocQuotes(t *testing.T) {
	e := &PatchError{Msg: "m"}
	if e.Error() != "invalid apply_patch: m" || clipPatch(strings.Repeat("x", 90)) != strings.Repeat("x", 80)+"…" {
		t.Error(e.Error())
	}
	patches, ok, err := ShellPatches("apply_patch <<\"EOF\"\n*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\nEOF\n")
	if err != nil || !ok || len(patches) != 1 {
		t.Errorf("a heredoc with a double-quoted delimiter: %+v %v %v", patches, ok, err)
	}
}
