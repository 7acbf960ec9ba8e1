package guard

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/realpath"
)

// git finds what a git command writes. The work-tree paths that git
// checkout, restore, mv, rm and clean are told to write are writes; the
// commands whose writes git decides itself (stash, a branch switch, merge,
// rebase, reset --hard, clean, apply...) are recorded as a GitOp, whose
// Changes asks git before the command runs.
func (w *shellWalker) git(args []shArg, st *shState) {
	var settings []shArg // the -c options, some of which change what the command does
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
		case s == "-c":
			if i+1 < len(args) {
				settings = append(settings, args[i+1])
			}
			i++
		case s == "--namespace" || s == "--config-env":
			i++
		case s == "--git-dir" || s == "--work-tree":
			i++
			st = &shState{fs: st.fs} // the repository is not the directory's
		case strings.HasPrefix(s, "--git-dir=") || strings.HasPrefix(s, "--work-tree="):
			st = &shState{fs: st.fs}
		}
	}
	if i >= len(args) {
		return
	}
	sub, rest := args[i].s, args[i+1:]
	o := parseOpts(rest, gitSpec(sub))
	if o.has("h", "help") {
		return
	}
	switch sub {
	case "checkout":
		co := checkoutOperands(o, st, w.kind)
		if co.pathForm {
			w.gitPaths(st, o, co.paths, "git checkout")
			// One operand without -- that names a path may name a branch
			// too, which git prefers: only git can tell.
			ambiguous := o.dashes < 0 && len(o.ops) == 1
			if ambiguous || w.manyFiles(st, o, co.paths) {
				w.gitOp(st, sub, settings, rest)
			}
			return
		}
	case "restore":
		// --staged alone restores the index, not the files.
		if o.has("S", "staged") && !o.has("W", "worktree") {
			return
		}
		w.gitPaths(st, o, o.ops, "git restore")
		if w.manyFiles(st, o, o.ops) {
			w.gitOp(st, sub, settings, rest)
		}
		return
	case "rm":
		if !o.has("cached", "n", "dry-run") {
			w.gitPaths(st, o, o.ops, "git rm")
		}
		return
	case "clean":
		if !o.has("f", "force") || o.has("n", "dry-run", "i", "interactive") {
			return
		}
		w.gitPaths(st, o, o.ops, "git clean")
	case "mv":
		if !o.has("n", "dry-run") {
			w.copyOps(st, o, "git mv", true)
		}
		return
	}
	if changesWorkTree(sub, o) {
		w.gitOp(st, sub, settings, rest)
	}
}

// gitSpec is the options of a git subcommand that take an argument, so
// that its operands (branches, commits, paths) are told from them. The
// walker and GitOp.Changes read a command with the same spec.
func gitSpec(sub string) optSpec {
	switch sub {
	case "checkout":
		return optSpec{args: "bB", long: []string{"orphan", "pathspec-from-file", "conflict"}}
	case "switch":
		return optSpec{args: "cC", long: []string{"create", "force-create", "orphan", "conflict"}}
	case "restore":
		return optSpec{args: "s", long: []string{"source", "pathspec-from-file", "conflict"}}
	case "rm", "reset":
		return optSpec{long: []string{"pathspec-from-file"}}
	case "clean":
		return optSpec{args: "e", long: []string{"exclude"}}
	case "stash":
		return optSpec{args: "m", long: []string{"message", "pathspec-from-file"}}
	case "merge":
		return optSpec{args: "msFX", long: []string{"message", "file", "strategy", "strategy-option", "into-name", "cleanup"}}
	case "cherry-pick", "revert":
		return optSpec{args: "mX", long: []string{"mainline", "strategy", "strategy-option", "cleanup"}}
	case "rebase":
		return optSpec{args: "sxXC", long: []string{"onto", "strategy", "strategy-option", "exec", "whitespace", "empty"}}
	case "pull":
		return optSpec{args: "sXj", long: []string{"strategy", "strategy-option", "jobs", "depth", "deepen", "shallow-since", "shallow-exclude", "upload-pack", "refmap", "server-option", "negotiation-tip"}}
	case "apply", "am":
		return optSpec{args: "pC", long: []string{"directory", "include", "exclude", "whitespace", "build-fake-ancestor", "patch-format", "resolvemsg"}}
	case "read-tree":
		return optSpec{long: []string{"prefix", "index-output", "exclude-per-directory"}}
	case "checkout-index":
		return optSpec{long: []string{"prefix", "stage"}}
	}
	return optSpec{}
}

