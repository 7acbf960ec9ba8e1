// Package gitstore is the repository lucid stores its files in: finding
// the repository a path belongs to, where each file lives under the work
// tree and the git dir, reading and writing them safely (no links, bounded
// sizes, atomic replacement), the repository's lock, running git, and
// reading git's configuration files. What is stored in those files is the
// business of the stores (logstore, claimstore, agentstore, lichstore,
// remoteclaims).
package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Repo is one work tree of a git repository.
type Repo struct {
	// Top is the top folder of the work tree.
	Top string
	// GitDir is the work tree's own git dir: .git, or .git/worktrees/NAME
	// for a linked work tree, or .git/modules/NAME for a submodule.
	GitDir string
	// CommonDir is the git dir shared by every linked work tree.
	CommonDir string
	// LockWait bounds how long Lock waits for the repository's lock; zero
	// is LockWaitFromEnv. A hook sets it well inside its own timeout.
	LockWait time.Duration

	// names caches Names: one plus its value, zero before the first read.
	// A call reads the config once, however many of its parts ask.
	names atomic.Uint32
}

// NotRepoError says that a path is not inside any git work tree.
type NotRepoError struct{ Path string }

func (e *NotRepoError) Error() string {
	return fmt.Sprintf("not inside a git repository (%s)", e.Path)
}

// ErrBare is returned for a path inside a bare repository or inside a git dir.
var ErrBare = errors.New("bare repository")

// Find returns the work tree that holds path. The path may be a folder, a
// file, or a path whose folders do not exist yet: the nearest existing
// ancestor decides.
//
// It reads .git (a folder, or a file "gitdir: ..." in a linked work tree or a
// submodule) and <gitdir>/commondir itself, rather than asking go-git to open
// the repository, because go-git refuses repositories whose config has
// extensions.worktreeConfig, and because no git process should run on the
// hook path.
func Find(path string) (*Repo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir, err := nearestFolder(abs)
	if err != nil {
		return nil, &NotRepoError{Path: path}
	}
	for d := dir; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Lstat(dotgit); err == nil {
			gitDir := dotgit
			if fi.Mode()&fs.ModeSymlink != 0 {
				// A .git that links to the git dir: git follows it.
				if st, err := os.Stat(dotgit); err == nil && st.IsDir() {
					fi, gitDir = st, absFrom(d, ".git")
				}
			}
			if !fi.IsDir() {
				if gitDir, err = readGitFile(dotgit); err != nil {
					return nil, err
				}
			}
			if !isGitDir(gitDir) {
				return nil, fmt.Errorf("%s does not point to a git dir: repair or remove it", dotgit)
			}
			return &Repo{Top: d, GitDir: gitDir, CommonDir: commonDir(gitDir)}, nil
		}
		if isGitDir(d) {
			if isBare(d) {
				return nil, fmt.Errorf("%w at %s: lucid needs a work tree; run it in a clone with one", ErrBare, d)
			}
			return nil, fmt.Errorf("%w: %s is inside the git dir %s, not in a work tree; run lucid in the work tree", ErrBare, path, d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, &NotRepoError{Path: path}
		}
		d = parent
	}
}

// nearestFolder returns the nearest existing folder at or above abs, with
// symbolic links resolved so that paths compare equal to git's.
func nearestFolder(abs string) (string, error) {
	d := abs
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				d = filepath.Dir(d)
			}
			return filepath.EvalSymlinks(d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", err
		}
		d = parent
	}
}

// readGitFile reads a ".git" file of a linked work tree or a submodule.
func readGitFile(dotgit string) (string, error) {
	b, err := readFile(dotgit)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is not a gitdir file: repair or remove it", dotgit)
	}
	return absFrom(filepath.Dir(dotgit), strings.TrimSpace(target)), nil
}

// commonDir follows <gitDir>/commondir, present in a linked work tree's git dir.
func commonDir(gitDir string) string {
	b, err := readFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	return absFrom(gitDir, strings.TrimSpace(string(b)))
}

func absFrom(base, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// isGitDir reports whether d looks like a git dir: HEAD and objects, or, for a
// linked work tree's own git dir, HEAD and commondir.
func isGitDir(d string) bool {
	if _, err := os.Stat(filepath.Join(d, "HEAD")); err != nil {
		return false
	}
	for _, name := range []string{"objects", "commondir"} {
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	return false
}

// isBare reads core.bare from the config of the git dir d, itself:
// go-git's config decoder pulls in encoding/gob, whose initialisation
// every hook would pay for.
func isBare(d string) bool { return configBool(filepath.Join(d, "config"), "core", "bare") }

// Rel returns path relative to the work tree's top, with forward slashes, and
// an error when the path lies outside the work tree or inside its .git.
// Symbolic links in the existing part of the path are resolved first.
func (r *Repo) Rel(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	abs = resolveExisting(abs)
	rel, ok := Inside(r.Top, abs)
	if !ok {
		rel, ok = InsideNamed(r.Names(), r.Top, abs)
	}
	if !ok {
		return "", fmt.Errorf("%s is outside the work tree %s", path, r.Top)
	}
	rel = filepath.ToSlash(rel)
	// .GIT is .git where the file system folds case; the config is read
	// only for a name that could be.
	if first, _, _ := strings.Cut(rel, "/"); first == ".git" || strings.EqualFold(first, ".git") && r.Names()&FoldsCase != 0 {
		return "", fmt.Errorf("%s is inside .git, not in the work tree", path)
	}
	return rel, nil
}

// resolveExisting resolves symbolic links in the longest existing prefix of
// abs and keeps the rest as it is.
func resolveExisting(abs string) string {
	var rest []string
	d := abs
	for {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		rest = append([]string{filepath.Base(d)}, rest...)
		d = parent
	}
}

// Abs returns the absolute path of rel, a path relative to the work tree's top.
func (r *Repo) Abs(rel string) string {
	return filepath.Join(r.Top, filepath.FromSlash(rel))
}
