package gitpredict

import (
	"os"
	"path/filepath"
)

// rebase changes, without --onto and a branch, the files the upstream
// changed since the merge base (git diff HEAD...UPSTREAM), which is exact
// but for commits it drops. With --onto, a branch, --interactive,
// --rebase-merges, --keep-base or the default upstream (whose fork point
// may drop commits), it is the files that differ between HEAD and the new
// base plus the files of the commits it replays (git diff
// UPSTREAM...BRANCH). With --autostash (or rebase.autoStash), also the
// files with local changes. --abort puts back the files that differ from
// the commit the rebase started from, and those of its autostash; --skip
// the files with local changes and those of the commits left; --continue
// those of the commits left. --root and the apply backend's --skip and
// --continue are Unknown, and --exec makes the result Unknown.
func (q *query) rebase() error {
	o := q.o
	state := "rebase-merge"
	if _, err := os.Stat(filepath.Join(q.repo.GitDir, state)); err != nil {
		state = "rebase-apply"
	}
	switch {
	case o.Has("abort"):
		orig := q.gitFile(state + "/orig-head")
		if orig == "" {
			return nil // no rebase in progress: the command fails
		}
		if err := q.diffTo(orig); err != nil {
			return err
		}
		if err := q.loseIfLocal(q.paths, "git rebase --abort puts back the copies of the commit it started from", q.keepLog); err != nil {
			return err
		}
		if stash := q.gitFile(state + "/autostash"); stash != "" {
			return q.list(q.op.Dir, q.repo.Top, "stash", "show", "--name-only", "-z", "--no-renames", "--include-untracked", stash)
		}
		return nil
	case o.Has("skip") || o.Has("continue"):
		if o.Has("skip") {
			if err := q.diffTo("HEAD"); err != nil {
				return err
			}
			q.lose(q.underLucidOf(q.paths), "git rebase --skip puts back the committed copies", q.keepLog)
		}
		if state == "rebase-apply" {
			q.unknown("the patches git rebase has left to apply are not read by lucid")
			return nil
		}
		return q.todo(state + "/git-rebase-todo")
	case o.Has("root"):
		q.unknown("git rebase --root replays every commit")
		return nil
	}
	if _, ok := o.Get("x", "exec"); ok {
		q.unknown("git rebase --exec runs commands between the commits")
	}
	ops := lits(o.Ops)
	upstream := "@{upstream}"
	if len(ops) > 0 {
		upstream = revision(ops[0])
	}
	onto, hasOnto := o.Get("onto")
	if !hasOnto && len(ops) == 1 && !o.Has("i", "interactive", "r", "rebase-merges", "keep-base", "fork-point") {
		if err := q.diff([]string{"HEAD..." + upstream}, nil); err != nil {
			return err
		}
	} else {
		base, branch := upstream, "HEAD"
		if hasOnto {
			base = revision(onto.Text)
		}
		if len(ops) > 1 {
			branch = revision(ops[1])
		}
		if err := q.diff([]string{"HEAD", base}, nil); err != nil {
			return err
		}
		if err := q.diff([]string{upstream + "..." + branch}, nil); err != nil {
			return err
		}
	}
	return q.autostash(`rebase\.autostash`)
}
