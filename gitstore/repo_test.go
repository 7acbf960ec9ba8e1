package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// checkAgainstGit asserts that Find(path) agrees with git run in gitCwd.
func checkAgainstGit(t *testing.T, path, gitCwd string) {
	t.Helper()
	r, err := Find(path)
	if err != nil {
		t.Fatalf("Find(%s): %v", path, err)
	}
	want := [3]string{
		gittest.Run(t, gitCwd, "rev-parse", "--show-toplevel"),
		gittest.Run(t, gitCwd, "rev-parse", "--absolute-git-dir"),
		gittest.Run(t, gitCwd, "rev-parse", "--path-format=absolute", "--git-common-dir"),
	}
	if got := [3]string{r.Top, r.GitDir, r.CommonDir}; got != want || r.LockWait != 0 {
		t.Fatalf("Find(%s) = top, git dir, common dir %q (lock wait %v)\nwant (from git) %q", path, got, r.LockWait, want)
	}
}

func TestFindAgreesWithGit(t *testing.T) {
	top := gittest.Committed(t)
	sub := filepath.Join(top, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(sub, "f.go")
	os.WriteFile(file, []byte("package b\n"), 0o644)

	t.Run("top", func(t *testing.T) { checkAgainstGit(t, top, top) })
	t.Run("subfolder", func(t *testing.T) { checkAgainstGit(t, sub, sub) })
	t.Run("file", func(t *testing.T) { checkAgainstGit(t, file, sub) })
	t.Run("path not yet there", func(t *testing.T) {
		checkAgainstGit(t, filepath.Join(sub, "new", "deeper", "x.go"), sub)
	})
	t.Run("relative path", func(t *testing.T) {
		t.Chdir(top)
		checkAgainstGit(t, "a/b/nope/x", sub)
	})
	t.Run("linked work tree", func(t *testing.T) {
		linked := filepath.Join(filepath.Dir(top), "linked")
		gittest.Run(t, top, "worktree", "add", "-q", linked)
		os.MkdirAll(filepath.Join(linked, "x"), 0o755)
		checkAgainstGit(t, filepath.Join(linked, "x", "new.go"), filepath.Join(linked, "x"))
		r, _ := Find(linked)
		if r.CommonDir != filepath.Join(top, ".git") || r.GitDir != filepath.Join(top, ".git", "worktrees", "linked") {
			t.Fatalf("linked work tree: %+v", r)
		}
	})
	t.Run("symlinked path", func(t *testing.T) {
		link := filepath.Join(filepath.Dir(top), "link")
		if err := os.Symlink(top, link); err != nil {
			t.Fatal(err)
		}
		checkAgainstGit(t, filepath.Join(link, "a"), filepath.Join(top, "a"))
	})
}

func TestFindWorktreeConfig(t *testing.T) {
	top := gittest.Committed(t)
	gittest.Run(t, top, "config", "core.repositoryformatversion", "1")
	gittest.Run(t, top, "config", "extensions.worktreeConfig", "true")
	gittest.Run(t, top, "sparse-checkout", "init", "--cone")
	checkAgainstGit(t, top, top)
	linked := filepath.Join(filepath.Dir(top), "wt")
	gittest.Run(t, top, "worktree", "add", "-q", linked)
	checkAgainstGit(t, linked, linked)
}

func TestFindSubmodule(t *testing.T) {
	lib := gittest.Committed(t)
	super := gittest.Committed(t)
	gittest.Run(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	sub := filepath.Join(super, "lib")
	checkAgainstGit(t, sub, sub)
	checkAgainstGit(t, filepath.Join(sub, "new.go"), sub)
	r, _ := Find(sub)
	if r.GitDir != filepath.Join(super, ".git", "modules", "lib") {
		t.Fatalf("submodule git dir %s", r.GitDir)
	}
}

func TestFindRefusesOutsideAndBare(t *testing.T) {
	dir := t.TempDir()
	_, err := Find(dir)
	var nr *NotRepoError
	if !errors.As(err, &nr) || err.Error() != "not inside a git repository ("+dir+")" {
		t.Fatalf("outside: %v", err)
	}
	bare := filepath.Join(dir, "b.git")
	gittest.Run(t, dir, "init", "-q", "--bare", bare)
	for _, p := range []string{bare, filepath.Join(bare, "refs", "heads"), filepath.Join(bare, "no", "such")} {
		if _, err := Find(p); !errors.Is(err, ErrBare) {
			t.Errorf("Find(%s) in a bare repository: %v", p, err)
		}
	}
	top := gittest.Committed(t)
	if _, err := Find(filepath.Join(top, ".git", "refs")); !errors.Is(err, ErrBare) {
		t.Errorf("inside .git: %v", err)
	}
}

func TestRel(t *testing.T) {
	top := gittest.Committed(t)
	r, err := Find(top)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want, err string }{
		{filepath.Join(top, "a", "b.go"), "a/b.go", ""},
		{filepath.Join(top, "a", "..", "c"), "c", ""},
		{filepath.Join(top, "..", "x"), "", "outside the work tree"},
		{filepath.Dir(top), "", "outside the work tree"},
		{filepath.Join(top, ".git", "config"), "", "inside .git"},
		{filepath.Join(top, ".gitignore"), ".gitignore", ""},
	} {
		got, err := r.Rel(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Rel(%s) = %q, %v; want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Rel(%s) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// A broken .git (a file that is not "gitdir: ...", or one that points at
// no git dir) is an error that names it and says what to do; Find does not
// look past it to a repository further up.
func TestFindBrokenDotGit(t *testing.T) {
	top := gittest.Committed(t)
	inner := filepath.Join(top, "inner")
	os.Mkdir(inner, 0o755)
	dotgit := filepath.Join(inner, ".git")
	for content, want := range map[string]string{
		"not a gitdir file\n":                           dotgit + " is not a gitdir file: repair or remove it",
		"gitdir: ../nowhere\n":                          dotgit + " does not point to a git dir: repair or remove it",
		"gitdir: " + filepath.Join(top, "inner") + "\n": dotgit + " does not point to a git dir: repair or remove it",
	} {
		os.WriteFile(dotgit, []byte(content), 0o644)
		if r, err := Find(filepath.Join(inner, "f.go")); err == nil || err.Error() != want {
			t.Errorf(".git holding %q: %v, %v; want %q", content, r, err, want)
		}
	}
	// A relative gitdir is read from the .git file's folder.
	os.WriteFile(dotgit, []byte("gitdir: ../.git\n"), 0o644)
	if r, err := Find(inner); err != nil || r.Top != inner || r.GitDir != filepath.Join(top, ".git") {
		t.Errorf("a relative gitdir: %+v, %v", r, err)
	}
}

// Find from outside any repository says where it looked; from a bare
// repository, that lucid needs a work tree.
func TestFindErrorTexts(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if _, err := Find(filepath.Join(dir, "a", "b")); err == nil || err.Error() != "not inside a git repository ("+filepath.Join(dir, "a", "b")+")" {
		t.Errorf("outside: %v", err)
	}
	bare := filepath.Join(dir, "b.git")
	gittest.Run(t, dir, "init", "-q", "--bare", bare)
	if _, err := Find(bare); err == nil || err.Error() != "bare repository at "+bare+": lucid needs a work tree; run it in a clone with one" {
		t.Errorf("bare: %v", err)
	}
	top := gittest.Committed(t)
	refs := filepath.Join(top, ".git", "refs")
	if _, err := Find(refs); err == nil || err.Error() != "bare repository: "+refs+" is inside the git dir "+filepath.Join(top, ".git")+", not in a work tree; run lucid in the work tree" {
		t.Errorf("inside .git: %v", err)
	}
}

// A .git that is a symbolic link to the git dir is one git follows: Find
// agrees with git on where the repository is.
func TestFindDotGitLink(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	top := filepath.Join(dir, "work")
	gittest.Run(t, dir, "init", "-q", top)
	os.Rename(filepath.Join(top, ".git"), filepath.Join(dir, "gitdir"))
	if err := os.Symlink("../gitdir", filepath.Join(top, ".git")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(top, "sub"), 0o755)
	checkAgainstGit(t, top, top)
	checkAgainstGit(t, filepath.Join(top, "sub", "new.go"), filepath.Join(top, "sub"))
}
