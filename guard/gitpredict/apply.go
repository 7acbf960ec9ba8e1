package gitpredict

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/guard/realpath"
)

// apply: git apply and git am change the files their patches name (git
// apply --numstat with the same -p, --directory, --include and --exclude,
// read both ways to get both names of a rename; git apply in a folder
// leaves out the files outside it, as the command does). The source of a
// copy is named too, though it is left alone. A patch read from standard
// input, a Maildir, and git am going on with a series it stopped in are
// Unknown.
func (q *query) apply() error {
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
