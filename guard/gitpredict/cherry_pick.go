package gitpredict

// pick: git cherry-pick and git revert change the files the commits
// change (git log --name-only of the same revisions, -m: a merge commit's
// files against each parent). --continue changes those of the commits
// left in the todo list, --skip also the files git resetMerge puts back,
// --abort is resetMerge to the commit the sequence started from.
func (q *query) pick() error {
	o := q.o
	switch {
	case o.Has("abort"):
		start := q.gitFile("sequencer/head")
		if start == "" {
			start = "HEAD"
		}
		return q.resetMerge(start)
	case o.Has("skip"):
		if err := q.resetMerge("HEAD"); err != nil {
			return err
		}
		return q.todo("sequencer/todo")
	case o.Has("continue"):
		return q.todo("sequencer/todo")
	case o.Has("stdin"):
		q.unknown("it reads the commits from standard input")
		return nil
	}
	revs := lits(o.Ops)
	for i, r := range revs {
		revs[i] = revision(r)
	}
	return q.commitFiles(revs)
}
