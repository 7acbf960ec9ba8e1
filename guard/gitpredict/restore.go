package gitpredict

import "slices"

// restore: see restorePaths.
func (q *query) restore() error {
	o := q.o
	source := ""
	if s, ok := o.Get("s", "source"); ok {
		source = s.Text
	} else if o.Has("S", "staged") {
		source = "HEAD" // with --worktree: both from HEAD
	}
	_, fromFile := o.Get("pathspec-from-file")
	return q.restorePaths(source, lits(o.Ops), fromFile)
}

// restorePaths: git restore and git checkout of pathspecs write the files
// under them whose copy differs from the source's: git diff of the index
// (no source) or of the source against the work tree, under the same
// pathspecs. git restore also deletes the tracked files the source lacks,
// which that diff holds; git checkout does not, so for it they are extra.
func (q *query) restorePaths(source string, pathspecs []string, fromFile bool) error {
	if fromFile {
		q.unknown("it reads its paths from a file")
		return nil
	}
	var revs []string
	if source != "" {
		revs = []string{revision(source)}
	}
	if err := q.diff(revs, pathspecs); err != nil {
		return err
	}
	safe := func() string { return q.here(append(slices.Clip(q.op.Args), excludeLucid)) }
	if source == "" {
		// The index against the work tree: every difference is uncommitted.
		q.lose(q.underLucidOf(q.paths), "it puts back the copies in the index", safe)
		return nil
	}
	return q.loseIfLocal(q.paths, "it puts back the copies of "+source, safe)
}
