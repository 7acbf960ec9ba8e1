package gitpredict

import (
	"path/filepath"
	"strconv"
	"strings"
)

// clean deletes what git clean --dry-run with the same options says it
// would: exact. A folder (with -d) stands for everything under it.
func (q *query) clean() error {
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
