package gitpredict

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
)

// stash: push (also git stash, git stash save) changes the files it
// stashes, as git status lists them under the same pathspecs: the tracked
// files with changes (with --keep-index those whose copy differs from the
// index, with --staged those with staged changes), the untracked ones with
// -u, and with -a the ignored ones too (an ignored folder as the folder).
// That is exact, but for --patch, taken as all of them. pop and apply
// change the files the stash holds (git stash show, its untracked files
// included); stash branch also the files that differ between HEAD and the
// commit the stash was made on.
func (q *query) stash() error {
	o := q.o
	ops := lits(o.Ops)
	switch action := cmdline.StashAction(o); action {
	case "pop", "apply", "branch":
		ref := "stash@{0}"
		i := 1
		if action == "branch" {
			i = 2
		}
		if len(ops) > i {
			ref = ops[i]
		}
		if action == "branch" {
			if err := q.diff([]string{"HEAD", ref + "^1"}, nil); err != nil {
				return err
			}
		}
		return q.list(q.op.Dir, q.repo.Top, "stash", "show", "--name-only", "-z", "--no-renames", "--include-untracked", ref)
	case "push", "save":
		if _, ok := o.Get("pathspec-from-file"); ok {
			q.unknown("it reads its paths from a file")
			return nil
		}
		var pathspecs []string
		switch {
		case action == "push" && o.Dashes != 0 && len(ops) > 0:
			pathspecs = ops[1:]
		case action == "push":
			pathspecs = ops
		}
		entries, err := q.status(q.op.Dir, q.repo.Top, o.Has("a", "all"), pathspecs)
		if err != nil {
			return err
		}
		var lost []string
		for _, e := range entries {
			if !stashes(o, e) {
				continue
			}
			q.paths = append(q.paths, e.path)
			if q.underLucid(e.path) {
				lost = append(lost, e.path)
			}
		}
		q.lose(lost, "git stash takes them into the stash, and applying it back fails once an agent has appended to the log again",
			func() string { return q.here(stashSafe(o, action, pathspecs)) })
	}
	return nil
}

// stashes reports whether git stash push with options o takes the
// changes of status entry e, and so changes its file.
func stashes(o cmdline.Opts, e statusEntry) bool {
	all := o.Has("a", "all")
	switch index, tree := e.xy[0], e.xy[1]; {
	case e.xy == "??":
		return all || o.Has("u", "include-untracked")
	case e.xy == "!!":
		return all
	case o.Has("S", "staged"):
		return index != ' '
	case o.Has("k", "keep-index") && !o.Has("no-keep-index"):
		return tree != ' ' // the work tree keeps what is staged
	}
	return true
}

// stashSafe is git stash push with the options of o and its pathspecs,
// with .lucid/ left out.
func stashSafe(o cmdline.Opts, action string, pathspecs []string) []string {
	args := append([]string{"stash", "push"}, flagArgs(o)...)
	if action == "save" {
		if msg := strings.Join(lits(o.Ops[1:]), " "); msg != "" {
			args = append(args, "-m", msg)
		}
	}
	return append(append(append(args, "--"), pathspecs...), excludeLucid)
}
