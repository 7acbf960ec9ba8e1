package gitpredict

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// Op is one git command whose writes git decides: its subcommand and
// arguments as the shell passes them, and the directory it runs in.
type Op struct {
	Dir  string   // absolute; "" when the shell's directory is not known
	Args []string // from the subcommand on, global options (-C, -c) applied
	// Known is false when an argument is not known before the command runs
	// (a variable, a $( )): what it changes cannot be asked of git.
	Known bool
}

// Changes is what a git command would do to the files of a work tree,
// as git tells before the command runs.
type Changes struct {
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
// Each git subcommand has its own rule, given on the method that reads it,
// in the file named after the subcommand (stash, checkout, restore,
// merge, cherry-pick, rebase, pull, reset, clean, apply, read-tree,
// checkout-index, worktree). Renames count as a deletion and a creation:
// both names are in Paths.
func (op Op) Changes() (Changes, error) {
	if len(op.Args) == 0 {
		return Changes{}, errors.New("an Op without a git subcommand")
	}
	if op.Dir == "" {
		return Changes{Unknown: fmt.Sprintf("The folder `%s` runs in is not known (a cd to a variable, or --git-dir): lucid cannot ask git what it changes.", op.String())}, nil
	}
	if realpath.Stat(op.Dir) != realpath.Dir {
		return Changes{Unknown: fmt.Sprintf("The folder `%s` runs in, %s, does not exist yet: lucid cannot ask git what it changes.", op.String(), op.Dir)}, nil
	}
	repo, err := gitstore.Find(op.Dir)
	if err != nil {
		return Changes{}, err
	}
	c := Changes{Top: repo.Top}
	if !op.Known {
		c.Unknown = fmt.Sprintf("An argument of `%s` is known only when it runs (a variable or a $( )): lucid cannot ask git beforehand what it changes.", op.String())
		return c, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	q := &query{ctx: ctx, op: op, repo: repo, c: &c,
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
func (op Op) String() string {
	return shellword.Join(append([]string{"git"}, op.Args...))
}

// query is one Changes at work.
type query struct {
	ctx   context.Context
	op    Op
	o     cmdline.Opts // op's options and operands after the subcommand
	repo  *gitstore.Repo
	c     *Changes
	paths []string // absolute, found so far
	// local is the files under .lucid/ with changes that are not
	// committed, once asked (localLucid).
	local      []string
	localAsked bool
}

// ask sends the subcommand to its rule.
func (q *query) ask() error {
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