// changesWorkTree reports whether git subcommand sub, with options and
// operands o, changes files of the work tree that git chooses. Those that
// only read, or only touch the index or a commit (stash list, merge
// --continue, reset --soft, apply --check), are not asked about.
func changesWorkTree(sub string, o opts) bool {
	switch sub {
	case "checkout":
		// Its path forms are read by the caller. A new branch at HEAD
		// (-b NEW, --orphan NEW) leaves the files as they are.
		return len(o.ops) > 0 || o.has("f", "force")
	case "switch":
		_, orphan := o.get("orphan")
		return len(o.ops) > 0 || orphan || o.has("f", "force", "discard-changes")
	case "stash":
		switch stashAction(o) {
		case "push", "save", "pop", "apply", "branch":
			return true
		}
	case "merge":
		return !o.has("continue", "quit")
	case "cherry-pick", "revert":
		return !o.has("quit")
	case "rebase":
		return !o.has("quit", "edit-todo", "show-current-patch")
	case "am":
		return !o.has("quit", "show-current-patch")
	case "pull", "clean":
		return true
	case "reset":
		return o.has("hard", "merge", "keep")
	case "apply":
		return !o.has("cached") && (o.has("apply") || !o.has("check", "stat", "numstat", "summary"))
	case "read-tree":
		return o.has("u")
	case "checkout-index":
		return !o.has("temp")
	case "worktree":
		return len(o.ops) > 0 && o.ops[0].is("remove") && o.has("f", "force")
	}
	return false
}

// stashAction is what git stash is asked to do: "push" when no
// subcommand is named (git stash, git stash -u, git stash -- path), "" for
// a word git would refuse.
func stashAction(o opts) string {
	if len(o.ops) == 0 || o.dashes == 0 {
		return "push"
	}
	s, _ := o.ops[0].lit()
	switch s {
	case "push", "save", "pop", "apply", "branch", "list", "show", "drop", "clear", "create", "store":
		return s
	}
	return ""
}

// gitOp records a git command whose writes git decides. The -c settings
// that change what it does become the options that do the same
// (rebase.autoStash is --autostash); the others are dropped.
func (w *shellWalker) gitOp(st *shState, sub string, settings, args []shArg) {
	op := GitOp{Dir: st.dir, Args: make([]string, 0, 1+len(args)), Known: true}
	op.Args = append(op.Args, sub)
	for _, a := range settings {
		s, ok := a.lit()
		if !ok {
			op.Known = false
			continue
		}
		if flag := settingFlag(sub, s); flag != "" {
			op.Args = append(op.Args, flag)
		}
	}
	for _, a := range args {
		s, ok := a.lit()
		if !ok {
			op.Known = false
			s = strings.ReplaceAll(a.s, shUnknown, "…")
		}
		op.Args = append(op.Args, s)
	}
	w.gitOps = append(w.gitOps, op)
}

// settingFlag is the option of subcommand sub that does what the setting
// key=value of git -c does, or "" when the setting does not change which
// files it touches.
func settingFlag(sub, setting string) string {
	key, val, hasVal := strings.Cut(setting, "=")
	key = strings.ToLower(key)
	on := !hasVal // a bare key is true
	switch strings.ToLower(val) {
	case "true", "yes", "on", "1":
		on = true
	case "merges", "interactive", "i", "m":
		on = key == "pull.rebase" // its ways of rebasing
	}
	switch {
	case key == "rebase.autostash" && (sub == "rebase" || sub == "pull"),
		key == "merge.autostash" && (sub == "merge" || sub == "pull"):
		if on {
			return "--autostash"
		}
		return "--no-autostash"
	case key == "pull.rebase" && sub == "pull":
		if on {
			return "--rebase"
		}
		return "--no-rebase"
	}
	return ""
}

// checkoutArgs is how git checkout reads its operands: switching to a
// commit (target, "" for HEAD), or writing paths (from source, "" for the
// index).
type checkoutArgs struct {
	pathForm bool
	target   shArg
	source   shArg
	paths    []shArg
}

// checkoutOperands: paths after --, or after one tree-ish; without --, a
// single operand is a path only when it exists (otherwise it is a branch),
// and of several the first is a tree-ish unless it exists.
func checkoutOperands(o opts, st *shState, kind func(string) realpath.Kind) checkoutArgs {
	switch {
	case o.has("b", "B", "orphan", "detach") || len(o.ops) == 0:
	case o.dashes >= 0 && o.dashes < len(o.ops):
		if o.dashes > 0 {
			return checkoutArgs{pathForm: true, source: o.ops[0], paths: o.ops[o.dashes:]}
		}
		return checkoutArgs{pathForm: true, paths: o.ops}
	case o.dashes < 0:
		p, ok := st.resolve(o.ops[0])
		if ok && kind(p) != realpath.None {
			return checkoutArgs{pathForm: true, paths: o.ops}
		}
		if len(o.ops) > 1 {
			return checkoutArgs{pathForm: true, source: o.ops[0], paths: o.ops[1:]}
		}
	}
	if len(o.ops) > 0 {
		return checkoutArgs{target: o.ops[0]}
	}
	return checkoutArgs{}
}

// manyFiles reports whether the pathspecs of a checkout or restore leave
// to git which files they write: a folder, a glob, :(magic), a variable,
// a list read from a file. A plain file is a write already.
func (w *shellWalker) manyFiles(st *shState, o opts, paths []shArg) bool {
	if _, ok := o.get("pathspec-from-file"); ok {
		return true
	}
	for _, a := range paths {
		s, ok := a.lit()
		if !ok || strings.ContainsAny(s, "*?[") || strings.HasPrefix(s, ":") {
			return true
		}
		if p, ok := st.resolve(a); !ok || w.kind(p) == realpath.Dir {
			return true
		}
	}
	return false
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
