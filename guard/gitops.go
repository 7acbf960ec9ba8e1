package guard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// GitChanges is what a git command would do to the files of a work tree,
// as git tells before the command runs.
type GitChanges struct {
	// Top is the work tree the command runs in.
	Top string
	// Paths are the absolute paths of the files the command would change,
	// create or delete, sorted, each once. A folder stands for everything
	// under it (git clean -d, git stash -a and git worktree remove take
	// whole folders). Where git can tell exactly, they are exact; where it
	// cannot, they are more than the command changes, never fewer, unless
	// Unknown says so.
	Paths []string
	// Unknown, when not "", says in a sentence why git cannot tell
	// beforehand what the command changes: git pull fetches first, an
	// argument is a variable, a revision does not resolve. Paths then holds
	// what could be found, and the command may change more.
	Unknown string
	// LogLoss, when not "", says that the command would discard changes
	// under .lucid/ that are not committed (the lines agents appended to
	// .lucid/log.jsonl, a plan not yet committed), why, and the command to
	// run instead, which does the rest alike and keeps them: "... Run
	// instead: `COMMAND`." (tried with git 2.39).
	LogLoss string
}

// gitTimeout bounds the git processes of one Changes: the hook that asks
// must answer within a few seconds.
const gitTimeout = 3 * time.Second

