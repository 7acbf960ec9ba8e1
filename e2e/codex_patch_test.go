package e2e

import (
	"bytes"
	"math/rand"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client/applypatch"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestCodexPatchCorpus holds guard's apply_patch corpus (testdata/patches)
// against Codex's own parser: `codex --codex-run-as-apply-patch PATCH` is
// the apply_patch of the binary. Codex rejects a patch it cannot parse with
// "Invalid patch..." before touching a file; any other failure (a file to
// update that is missing, lines not found) comes after parsing. The corpus
// says which patches Codex rejects; applypatch.Parse must agree.
func TestCodexPatchCorpus(t *testing.T) {
	bin := needCodex(t)
	files, err := filepath.Glob("../testdata/patches/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus (%v)", err)
	}
	checked := 0
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var patch string
		shell, rejects := false, false
		for _, s := range a.Files {
			switch s.Name {
			case "patch":
				patch = string(s.Data)
			case "shell":
				shell = true
			case "error":
				rejects = true
			}
		}
		p, perr := applypatch.Parse(patch)
		outside := false
		for _, h := range p.Files {
			outside = outside || filepath.IsAbs(h.Path) || filepath.IsAbs(h.MoveTo)
		}
		if shell || outside { // a shell command is no patch; absolute paths would write outside the test
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			cmd := exec.Command(bin, "--codex-run-as-apply-patch", patch)
			cmd.Dir = t.TempDir()
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			cmd.Run()
			codexRejects := strings.HasPrefix(out.String(), "Invalid patch")
			if codexRejects != rejects || (perr != nil) != rejects {
				t.Errorf("Codex rejects: %v (%q); the corpus says %v; applypatch.Parse: %v", codexRejects, clip(out.String(), 300), rejects, perr)
			}
		})
		checked++
	}
	if checked < 8 {
		t.Errorf("only %d patches checked", checked)
	}
}

// TestCodexPatchDifferential mutates the corpus's patches (lines dropped,
// markers, blanks and carriage returns put in) and asks Codex's own
// apply_patch and applypatch.Parse about each: they must agree on which
// patches are rejected. A seed keeps the run the same from one time to the
// next; about 30 s.
func TestCodexPatchDifferential(t *testing.T) {
	bin := needCodex(t)
	files, _ := filepath.Glob("../testdata/patches/*.txtar")
	var seeds []string
	for _, f := range files {
		a, _ := txtar.ParseFile(f)
		shell := false
		var p string
		for _, s := range a.Files {
			if s.Name == "shell" {
				shell = true
			}
			if s.Name == "patch" {
				p = string(s.Data)
			}
		}
		if !shell && !strings.Contains(p, ": /") {
			seeds = append(seeds, p)
		}
	}
	r := rand.New(rand.NewSource(7))
	pieces := []string{"", " ", "\t", "@@", "@@ ctx", "*** End of File", "*** End Patch", "*** Begin Patch", "+x", "-x", " x", "x", "*** Move to: m.txt", "*** Add File: n.txt", "*** Delete File: d.txt", "*** Update File: u.txt", "<<'EOF'", "EOF", "\r"}
	bad := 0
	for i := 0; i < 120; i++ {
		lines := strings.Split(seeds[r.Intn(len(seeds))], "\n")
		for k := 0; k < 1+r.Intn(3); k++ {
			j := r.Intn(len(lines))
			switch r.Intn(4) {
			case 0:
				lines = append(lines[:j], lines[j+1:]...)
			case 1:
				lines = append(lines[:j], append([]string{pieces[r.Intn(len(pieces))]}, lines[j:]...)...)
			case 2:
				lines[j] = pieces[r.Intn(len(pieces))] + lines[j]
			case 3:
				lines[j] = lines[j] + pieces[r.Intn(len(pieces))]
			}
			if len(lines) == 0 {
				lines = []string{""}
			}
		}
		patch := strings.Join(lines, "\n")
		_, perr := applypatch.Parse(patch)
		cmd := exec.Command(bin, "--codex-run-as-apply-patch", patch)
		cmd.Dir = t.TempDir()
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Run()
		if rejects := strings.HasPrefix(out.String(), "Invalid patch"); rejects != (perr != nil) {
			if bad++; bad <= 5 {
				t.Errorf("Codex rejects: %v (%q); applypatch.Parse: %v\npatch: %q", rejects, clip(out.String(), 200), perr, patch)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 120 patches judged differently", bad)
	}
}
