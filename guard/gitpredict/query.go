package gitpredict

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/cmdline"
)

// unknown records why git cannot tell what the command changes (the
// first reason found).
func (q *query) unknown(why string) {
	if q.c.Unknown == "" {
		q.c.Unknown = fmt.Sprintf("lucid cannot know beforehand which files `%s` changes: %s.", q.op.String(), why)
	}
}

// git runs git with args in dir, with no pager, no optional lock (git
// status would otherwise refresh the index, racing the command it checks),
// no hook and no fsmonitor program (none of the commands asked runs a
// hook, and this keeps it so), and unquoted paths.
func (q *query) git(dir string, args ...string) ([]byte, error) {
	full := append([]string{"--no-pager", "--no-optional-locks", "-c", "core.hooksPath=/dev/null",
		"-c", "core.fsmonitor=false", "-c", "core.quotePath=false"}, args...)
	return gitstore.RunGit(q.ctx, dir, nil, full...)
}

// list runs git in dir and adds the NUL-separated paths it prints,
// relative to base.
func (q *query) list(dir, base string, args ...string) error {
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
func (q *query) diff(revs, pathspecs []string, options ...string) error {
	args := append([]string{"diff", "--name-only", "-z", "--no-renames", "--no-relative", "--no-ext-diff"}, options...)
	args = append(append(append(args, "--end-of-options"), revs...), "--")
	return q.list(q.op.Dir, q.repo.Top, append(args, pathspecs...)...)
}

// diffTo adds the files that differ between commit and the work tree: what
// git reset --hard and git checkout -f would write.
func (q *query) diffTo(commit string) error {
	return q.diff([]string{commit}, nil)
}

func (q *query) addRel(base string, names ...string) {
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
func (q *query) status(dir, top string, ignored bool, pathspecs []string) ([]statusEntry, error) {
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
func (q *query) gitFile(name string) string {
	data, err := os.ReadFile(filepath.Join(q.repo.GitDir, name))
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return strings.TrimSpace(string(line))
}

// isCommit reports whether name resolves to a commit here.
func (q *query) isCommit(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	_, err := q.git(q.op.Dir, "rev-parse", "--verify", "--quiet", name+"^{commit}")
	return err == nil
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

// resetMerge is git reset --merge to commit, which git merge --abort and
// git cherry-pick --abort run: it writes the files whose index entry
// differs from the commit (git diff --cached), and keeps the changes not
// added to the index, or refuses. A file with both is taken as written.
func (q *query) resetMerge(commit string) error {
	if err := q.diff([]string{commit}, nil, "--cached"); err != nil {
		return err
	}
	return q.loseIfLocal(q.paths, "it puts back the copies of "+commit, q.keepLog)
}

// autostash adds the files with changes that are not committed when the
// command stashes them before it runs and applies them after: with
// --autostash, or when a git config key it reads (rebase.autoStash,
// merge.autoStash; patterns) is true, unless --no-autostash. Without it,
// such a command refuses to run with those changes, or keeps them. An
// autostash takes the log's new lines away while the command runs, and
// applying them back fails once an agent has appended to the log
// meanwhile: a LogLoss.
func (q *query) autostash(keys ...string) error {
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

// commitFiles adds the files each of revs changes, as git cherry-pick
// walks them: the commits named, and the commits of a range.
func (q *query) commitFiles(revs []string) error {
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
func (q *query) todo(name string) error {
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
