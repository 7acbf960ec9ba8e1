package gitpredict

// merge changes the files their side changed since the merge base: git
// diff HEAD...THEIRS for each commit merged (the upstream when none is
// named). With --autostash, the files with local changes too. merge
// --abort is resetMerge to HEAD.
func (q *query) merge() error {
	o := q.o
	if o.Has("abort") {
		return q.resetMerge("HEAD")
	}
	targets := lits(o.Ops)
	if len(targets) == 0 {
		targets = []string{"@{upstream}"}
	}
	for _, t := range targets {
		if err := q.diff([]string{"HEAD..." + revision(t)}, nil); err != nil {
			return err
		}
	}
	return q.autostash(`merge\.autostash`)
}
