package gitpredict

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// excludeLucid is the pathspec that leaves .lucid/ out, from any folder of
// the work tree.
const excludeLucid = ":(top,exclude).lucid"

// underLucid reports whether path is .lucid/ or under it.
func (q *query) underLucid(path string) bool {
	_, ok := gitstore.Inside(filepath.Join(q.repo.Top, gitstore.LucidDirName), path)
	return ok
}

// underLucidOf is the paths that are .lucid/ or under it.
func (q *query) underLucidOf(paths []string) []string {
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
func (q *query) localLucid() ([]string, error) {
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
func (q *query) loseIfLocal(changed []string, why string, safe func() string) error {
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
func (q *query) lose(files []string, why string, safe func() string) {
	if len(files) == 0 || q.c.LogLoss != "" {
		return
	}
	names := make([]string, 0, len(files))
	for _, f := range files {
		rel, ok := gitstore.Inside(q.repo.Top, f)
		if !ok {
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
func (q *query) here(args []string) string {
	return shellword.Join(append([]string{"git", "-C", q.op.Dir}, args...))
}

// keepLog is the safe form of a command that puts back committed copies:
// commit .lucid/ first (commitFirst). In the middle of a merge, rebase or
// cherry-pick, where git refuses to commit some paths alone or the commit
// would be undone, it saves the log's new lines and appends them again
// after the command.
func (q *query) keepLog() string {
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
func (q *query) commitFirst(top string) string {
	t := shellword.Quote(top)
	return "git -C " + t + " add -- .lucid && git -C " + t + " commit -q -m 'lucid log' -- .lucid && " + q.here(q.pinned())
}

// pinned is the command's arguments with each revision relative to HEAD
// (HEAD~2, @^, --onto=HEAD~1) replaced by the commit it names now.
func (q *query) pinned() []string {
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