// Changes asks git which files of the work tree op would change, before it
// runs. It runs a few short git processes (one or two for most commands;
// one more to write a LogLoss), each with no pager, no prompt, no hook and
// no optional lock, and reads what git records of an operation in progress
// (a rebase's todo list) itself. It returns an error
// when op.Dir is not in a work tree, or git cannot run or takes longer than
// a few seconds; what git refuses to tell is Unknown.
//
// Each git subcommand has its own rule, given on the method that reads it
// (stash, checkout, merge, pick, rebase, pull, reset, clean, apply,
// restorePaths, readTree, checkoutIndex, worktreeRemove). Renames count as
// a deletion and a creation: both names are in Paths.
func (op GitOp) Changes() (GitChanges, error) {
	if len(op.Args) == 0 {
		return GitChanges{}, errors.New("a GitOp without a git subcommand")
	}
	if op.Dir == "" {
		return GitChanges{Unknown: fmt.Sprintf("The folder `%s` runs in is not known (a cd to a variable, or --git-dir): lucid cannot ask git what it changes.", op.String())}, nil
	}
	if realpath.Stat(op.Dir) != realpath.Dir {
		return GitChanges{Unknown: fmt.Sprintf("The folder `%s` runs in, %s, does not exist yet: lucid cannot ask git what it changes.", op.String(), op.Dir)}, nil
	}
	repo, err := gitstore.Find(op.Dir)
	if err != nil {
		return GitChanges{}, err
	}
	c := GitChanges{Top: repo.Top}
	if !op.Known {
		c.Unknown = fmt.Sprintf("An argument of `%s` is known only when it runs (a variable or a $( )): lucid cannot ask git beforehand what it changes.", op.String())
		return c, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	q := &gitQuery{ctx: ctx, op: op, repo: repo, c: &c,
		o: cmdline.ParseOpts(strArgs(op.Args[1:]), cmdline.GitSpec(op.Args[0]))}
	err = q.ask()
	slices.Sort(q.paths)
	c.Paths = slices.Compact(q.paths)
	var ge *gitstore.GitError
	switch {
	case ctx.Err() != nil:
		return c, fmt.Errorf("git took over %v to tell what `%s` changes", gitTimeout, op.String())
	case errors.As(err, &ge) && ge.Code > 0:
		c.Unknown = fmt.Sprintf("git cannot tell beforehand what `%s` changes: %s.", op.String(), strings.TrimSuffix(ge.Reason, "."))
	case err != nil:
		return c, err
	}
	return c, nil
}

// String is op as the shell would run it, for messages.
func (op GitOp) String() string {
	return shellword.Join(append([]string{"git"}, op.Args...))
}

// gitQuery is one Changes at work.
type gitQuery struct {
	ctx   context.Context
	op    GitOp
	o     cmdline.Opts // op's options and operands after the subcommand
	repo  *gitstore.Repo
	c     *GitChanges
	paths []string // absolute, found so far
	// local is the files under .lucid/ with changes that are not
	// committed, once asked (localLucid).
	local      []string
	localAsked bool
}

func (q *gitQuery) ask() error {
	switch q.op.Args[0] {
	case "stash":
		return q.stash()
	case "checkout", "switch":
		return q.checkout()
	case "restore":
		return q.restore()
	case "merge":
		return q.merge()
	case "cherry-pick", "revert":
		return q.pick()
	case "rebase":
		return q.rebase()
	case "pull":
		return q.pull()
	case "reset":
		return q.reset()
	case "clean":
		return q.clean()
	case "apply", "am":
		return q.apply()
	case "read-tree":
		return q.readTree()
	case "checkout-index":
		return q.checkoutIndex()
	case "worktree":
		return q.worktreeRemove()
	}
	q.unknown("lucid does not know which files it changes")
	return nil
}

// stash: push (also git stash, git stash save) changes the files it
// stashes, as git status lists them under the same pathspecs: the tracked
// files with changes (with --keep-index those whose copy differs from the
// index, with --staged those with staged changes), the untracked ones with
// -u, and with -a the ignored ones too (an ignored folder as the folder).
// That is exact, but for --patch, taken as all of them. pop and apply
// change the files the stash holds (git stash show, its untracked files
// included); stash branch also the files that differ between HEAD and the
// commit the stash was made on.
func (q *gitQuery) stash() error {
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

// excludeLucid is the pathspec that leaves .lucid/ out, from any folder of
// the work tree.
const excludeLucid = ":(top,exclude).lucid"

// checkout: git checkout and git switch to a commit change the files that
// differ between HEAD and it; the files with local changes keep them, or
// git refuses. With -f (--discard-changes) every file whose copy differs
// from the commit's: git diff between the commit and the work tree. switch
// --orphan empties the work tree: every tracked file. A branch that exists
// only as a remote-tracking branch is the one git checkout would create
// from it. The path forms (git checkout -- folder) are restorePaths.
func (q *gitQuery) checkout() error {
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

// isCommit reports whether name resolves to a commit here.
func (q *gitQuery) isCommit(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	_, err := q.git(q.op.Dir, "rev-parse", "--verify", "--quiet", name+"^{commit}")
	return err == nil
}

// diffTo adds the files that differ between commit and the work tree: what
// git reset --hard and git checkout -f would write.
func (q *gitQuery) diffTo(commit string) error {
	return q.diff([]string{commit}, nil)
}

// remoteBranch is the remote-tracking branch that git checkout NAME
// creates NAME from, when only one remote has it.
func (q *gitQuery) remoteBranch(name string) (string, bool) {
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

// restore: see restorePaths.
func (q *gitQuery) restore() error {
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
func (q *gitQuery) restorePaths(source string, pathspecs []string, fromFile bool) error {
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

// merge changes the files their side changed since the merge base: git
// diff HEAD...THEIRS for each commit merged (the upstream when none is
// named). With --autostash, the files with local changes too. merge
// --abort is resetMerge to HEAD.
func (q *gitQuery) merge() error {
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

// pick: git cherry-pick and git revert change the files the commits
// change (git log --name-only of the same revisions, -m: a merge commit's
// files against each parent). --continue changes those of the commits
// left in the todo list, --skip also the files git resetMerge puts back,
// --abort is resetMerge to the commit the sequence started from.
func (q *gitQuery) pick() error {
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

// commitFiles adds the files each of revs changes, as git cherry-pick
// walks them: the commits named, and the commits of a range.
func (q *gitQuery) commitFiles(revs []string) error {
	if len(revs) == 0 {
		return nil
	}
	args := append([]string{"log", "--format=", "--name-only", "-z", "--no-renames", "-m", "--no-walk=unsorted", "--end-of-options"}, revs...)
	return q.list(q.op.Dir, q.repo.Top, append(args, "--")...)
}

// todo adds the files of the commits left in the todo list at name (in the
// git dir) of a rebase or a cherry-pick sequence. Its exec, reset and
// merge lines make the result Unknown. A cherry-pick's list starts with
// the commit that stopped it, which --continue commits as it stands.
func (q *gitQuery) todo(name string) error {
	data, err := os.ReadFile(filepath.Join(q.repo.GitDir, name))
	if err != nil {
		return nil // no sequence in progress: the command fails
	}
	stopped := q.gitFile("CHERRY_PICK_HEAD") + q.gitFile("REVERT_HEAD")
	var revs []string
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "pick", "p", "reword", "r", "edit", "e", "squash", "s", "revert":
			revs = append(revs, f[1])
		case "fixup", "f":
			if (f[1] == "-C" || f[1] == "-c") && len(f) > 2 {
				revs = append(revs, f[2])
			} else {
				revs = append(revs, f[1])
			}
		case "exec", "x", "reset", "t", "merge", "m":
			q.unknown("what is left of it runs commands or rebuilds merges (" + f[0] + " in its todo list)")
		}
	}
	if len(revs) > 0 && stopped != "" && strings.HasPrefix(stopped, revs[0]) {
		revs = revs[1:]
	}
	return q.commitFiles(revs)
}

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
func (q *gitQuery) rebase() error {
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

// pull is Unknown: it fetches first. It loses the uncommitted changes of
// the log the way an autostash does (see autostash); since whether it
// rebases or merges may come from the config too, either key counts.
func (q *gitQuery) pull() error {
	q.unknown("it fetches first (run `git fetch`, then `git merge` or `git rebase` with what it fetched, which lucid can check)")
	return q.autostash(`rebase\.autostash`, `merge\.autostash`)
}

// autostash adds the files with changes that are not committed when the
// command stashes them before it runs and applies them after: with
// --autostash, or when a git config key it reads (rebase.autoStash,
// merge.autoStash; patterns) is true, unless --no-autostash. Without it,
// such a command refuses to run with those changes, or keeps them. An
// autostash takes the log's new lines away while the command runs, and
// applying them back fails once an agent has appended to the log
// meanwhile: a LogLoss.
func (q *gitQuery) autostash(keys ...string) error {
	on, decided := false, false
	for i := len(q.o.Flags) - 1; i >= 0 && !decided; i-- {
		switch q.o.Flags[i].Name {
		case "autostash":
			on, decided = true, true
		case "no-autostash":
			decided = true
		}
	}
	if !decided {
		out, err := q.git(q.op.Dir, "config", "--type=bool", "--get-regexp", "^("+strings.Join(keys, "|")+")$")
		on = err == nil && strings.Contains(string(out), " true")
	}
	if !on {
		return nil
	}
	before := len(q.paths)
	if err := q.diffTo("HEAD"); err != nil {
		return err
	}
	q.lose(q.underLucidOf(q.paths[before:]), "the autostash takes them away while it runs, and applying them back fails once an agent has appended to the log meanwhile", q.keepLog)
	return nil
}

// reset: --hard writes every file that differs between the commit and the
// work tree (exact); --merge is resetMerge; --keep writes the files that
// differ between HEAD and the commit, or refuses when they have local
// changes.
func (q *gitQuery) reset() error {
	o := q.o
	commit := "HEAD"
	if len(o.Ops) > 0 {
		commit = revision(o.Ops[0].Text)
	}
	switch {
	case o.Has("hard"):
		if err := q.diffTo(commit); err != nil {
			return err
		}
		return q.loseIfLocal(q.paths, "git reset --hard puts back the copies of "+commit, q.keepLog)
	case o.Has("merge"):
		return q.resetMerge(commit)
	case o.Has("keep"):
		return q.diff([]string{"HEAD", commit}, nil)
	}
	return nil
}

// resetMerge is git reset --merge to commit, which git merge --abort and
// git cherry-pick --abort run: it writes the files whose index entry
// differs from the commit (git diff --cached), and keeps the changes not
// added to the index, or refuses. A file with both is taken as written.
func (q *gitQuery) resetMerge(commit string) error {
	if err := q.diff([]string{commit}, nil, "--cached"); err != nil {
		return err
	}
	return q.loseIfLocal(q.paths, "it puts back the copies of "+commit, q.keepLog)
}

// clean deletes what git clean --dry-run with the same options says it
// would: exact. A folder (with -d) stands for everything under it.
func (q *gitQuery) clean() error {
	o := q.o
	args := []string{"clean", "--dry-run"}
	for _, f := range o.Flags {
		switch f.Name {
		case "f", "force", "n", "dry-run", "i", "interactive", "q", "quiet":
		default:
			args = append(args, flagArg(f)...)
		}
	}
	args = append(append(args, "--"), lits(o.Ops)...)
	out, err := q.git(q.op.Dir, args...)
	if err != nil {
		return err
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		name, ok := strings.CutPrefix(line, "Would remove ")
		if !ok {
			continue
		}
		if strings.HasPrefix(name, `"`) { // git's C quoting, as Go's
			if unquoted, err := strconv.Unquote(name); err == nil {
				name = unquoted
			}
		}
		q.paths = append(q.paths, filepath.Join(q.op.Dir, name))
	}
	// -e adds an ignore rule: -x still keeps what it ignores, -X deletes
	// only what is ignored, so there a negated rule keeps .lucid/.
	exclude := ".lucid"
	if o.Has("X") {
		exclude = "!.lucid"
	}
	safe := append(append([]string{"clean"}, flagArgs(o)...), "-e", exclude)
	if len(o.Ops) > 0 {
		safe = append(append(safe, "--"), lits(o.Ops)...)
	}
	q.lose(q.underLucidOf(q.paths), "git clean deletes them, and they were never committed",
		func() string { return q.here(safe) })
	return nil
}

// apply: git apply and git am change the files their patches name (git
// apply --numstat with the same -p, --directory, --include and --exclude,
// read both ways to get both names of a rename; git apply in a folder
// leaves out the files outside it, as the command does). The source of a
// copy is named too, though it is left alone. A patch read from standard
// input, a Maildir, and git am going on with a series it stopped in are
// Unknown.
func (q *gitQuery) apply() error {
	o := q.o
	am := q.op.Args[0] == "am"
	if am && o.Has("continue", "skip", "abort", "resolved", "r", "retry") {
		q.unknown("it goes on with the patches git am stopped in, which lucid does not read")
		return nil
	}
	files := lits(o.Ops)
	if len(files) == 0 || slices.Contains(files, "-") {
		q.unknown("it reads the patch from standard input, which lucid does not see")
		return nil
	}
	dir := q.op.Dir
	if am {
		// git am applies from the top, wherever it runs.
		dir = q.repo.Top
		for i, f := range files {
			files[i] = filepath.Join(q.op.Dir, f)
			if realpath.Stat(files[i]) == realpath.Dir {
				q.unknown("it reads a Maildir, which lucid does not")
				return nil
			}
		}
	}
	args := []string{"apply", "--numstat", "-z"}
	reverse := false
	for _, f := range o.Flags {
		switch f.Name {
		case "p", "directory", "include", "exclude", "recount", "unidiff-zero", "inaccurate-eof":
			args = append(args, flagArg(f)...)
		case "R", "reverse":
			reverse = true
		}
	}
	// --numstat names a renamed file by its new name only: the patch
	// read the other way names the old one.
	for _, r := range []bool{reverse, !reverse} {
		run := args
		if r {
			run = append(slices.Clip(args), "-R")
		}
		out, err := q.git(dir, append(append(run, "--"), files...)...)
		if err != nil {
			return err
		}
		for rec := range strings.SplitSeq(string(out), "\x00") {
			// ADDED\tDELETED\tNAME
			if _, name, ok := strings.Cut(rec, "\t"); ok {
				_, name, _ = strings.Cut(name, "\t")
				q.addRel(q.repo.Top, name)
			}
		}
	}
	return nil
}

// readTree: git read-tree --reset -u writes the files that differ between
// the tree and the work tree (exact), as git reset --hard does; -m -u the
// files whose index entry differs from one of the trees (a union, for a
// merge of two or three), and it refuses to overwrite local changes;
// --empty every tracked file. --prefix is Unknown.
func (q *gitQuery) readTree() error {
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

// checkoutIndex: git checkout-index -f writes the files (all with -a)
// whose copy differs from the index (git diff); without -f only the
// missing ones. --prefix and --stdin are Unknown.
func (q *gitQuery) checkoutIndex() error {
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

// worktreeRemove: git worktree remove --force deletes a linked work tree
// with what it holds: Paths is its folder. Its uncommitted changes under
// .lucid/ are lost with it.
func (q *gitQuery) worktreeRemove() error {
	ops := lits(q.o.Ops)
	if len(ops) < 2 {
		return nil
	}
	out, err := q.git(q.op.Dir, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return err
	}
	wt, ok := pickWorktree(out, filepath.Join(q.op.Dir, ops[1]), ops[1])
	if !ok {
		return nil // no such work tree: the command fails
	}
	q.paths = append(q.paths, wt)
	entries, err := q.status(wt, wt, false, []string{":(top).lucid"})
	if err != nil {
		return err
	}
	var lost []string
	for _, e := range entries {
		lost = append(lost, e.path)
	}
	q.lose(lost, "git worktree remove --force deletes them with the work tree", func() string { return q.commitFirst(wt) })
	return nil
}

// pickWorktree is the work tree of git worktree list --porcelain -z that
// git worktree remove takes for its argument arg (path, when resolved):
// the one at path, or else the only one whose path ends in arg.
func pickWorktree(list []byte, path, arg string) (string, bool) {
	var ends []string
	for field := range strings.SplitSeq(string(list), "\x00") {
		wt, ok := strings.CutPrefix(field, "worktree ")
		switch {
		case !ok:
		case sameFile(wt, path):
			return wt, true
		case !filepath.IsAbs(arg) && strings.HasSuffix(wt, "/"+strings.Trim(arg, "/")):
			ends = append(ends, wt)
		}
	}
	if len(ends) != 1 {
		return "", false
	}
	return ends[0], true
}

// sameFile reports whether a and b name the same folder.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// unknown records why git cannot tell what the command changes (the
// first reason found).
func (q *gitQuery) unknown(why string) {
	if q.c.Unknown == "" {
		q.c.Unknown = fmt.Sprintf("lucid cannot know beforehand which files `%s` changes: %s.", q.op.String(), why)
	}
}

// git runs git with args in dir, with no pager, no optional lock (git
// status would otherwise refresh the index, racing the command it checks),
// no hook and no fsmonitor program (none of the commands asked runs a
// hook, and this keeps it so), and unquoted paths.
func (q *gitQuery) git(dir string, args ...string) ([]byte, error) {
	full := append([]string{"--no-pager", "--no-optional-locks", "-c", "core.hooksPath=/dev/null",
		"-c", "core.fsmonitor=false", "-c", "core.quotePath=false"}, args...)
	return gitstore.RunGit(q.ctx, dir, nil, full...)
}

// list runs git in dir and adds the NUL-separated paths it prints,
// relative to base.
func (q *gitQuery) list(dir, base string, args ...string) error {
	out, err := q.git(dir, args...)
	if err != nil {
		return err
	}
	for name := range strings.SplitSeq(string(out), "\x00") {
		if name = strings.Trim(name, "\n"); name != "" {
			q.addRel(base, name)
		}
	}
	return nil
}

// diff adds the files git diff --name-only lists between revs (one: and
// the work tree; none: the index and the work tree) under pathspecs (none:
// all), with options, run where the command runs.
func (q *gitQuery) diff(revs, pathspecs []string, options ...string) error {
	args := append([]string{"diff", "--name-only", "-z", "--no-renames", "--no-relative", "--no-ext-diff"}, options...)
	args = append(append(append(args, "--end-of-options"), revs...), "--")
	return q.list(q.op.Dir, q.repo.Top, append(args, pathspecs...)...)
}

func (q *gitQuery) addRel(base string, names ...string) {
	for _, n := range names {
		q.paths = append(q.paths, filepath.Join(base, n))
	}
}

// statusEntry is one line of git status --porcelain: its two status
// letters ("??" untracked, "!!" ignored) and its absolute path.
type statusEntry struct {
	xy   string
	path string
}

// status lists the files with changes under pathspecs, run in dir of the
// work tree top: each untracked file, and with ignored the ignored ones (a
// folder whole).
func (q *gitQuery) status(dir, top string, ignored bool, pathspecs []string) ([]statusEntry, error) {
	args := []string{"status", "--porcelain", "-z", "--no-renames", "--untracked-files=all", "--ignore-submodules=all"}
	if ignored {
		args = append(args, "--ignored=matching")
	}
	out, err := q.git(dir, append(append(args, "--"), pathspecs...)...)
	if err != nil {
		return nil, err
	}
	var entries []statusEntry
	for rec := range strings.SplitSeq(string(out), "\x00") {
		if len(rec) > 3 {
			entries = append(entries, statusEntry{xy: rec[:2], path: filepath.Join(top, rec[3:])})
		}
	}
	return entries, nil
}

// gitFile is the first line of a file in the git dir, "" when it is
// missing.
func (q *gitQuery) gitFile(name string) string {
	data, err := os.ReadFile(filepath.Join(q.repo.GitDir, name))
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return strings.TrimSpace(string(line))
}

// underLucid reports whether path is .lucid/ or under it.
func (q *gitQuery) underLucid(path string) bool {
	lucid := filepath.Join(q.repo.Top, gitstore.LucidDirName)
	return path == lucid || strings.HasPrefix(path, lucid+"/")
}

// underLucidOf is the paths that are .lucid/ or under it.
func (q *gitQuery) underLucidOf(paths []string) []string {
	var in []string
	for _, p := range paths {
		if q.underLucid(p) {
			in = append(in, p)
		}
	}
	return in
}

// localLucid is the files under .lucid/ with changes that are not
// committed (tracked ones changed, untracked ones), asked of git once.
func (q *gitQuery) localLucid() ([]string, error) {
	if q.localAsked {
		return q.local, nil
	}
	q.localAsked = true
	entries, err := q.status(q.op.Dir, q.repo.Top, false, []string{":(top)" + gitstore.LucidDirName})
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		q.local = append(q.local, e.path)
	}
	return q.local, nil
}

// loseIfLocal records a LogLoss when some of changed, the files a command
// overwrites with a committed copy, lie under .lucid/ and hold changes that
// are not committed. Only then is git asked which do.
func (q *gitQuery) loseIfLocal(changed []string, why string, safe func() string) error {
	in := q.underLucidOf(changed)
	if len(in) == 0 {
		return nil
	}
	local, err := q.localLucid()
	if err != nil {
		return err
	}
	var lost []string
	for _, l := range local {
		if slices.ContainsFunc(in, func(c string) bool { return c == l || strings.HasPrefix(l, c+"/") }) {
			lost = append(lost, l)
		}
	}
	q.lose(lost, why, safe)
	return nil
}

// lose records that the command discards the uncommitted changes of
// files (absolute), why, and safe, the command to run instead (made only
// then: it may ask git).
func (q *gitQuery) lose(files []string, why string, safe func() string) {
	if len(files) == 0 || q.c.LogLoss != "" {
		return
	}
	names := make([]string, 0, len(files))
	for _, f := range files {
		rel, err := filepath.Rel(q.repo.Top, f)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = f
		}
		if realpath.Stat(f) == realpath.Dir {
			rel += "/"
		}
		names = append(names, rel)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	q.c.LogLoss = fmt.Sprintf("`%s` would discard the changes to %s that are not committed: %s. Run instead: `%s`.",
		q.op.String(), strings.Join(names, ", "), why, safe())
}

// here is git with args, run in the folder the command runs in: the
// agent's shell may be elsewhere (git -C), and pathspecs are relative to
// it.
func (q *gitQuery) here(args []string) string {
	return shellword.Join(append([]string{"git", "-C", q.op.Dir}, args...))
}

// keepLog is the safe form of a command that puts back committed copies:
// commit .lucid/ first (commitFirst). In the middle of a merge, rebase or
// cherry-pick, where git refuses to commit some paths alone or the commit
// would be undone, it saves the log's new lines and appends them again
// after the command.
func (q *gitQuery) keepLog() string {
	busy := false
	for _, name := range []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"} {
		if _, err := os.Stat(filepath.Join(q.repo.GitDir, name)); err == nil {
			busy = true
		}
	}
	if !busy {
		return q.commitFirst(q.repo.Top)
	}
	saved := shellword.Quote(filepath.Join(q.repo.GitDir, "lucid-log-lines"))
	// Log lines are JSON objects: the lines added are those of "+{".
	return "git -C " + shellword.Quote(q.repo.Top) + " diff --no-ext-diff --no-color -U0 HEAD -- .lucid/log.jsonl | sed -n 's/^+{/{/p' > " + saved +
		" && " + q.here(q.op.Args) +
		" && cat " + saved + " >> " + shellword.Quote(filepath.Join(q.repo.Top, gitstore.LogName))
}

// commitFirst commits the changes under .lucid/ of work tree top, then
// runs the command: what is committed, it does not discard. A revision
// relative to HEAD (HEAD~1) is given as the commit it names now, since the
// commit moves HEAD.
func (q *gitQuery) commitFirst(top string) string {
	t := shellword.Quote(top)
	return "git -C " + t + " add -- .lucid && git -C " + t + " commit -q -m 'lucid log' -- .lucid && " + q.here(q.pinned())
}

// pinned is the command's arguments with each revision relative to HEAD
// (HEAD~2, @^, --onto=HEAD~1) replaced by the commit it names now.
func (q *gitQuery) pinned() []string {
	args := slices.Clone(q.op.Args)
	var at []int
	var revs []string
	for i, a := range args {
		_, v, _ := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "-") {
			v = a
		}
		for _, head := range []string{"HEAD", "@"} {
			if rest, ok := strings.CutPrefix(v, head); ok && rest != "" && (rest[0] == '~' || rest[0] == '^') {
				at, revs = append(at, i), append(revs, v)
			}
		}
	}
	if len(revs) == 0 {
		return args
	}
	out, err := q.git(q.op.Dir, append([]string{"rev-parse", "--revs-only"}, revs...)...) // each starts with HEAD or @: no option
	commits := strings.Fields(string(out))
	if err != nil || len(commits) != len(revs) {
		return args
	}
	for j, i := range at {
		args[i] = strings.Replace(args[i], revs[j], commits[j], 1)
	}
	return args
}

// revision is the revision git reads for a command's argument: - is the
// branch checked out before.
func revision(s string) string {
	switch s {
	case "-":
		return "@{-1}"
	case "":
		return "HEAD"
	}
	return s
}

// flagArgs writes the options of o back as arguments.
func flagArgs(o cmdline.Opts) []string {
	var args []string
	for _, f := range o.Flags {
		args = append(args, flagArg(f)...)
	}
	return args
}

// flagArg writes one option back as arguments.
func flagArg(f cmdline.Flag) []string {
	switch {
	case len(f.Name) == 1 && f.Has:
		return []string{"-" + f.Name, f.Val.Text}
	case len(f.Name) == 1:
		return []string{"-" + f.Name}
	case f.Has:
		return []string{"--" + f.Name + "=" + f.Val.Text}
	}
	return []string{"--" + f.Name}
}

// strArgs are known words as the option parser takes them.
func strArgs(words []string) []cmdline.Arg {
	args := make([]cmdline.Arg, len(words))
	for i, w := range words {
		args[i] = cmdline.Arg{Text: w}
	}
	return args
}

// lits is the text of known words.
func lits(args []cmdline.Arg) []string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = a.Text
	}
	return words
}
