package gitstore

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestFoldCase(t *testing.T) {
	for in, want := range map[string]string{
		"src/match.go":      "SRC/MATCH.GO",
		"SRC/Match.Go":      "SRC/MATCH.GO",
		"Kelvin-\u212a":     "KELVIN-K", // the Kelvin sign folds to K
		"long-\u017f":       "LONG-S",   // so does the long s to S
		"1+2=[3]_x-y.{a,b}": "1+2=[3]_X-Y.{A,B}",
		"":                  "",
	} {
		if got := FoldCase(in); got != want {
			t.Errorf("FoldCase(%q) = %q, want %q", in, got, want)
		}
	}
	if FoldCase("straße") != FoldCase("STRAßE") || FoldCase("Äpfel") != FoldCase("äPFEL") {
		t.Error("letters beyond ASCII do not fold alike")
	}
	if FoldCase("a.go") == FoldCase("b.go") {
		t.Error("two names fold to one")
	}
}

func TestInsideNamed(t *testing.T) {
	for _, c := range []struct {
		fold      bool
		dir, path string
		rel       string
		ok        bool
	}{
		{false, "/w/Repo", "/w/Repo/src/A.go", "src/A.go", true},
		{false, "/w/Repo", "/w/repo/src/A.go", "", false},
		{true, "/w/Repo", "/w/repo/src/A.go", "src/A.go", true},
		{true, "/w/Repo", "/W/REPO", ".", true},
		{true, "/w/Repo", "/w/RepoX/a", "", false},
		{true, "/w/Repo", "/w/other", "", false},
		{true, "/w/\u212aelvin", "/w/kelvin/a", "a", true},
	} {
		if !c.fold && !c.ok && runtime.GOOS == "windows" {
			continue // Windows paths fold case as they are compared
		}
		var n Names
		if c.fold {
			n = FoldsCase
		}
		rel, ok := InsideNamed(n, filepath.FromSlash(c.dir), filepath.FromSlash(c.path))
		if ok != c.ok || filepath.ToSlash(rel) != c.rel {
			t.Errorf("InsideNamed(%v, %s, %s) = %q %v, want %q %v", n, c.dir, c.path, rel, ok, c.rel, c.ok)
		}
	}
}

// Rel and Names follow core.ignorecase: a path under the top spelled
// in another case is in the work tree where the file system folds case,
// and .GIT is .git there.
func TestRelFoldsCase(t *testing.T) {
	top := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	r, err := Find(top)
	if err != nil {
		t.Fatal(err)
	}
	upper := strings.ToUpper(r.Top) + "/src/a.go"
	git := func(args ...string) {
		if out, err := exec.Command("git", append([]string{"-C", r.Top}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("config", "core.ignorecase", "false")
	if r.Names() != 0 {
		t.Errorf("Names %v with core.ignorecase false", r.Names())
	}
	if _, err := r.Rel(upper); err == nil {
		t.Errorf("%s is in the work tree where case counts", upper)
	}
	git("config", "core.ignorecase", "true")
	// A Repo reads the config once: the repository found anew reads it
	// as it is now.
	if r, err = Find(top); err != nil {
		t.Fatal(err)
	}
	if r.Names() != FoldsCase {
		t.Errorf("Names %v with core.ignorecase true, want FoldsCase", r.Names())
	}
	if rel, err := r.Rel(upper); err != nil || rel != "src/a.go" {
		t.Errorf("Rel(%s) = %q, %v", upper, rel, err)
	}
	if _, err := r.Rel(filepath.Join(r.Top, ".GIT", "config")); err == nil {
		t.Error(".GIT/config is in the work tree where case folds")
	}
	if !r.HoldsState(strings.ToUpper(r.Top)) {
		t.Error("the top spelled in capitals holds no state")
	}
}

// Where names precompose (a Mac), the NFC and NFD spellings of é are one
// name, and case still counts unless it folds too.
func TestNamesPrecompose(t *testing.T) {
	nfc, nfd := "caf\u00e9.go", "cafe\u0301.go"
	if Names(0).Same(nfc, nfd) || FoldsCase.Same(nfc, nfd) {
		t.Error("NFC and NFD are one name without Precomposes")
	}
	if !Precomposes.Same(nfc, nfd) || !(Precomposes|FoldsCase).Same("CAF\u00c9.go", nfd) {
		t.Error("NFC and NFD are two names with Precomposes")
	}
	if Precomposes.Same("A.go", "a.go") {
		t.Error("case folds with Precomposes alone")
	}
	if rel, ok := InsideNamed(Precomposes, "/w/"+nfc, "/w/"+nfd+"/x"); !ok || rel != "x" {
		t.Errorf("InsideNamed across NFC and NFD = %q %v", rel, ok)
	}
}

// OnDisk gives every spelling of a file the one its folder holds, keeps a
// name that is not there yet as given, and changes nothing where names do
// not fold. The folder here is case-sensitive, which is how a name spelled
// exactly is kept when a folder holds both spellings.
func TestOnDisk(t *testing.T) {
	dir := t.TempDir()
	nfd := "cafe\u0301"
	for _, p := range []string{"Src/Match.go", "both/a.go", "both/A.go", nfd + "/x.go", "Kelvin/K.go"} {
		writeFile(t, filepath.Join(dir, p), "x")
	}
	for _, c := range []struct {
		n         Names
		rel, want string
	}{
		{FoldsCase, "SRC/MATCH.GO", "Src/Match.go"},
		{FoldsCase, "src/match.go", "Src/Match.go"},
		{FoldsCase, "Src/Match.go", "Src/Match.go"},
		{FoldsCase, "src/New.go", "Src/New.go"},
		{FoldsCase, "SRC/new/deeper/n.go", "Src/new/deeper/n.go"},
		{FoldsCase, "both/A.go", "both/A.go"},
		{FoldsCase, "both/a.go", "both/a.go"},
		{FoldsCase, "kelvin/\u212a.go", "Kelvin/K.go"},
		{0, "SRC/MATCH.GO", "SRC/MATCH.GO"},
		{Precomposes, "caf\u00e9/x.go", nfd + "/x.go"},
		{Precomposes, "CAF\u00c9/x.go", "CAF\u00c9/x.go"},
		{Precomposes, "Kelvin/\u212a.go", "Kelvin/K.go"},
		{Precomposes, "kelvin/K.go", "kelvin/K.go"},
		{Precomposes | FoldsCase, "CAF\u00c9/X.GO", nfd + "/x.go"},
		{FoldsCase, ".", "."},
	} {
		if got := OnDisk(c.n, dir, c.rel); got != c.want {
			t.Errorf("OnDisk(%v, %q) = %q, want %q", c.n, c.rel, got, c.want)
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkOnDisk is what an edit costs in a work tree whose names fold:
// a file three folders below the top, each folder holding 100 entries.
func BenchmarkOnDisk(b *testing.B) {
	dir := b.TempDir()
	path := dir
	for _, d := range []string{"Users", "me", "src", "Repo", "internal", "pkg"} {
		for i := range 99 {
			if err := os.WriteFile(filepath.Join(path, fmt.Sprintf("f%02d", i)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		path = filepath.Join(path, d)
		if err := os.Mkdir(path, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(path, "Match.go"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	want := "Repo/internal/pkg/Match.go"
	top := filepath.Join(dir, "Users", "me", "src")
	for b.Loop() {
		if OnDisk(FoldsCase, top, strings.ToLower(want)) != want {
			b.Fatal("not found")
		}
	}
}
