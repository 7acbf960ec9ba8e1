package board

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/present"
)

// ErrUnknownTree: LoadTree shows only the repository's work trees that the
// board knows (its own, and those of its agents and claims).
var ErrUnknownTree = errors.New("not a work tree of this repository that an agent or a claim names")

// maxMarkers bounds the lich markers a tree reads.
const maxMarkers = 5000

// LoadTree reads the tree of the work tree top (one of the repository's)
// with the claims of b laid over it, and the recent edits of its files,
// their agents named as naming says.
func LoadTree(repo *gitstore.Repo, naming present.Naming, b *Board, top string) (*Tree, error) {
	if top == "" {
		top = repo.Top
	}
	// Another machine's claim names a folder of that machine.
	known := top == repo.Top || slices.ContainsFunc(b.Agents, func(a Agent) bool { return a.Worktree == top }) ||
		slices.ContainsFunc(b.Claims, func(c Claim) bool { return c.Worktree == top && c.Machine == "" })
	if !known {
		return nil, ErrUnknownTree
	}
	tree := &Tree{Top: top, Files: []File{}}
	paths, truncated, err := listFiles(top)
	if err != nil {
		return nil, err
	}
	tree.Truncated = truncated
	// A claim and a marker find their file as the file system compares
	// names: where it folds case, a claim on SRC/MATCH.GO marks
	// src/match.go, and no second file of that name is listed.
	names := repo.Names()
	// Claimed files no longer (or not yet) on disk are shown too: a claim
	// names what an agent is about to write.
	index := map[string]int{}
	for _, p := range paths {
		index[names.Key(p)] = len(tree.Files)
		tree.Files = append(tree.Files, File{Path: p})
	}
	for _, c := range b.Claims {
		if c.Worktree != top && c.Machine == "" {
			continue
		}
		for _, g := range c.Globs {
			if _, ok := index[names.Key(g)]; !ok && !strings.ContainsAny(g, `*?[{\`) {
				index[names.Key(g)] = len(tree.Files)
				tree.Files = append(tree.Files, File{Path: g, Claims: []string{c.ID}})
				continue
			}
			for _, i := range covered(paths, g, names) {
				if !slices.Contains(tree.Files[i].Claims, c.ID) {
					tree.Files[i].Claims = append(tree.Files[i].Claims, c.ID)
				}
			}
		}
	}
	slices.SortFunc(tree.Files, func(x, y File) int { return strings.Compare(x.Path, y.Path) })
	for i, f := range tree.Files {
		index[names.Key(f.Path)] = i
	}
	wt := repo
	if top != repo.Top {
		if wt, err = gitstore.Find(top); err != nil {
			return tree, nil // the work tree went away; its files were listed
		}
	}
	markers := lichstore.Recent(wt, time.Time{}, maxMarkers)
	labels := present.NewLabeler(repo, naming)
	for _, m := range markers {
		rel := m.Path
		if filepath.IsAbs(rel) {
			r, ok := gitstore.InsideNamed(names, top, rel)
			if !ok {
				continue
			}
			rel = filepath.ToSlash(r)
		}
		i, ok := index[names.Key(rel)]
		if !ok {
			continue
		}
		for _, e := range m.Edits() {
			tree.Files[i].Edits = append(tree.Files[i].Edits, Edit{Agent: e.Session, Label: labels.Label(e.Session), At: e.Time().UTC()})
		}
		slices.SortFunc(tree.Files[i].Edits, func(x, y Edit) int { return y.At.Compare(x.At) })
	}
	return tree, nil
}

// listFiles lists the files of the work tree at top that git tracks or
// would track, sorted, at most MaxFiles.
func listFiles(top string) ([]string, bool, error) {
	out, err := gitstore.RunGit(context.Background(), top, nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, false, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	sort.Strings(paths)
	paths = slices.Compact(paths) // a file in conflict is listed once per stage
	if len(paths) > MaxFiles {
		return paths[:MaxFiles], true, nil
	}
	return paths, false, nil
}

// covered returns the indexes of the sorted paths that glob matches,
// testing only those that begin with its literal start, or, where names
// fold, each path as names compares it.
func covered(paths []string, glob string, names gitstore.Names) []int {
	var out []int
	if names != 0 {
		key := names.Key(glob)
		for i, p := range paths {
			if overlap.Match(key, names.Key(p)) {
				out = append(out, i)
			}
		}
		return out
	}
	lit := glob
	if i := strings.IndexAny(glob, `*?[{\`); i >= 0 {
		lit = glob[:i]
	}
	for i := sort.SearchStrings(paths, lit); i < len(paths) && strings.HasPrefix(paths[i], lit); i++ {
		if overlap.Match(glob, paths[i]) {
			out = append(out, i)
		}
	}
	return out
}
