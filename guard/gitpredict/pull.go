package gitpredict

// pull is Unknown: it fetches first. It loses the uncommitted changes of
// the log the way an autostash does (see autostash); since whether it
// rebases or merges may come from the config too, either key counts.
func (q *query) pull() error {
	q.unknown("it fetches first (run `git fetch`, then `git merge` or `git rebase` with what it fetched, which lucid can check)")
	return q.autostash(`rebase\.autostash`, `merge\.autostash`)
}
