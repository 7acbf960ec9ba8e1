package claims

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// LoadIn reads the claims that can cover a file of the work tree top
// as it stands: those whose glob's literal prefix begins with a file or
// folder at the top (or is at the top itself, *.go). It is Load for
// watching files (hooks/shellwatch.go), which runs at a shell call of some
// clients: a claim on a folder that does not exist is not even decoded.
func LoadIn(repo *gitstore.Repo, now time.Time, top string) (*Set, error) {
	entries, err := os.ReadDir(top)
	if err != nil {
		return nil, err
	}
	compare := repo.Names()
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		names[compare.Key(e.Name())] = true
	}
	return findSet(repo, now, func(glob []byte) bool {
		first, _, inFolder := bytes.Cut(literalPrefixBytes(glob), []byte{'/'})
		return !inFolder || names[compare.Key(string(first))]
	}, compare)
}

// ClaimedFiles lists the files under top (a work tree's top) that active
// claims in top of agents other than agent cover, relative to top, each
// once. It stops at limit files and then reports false: a claim on a tree
// too big to watch is not watched.
func (s *Set) ClaimedFiles(agent, top string, limit int) ([]string, bool) {
	seen := map[string]bool{}
	var out []string
	for _, c := range s.Claims {
		if c.Owner == agent || !s.sameTree(c.Worktree, top) || !s.Active(c) {
			continue
		}
		for _, g := range c.Globs {
			prefix := literalPrefix(g)
			if prefix == g { // one file, no pattern: nothing to walk
				if fi, err := os.Lstat(filepath.Join(top, g)); err == nil && fi.Mode().IsRegular() && !seen[g] {
					if len(out) >= limit {
						return out, false
					}
					seen[g] = true
					out = append(out, g)
				}
				continue
			}
			root := prefix
			if !strings.HasSuffix(root, "/") {
				root = filepath.Dir(root)
			}
			err := filepath.WalkDir(filepath.Join(top, root), func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil // gone, or unreadable: nothing to watch there
				}
				if d.IsDir() {
					if name := d.Name(); name == ".git" || name == ".lucid" {
						return filepath.SkipDir
					}
					return nil
				}
				rel, err := filepath.Rel(top, path)
				if err != nil {
					return nil
				}
				rel = filepath.ToSlash(rel)
				if seen[rel] || !s.matches(g, rel) {
					return nil
				}
				if len(out) >= limit {
					return fs.SkipAll
				}
				seen[rel] = true
				out = append(out, rel)
				return nil
			})
			if err != nil || len(out) >= limit {
				return out, false
			}
		}
	}
	return out, true
}
