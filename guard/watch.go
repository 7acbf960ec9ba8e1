package guard

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// ClaimedFiles lists the files under top (a work tree's top) that active
// claims in top of agents other than agent cover, relative to top, each
// once. It stops at limit files and then reports false: a claim on a tree
// too big to watch is not watched.
func (s *ClaimSet) ClaimedFiles(agent, top string, limit int) ([]string, bool) {
	seen := map[string]bool{}
	var out []string
	for _, c := range s.Claims {
		if c.Owner == agent || c.Worktree != top || !s.Active(c) {
			continue
		}
		for _, g := range c.Globs {
			prefix := literalPrefix(g)
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
				if seen[rel] || !strings.HasPrefix(rel, prefix) || !GlobMatch(g, rel) {
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
