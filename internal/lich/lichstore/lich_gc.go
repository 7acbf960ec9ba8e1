package lichstore

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// MaxAge is how long lich's edit markers and lucid's lich news are kept.
const MaxAge = 7 * 24 * time.Hour

// GC removes the edit markers and lich news older than MaxAge at
// now, in every work tree of the repository (the main git dir and each
// linked work tree's), and returns how many files it removed. A file's age
// is its "at", or its modification time when it has none. It goes on past a
// file it cannot remove and returns the first error.
func GC(r *gitstore.Repo, now time.Time) (int, error) {
	dirs := []string{filepath.Join(r.CommonDir, gitstore.LichEditsDir), r.LichNewsDir()}
	if r.GitDir != r.CommonDir {
		dirs = append(dirs, filepath.Join(r.GitDir, gitstore.LichEditsDir)) // a submodule's own
	}
	linked, _ := filepath.Glob(filepath.Join(r.CommonDir, "worktrees", "*", gitstore.LichEditsDir))
	dirs = append(dirs, linked...)
	seen := map[string]bool{}
	removed := 0
	var first error
	for _, dir := range dirs {
		if seen[dir] {
			continue
		}
		seen[dir] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) && first == nil {
				first = err
			}
			continue
		}
		for _, e := range entries {
			fi, err := e.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			file := filepath.Join(dir, e.Name())
			if now.Sub(lichAge(file, fi)) <= MaxAge {
				continue
			}
			if err := os.Remove(file); err != nil {
				if first == nil {
					first = err
				}
				continue
			}
			removed++
		}
	}
	return removed, first
}
