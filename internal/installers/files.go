package installers

import (
	"os"
	"path/filepath"

	"github.com/lucid-dev/lucid/gitstore"
)

// RemoveEmptyDirs removes dir and its parents up to the work tree's top
// while they are empty (.claude/commands/lucid, then .claude/commands,
// then .claude).
func RemoveEmptyDirs(repo *gitstore.Repo, dir string) {
	for {
		if rel, ok := gitstore.Inside(repo.Top, dir); !ok || rel == "." || os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// ReadHomeFile reads a file of the user's own (in their home, not in a
// repository): a symbolic link there is the user's doing (a dotfiles
// folder), so it is followed wherever it points, and *path becomes its
// target, so that a write replaces the file and keeps the link.
func ReadHomeFile(path *string) ([]byte, error) {
	if target, err := filepath.EvalSymlinks(*path); err == nil {
		*path = target
	}
	return gitstore.ReadFile(*path, gitstore.MaxSettings)
}
