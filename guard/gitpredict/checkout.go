package gitpredict

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// checkout: git checkout and git switch to a commit change the files that
// differ between HEAD and it; the files with local changes keep them, or
// git refuses. With -f (--discard-changes) every file whose copy differs
// from the commit's: git diff between the commit and the work tree. switch
// --orphan empties the work tree: every tracked file. A branch that exists
// only as a remote-tracking branch is the one git checkout would create
// from it. The path forms (git checkout -- folder) are restorePaths.
func (q *query) checkout() error {
	o := q.o
	var target string
	guess := !o.Has("no-guess", "detach")
	if q.op.Args[0] == "checkout" {
		co := cmdline.CheckoutOperands(o, func(a cmdline.Arg) bool {
			s, ok := a.Lit()
			return ok && s != "" && realpath.Stat(realpath.InDir(q.op.Dir, s)) != realpath.None
		})
		if co.PathForm && o.Dashes < 0 && len(o.Ops) == 1 && q.isCommit(o.Ops[0].Text) {
			// A name that is both a path and a branch: git switches to
			// the branch (seen with git 2.39).
			co = cmdline.CheckoutArgs{Target: o.Ops[0]}
		}
		if co.PathForm {
			_, fromFile := o.Get("pathspec-from-file")
			return q.restorePaths(co.Source.Text, lits(co.Paths), fromFile)
		}
		target = co.Target.Text
		guess = guess && !o.Has("b", "B", "orphan")
	} else {
		if _, ok := o.Get("orphan"); ok {
			if err := q.list(q.repo.Top, q.repo.Top, "ls-files", "-z"); err != nil {
				return err
			}
			return q.loseIfLocal(q.paths, "git switch --orphan removes every tracked file", q.keepLog)
		}
		if len(o.Ops) > 0 {
			target = o.Ops[0].Text
		}
		guess = guess && !o.Has("c", "C", "create", "force-create")
	}
	target = revision(target)
	force := o.Has("f", "force", "discard-changes")
	changes := func(target string) error {
		if force {
			return q.diffTo(target)
		}
		return q.diff([]string{"HEAD", target}, nil)
	}
	err := changes(target)
	if err != nil && guess {
		if remote, ok := q.remoteBranch(target); ok {
			err = changes(remote)
		}
	}
	if err != nil || !force {
		return err
	}
	return q.loseIfLocal(q.paths, "it puts back the committed copies", q.keepLog)
}

// remoteBranch is the remote-tracking branch that git checkout NAME
// creates NAME from, when only one remote has it.
func (q *query) remoteBranch(name string) (string, bool) {
	out, err := q.git(q.op.Dir, "for-each-ref", "--format=%(refname)", "refs/remotes/*/"+name)
	if err != nil {
		return "", false
	}
	found := ""
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		remote, ok := strings.CutSuffix(strings.TrimPrefix(line, "refs/remotes/"), "/"+name)
		if !ok || remote == "" || strings.Contains(remote, "/") {
			continue
		}
		if found != "" {
			return "", false
		}
		found = line
	}
	return found, found != ""
}
