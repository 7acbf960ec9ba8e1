// Package gitpredict tells, before one of git's whole-tree commands runs
// (git stash, git reset --hard, checkout, merge, rebase, cherry-pick,
// pull, clean, apply, am, worktree remove...), which files of the work
// tree it would change, and whether it would discard the lines agents
// appended to the log and not yet committed. It asks git itself, with a
// few short git processes. The shell analysis finds such commands in a
// line and hands each over as an Op.
package gitpredict
