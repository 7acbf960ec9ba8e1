package gitpredict

// readTree: git read-tree --reset -u writes the files that differ between
// the tree and the work tree (exact), as git reset --hard does; -m -u the
// files whose index entry differs from one of the trees (a union, for a
// merge of two or three), and it refuses to overwrite local changes;
// --empty every tracked file. --prefix is Unknown.
func (q *query) readTree() error {
	o := q.o
	if _, ok := o.Get("prefix"); ok {
		q.unknown("git read-tree --prefix reads a tree into a folder, which lucid does not follow")
		return nil
	}
	if o.Has("empty") {
		if err := q.list(q.repo.Top, q.repo.Top, "ls-files", "-z"); err != nil {
			return err
		}
	}
	for _, t := range lits(o.Ops) {
		var err error
		if o.Has("reset") {
			err = q.diffTo(revision(t))
		} else {
			err = q.diff([]string{revision(t)}, nil, "--cached")
		}
		if err != nil {
			return err
		}
	}
	if !o.Has("reset") {
		return nil
	}
	return q.loseIfLocal(q.paths, "git read-tree --reset -u puts back the copies of the tree", q.keepLog)
}
