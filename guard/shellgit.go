package guard

import "strings"

// git finds the work-tree paths that git checkout, restore, mv, rm and
// clean are told to write. What git writes on its own (switching branch,
// reset --hard, stash, merge, apply) is not known from the command line.
func (w *shellWalker) git(args []shArg, st *shState) {
	i := 0
	for ; i < len(args); i++ {
		s, ok := args[i].lit()
		if !ok {
			return
		}
		if !strings.HasPrefix(s, "-") {
			break
		}
		switch {
		case s == "-C":
			if i+1 >= len(args) {
				return
			}
			i++
			st = chdir(st, args[i])
		case s == "-c" || s == "--namespace" || s == "--config-env":
			i++
		case strings.HasPrefix(s, "--git-dir") || strings.HasPrefix(s, "--work-tree"):
			return // paths are no longer relative to the directory
		}
	}
	if i >= len(args) {
		return
	}
	sub, rest := args[i].s, args[i+1:]
	switch sub {
	case "checkout":
		w.gitCheckout(rest, st)
	case "restore":
		o := parseOpts(rest, optSpec{args: "s", long: []string{"source", "pathspec-from-file"}})
		// --staged alone restores the index, not the files.
		if o.has("S", "staged") && !o.has("W", "worktree") {
			return
		}
		w.gitPaths(st, o, o.ops, "git restore")
	case "rm":
		o := parseOpts(rest, optSpec{long: []string{"pathspec-from-file"}})
		if o.has("cached", "n", "dry-run") {
			return
		}
		w.gitPaths(st, o, o.ops, "git rm")
	case "clean":
		o := parseOpts(rest, optSpec{args: "e", long: []string{"exclude"}})
		if !o.has("f", "force") || o.has("n", "dry-run", "i", "interactive") {
			return
		}
		w.gitPaths(st, o, o.ops, "git clean")
	case "mv":
		o := parseOpts(rest, optSpec{})
		if o.has("n", "dry-run") {
			return
		}
		w.copyOps(st, o, "git mv", true)
	}
}

// gitCheckout: paths after --, or after one tree-ish; without --, a
// single operand is a path only when it exists (otherwise it is a branch),
// and of several the first is a tree-ish unless it exists.
func (w *shellWalker) gitCheckout(args []shArg, st *shState) {
	o := parseOpts(args, optSpec{args: "bB", long: []string{"orphan", "pathspec-from-file"}})
	if o.has("b", "B", "orphan", "help") {
		return
	}
	paths := o.ops
	switch {
	case o.dashes >= 0:
		paths = o.ops[o.dashes:]
	case len(o.ops) == 0:
		return
	default:
		p, ok := st.resolve(o.ops[0])
		exists := ok && w.kind(p) != kindNone
		if !exists {
			if len(o.ops) == 1 {
				return // a branch
			}
			paths = o.ops[1:]
		}
	}
	w.gitPaths(st, o, paths, "git checkout")
}

// gitPaths records pathspecs that name a path: not a glob (git expands
// those itself, even quoted) and no :(magic).
func (w *shellWalker) gitPaths(st *shState, o opts, paths []shArg, by string) {
	if _, ok := o.get("pathspec-from-file"); ok {
		return
	}
	for _, a := range paths {
		s, ok := a.lit()
		if !ok || strings.ContainsAny(s, "*?[") || strings.HasPrefix(s, ":") {
			continue
		}
		w.write(st, a, by)
	}
}
