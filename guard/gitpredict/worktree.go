package gitpredict

import (
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
)

// worktreeRemove: git worktree remove --force deletes a linked work tree
// with what it holds: Paths is its folder. Its uncommitted changes under
// .lucid/ are lost with it.
func (q *query) worktreeRemove() error {
	ops := lits(q.o.Ops)
	if len(ops) < 2 {
		return nil
	}
	out, err := q.git(q.op.Dir, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return err
	}
	wt, ok := pickWorktree(out, filepath.Join(q.op.Dir, ops[1]), ops[1])
	if !ok {
		return nil // no such work tree: the command fails
	}
	q.paths = append(q.paths, wt)
	entries, err := q.status(wt, wt, false, []string{":(top).lucid"})
	if err != nil {
		return err
	}
	var lost []string
	for _, e := range entries {
		lost = append(lost, e.path)
	}
	q.lose(lost, "git worktree remove --force deletes them with the work tree", func() string { return q.commitFirst(wt) })
	return nil
}

// pickWorktree is the work tree of git worktree list --porcelain -z that
// git worktree remove takes for its argument arg (path, when resolved):
// the one at path, or else the only one whose path ends in arg.
func pickWorktree(list []byte, path, arg string) (string, bool) {
	var ends []string
	for field := range strings.SplitSeq(string(list), "\x00") {
		wt, ok := strings.CutPrefix(field, "worktree ")
		switch {
		case !ok:
		case gitstore.SameFile(wt, path):
			return wt, true
		case !filepath.IsAbs(arg) && strings.HasSuffix(wt, "/"+strings.Trim(arg, "/")):
			ends = append(ends, wt)
		}
	}
	if len(ends) != 1 {
		return "", false
	}
	return ends[0], true
}
