package gitpredict

// checkoutIndex: git checkout-index -f writes the files (all with -a)
// whose copy differs from the index (git diff); without -f only the
// missing ones. --prefix and --stdin are Unknown.
func (q *query) checkoutIndex() error {
	o := q.o
	if _, ok := o.Get("prefix"); ok || o.Has("stdin") {
		q.unknown("it writes to a prefix or reads its paths from standard input, which lucid does not follow")
		return nil
	}
	if !o.Has("a", "all") && len(o.Ops) == 0 {
		return nil
	}
	var options, paths []string
	if !o.Has("f", "force") {
		options = []string{"--diff-filter=D"}
	}
	for _, p := range lits(o.Ops) {
		paths = append(paths, ":(literal)"+p) // its operands are paths, not pathspecs
	}
	if err := q.diff(nil, paths, options...); err != nil {
		return err
	}
	q.lose(q.underLucidOf(q.paths), "git checkout-index -f puts back the copies in the index", q.keepLog)
	return nil
}
