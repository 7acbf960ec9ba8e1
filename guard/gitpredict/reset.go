package gitpredict

// reset: --hard writes every file that differs between the commit and the
// work tree (exact); --merge is resetMerge; --keep writes the files that
// differ between HEAD and the commit, or refuses when they have local
// changes.
func (q *query) reset() error {
	o := q.o
	commit := "HEAD"
	if len(o.Ops) > 0 {
		commit = revision(o.Ops[0].Text)
	}
	switch {
	case o.Has("hard"):
		if err := q.diffTo(commit); err != nil {
			return err
		}
		return q.loseIfLocal(q.paths, "git reset --hard puts back the copies of "+commit, q.keepLog)
	case o.Has("merge"):
		return q.resetMerge(commit)
	case o.Has("keep"):
		return q.diff([]string{"HEAD", commit}, nil)
	}
	return nil
}
