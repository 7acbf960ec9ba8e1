package shell

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/gitpredict"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// git finds what a git command writes. The work-tree paths that git
// checkout, restore, mv, rm and clean are told to write are writes; the
// commands whose writes git decides itself (stash, a branch switch, merge,
// rebase, reset --hard, clean, apply...) are recorded as a
// gitpredict.Op, whose Changes asks git before the command runs.
func (w *walker) git(args []cmdline.Arg, st *shState) {
	var settings []cmdline.Arg // the -c options, some of which change what the command does
	i := 0
	for ; i < len(args); i++ {
		s, ok := args[i].Lit()
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
	sub, rest := args[i].Text, args[i+1:]
	o := cmdline.ParseOpts(rest, cmdline.GitSpec(sub))
	if o.Has("h", "help") {
		return
	}
	switch sub {
	case "checkout":
		co := cmdline.CheckoutOperands(o, func(a cmdline.Arg) bool {
			p, ok := st.resolve(a)
			return ok && w.kind(p) != realpath.None
		})
		if co.PathForm {
			w.gitPaths(st, o, co.Paths, "git checkout")
			// One operand without -- that names a path may name a branch
			// too, which git prefers: only git can tell.
			ambiguous := o.Dashes < 0 && len(o.Ops) == 1
			if ambiguous || w.manyFiles(st, o, co.Paths) {
				w.gitOp(st, sub, settings, rest)
			}
			return
		}
	case "restore":
		// --staged alone restores the index, not the files.
		if o.Has("S", "staged") && !o.Has("W", "worktree") {
			return
		}
		w.gitPaths(st, o, o.Ops, "git restore")
		if w.manyFiles(st, o, o.Ops) {
			w.gitOp(st, sub, settings, rest)
		}
		return
	case "rm":
		if !o.Has("cached", "n", "dry-run") {
			w.gitPaths(st, o, o.Ops, "git rm")
		}
		return
	case "clean":
		if !o.Has("f", "force") || o.Has("n", "dry-run", "i", "interactive") {
			return
		}
		w.gitPaths(st, o, o.Ops, "git clean")
	case "mv":
		if !o.Has("n", "dry-run") {
			w.copyOps(st, o, "git mv", true)
		}
		return
	}
	if changesWorkTree(sub, o) {
		w.gitOp(st, sub, settings, rest)
	}
}

// changesWorkTree reports whether git subcommand sub, with options and
// operands o, changes files of the work tree that git chooses. Those that
// only read, or only touch the index or a commit (stash list, merge
// --continue, reset --soft, apply --check), are not asked about.
func changesWorkTree(sub string, o cmdline.Opts) bool {
	switch sub {
	case "checkout":
		// Its path forms are read by the caller. A new branch at HEAD
		// (-b NEW, --orphan NEW) leaves the files as they are.
		return len(o.Ops) > 0 || o.Has("f", "force")
	case "switch":
		_, orphan := o.Get("orphan")
		return len(o.Ops) > 0 || orphan || o.Has("f", "force", "discard-changes")
	case "stash":
		switch cmdline.StashAction(o) {
		case "push", "save", "pop", "apply", "branch":
			return true
		}
	case "merge":
		return !o.Has("continue", "quit")
	case "cherry-pick", "revert":
		return !o.Has("quit")
	case "rebase":
		return !o.Has("quit", "edit-todo", "show-current-patch")
	case "am":
		return !o.Has("quit", "show-current-patch")
	case "pull", "clean":
		return true
	case "reset":
		return o.Has("hard", "merge", "keep")
	case "apply":
		return !o.Has("cached") && (o.Has("apply") || !o.Has("check", "stat", "numstat", "summary"))
	case "read-tree":
		return o.Has("u")
	case "checkout-index":
		return !o.Has("temp")
	case "worktree":
		return len(o.Ops) > 0 && o.Ops[0].Is("remove") && o.Has("f", "force")
	}
	return false
}

// gitOp records a git command whose writes git decides. The -c settings
// that change what it does become the options that do the same
// (rebase.autoStash is --autostash); the others are dropped.
func (w *walker) gitOp(st *shState, sub string, settings, args []cmdline.Arg) {
	op := gitpredict.Op{Dir: st.dir, Args: make([]string, 0, 1+len(args)), Known: true}
	op.Args = append(op.Args, sub)
	for _, a := range settings {
		s, ok := a.Lit()
		if !ok {
			op.Known = false
			continue
		}
		if flag := settingFlag(sub, s); flag != "" {
			op.Args = append(op.Args, flag)
		}
	}
	for _, a := range args {
		s, ok := a.Lit()
		if !ok {
			op.Known = false
			s = strings.ReplaceAll(a.Text, cmdline.Unknown, "…")
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

// manyFiles reports whether the pathspecs of a checkout or restore leave
// to git which files they write: a folder, a glob, :(magic), a variable,
// a list read from a file. A plain file is a write already.
func (w *walker) manyFiles(st *shState, o cmdline.Opts, paths []cmdline.Arg) bool {
	if _, ok := o.Get("pathspec-from-file"); ok {
		return true
	}
	for _, a := range paths {
		s, ok := a.Lit()
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
func (w *walker) gitPaths(st *shState, o cmdline.Opts, paths []cmdline.Arg, by string) {
	if _, ok := o.Get("pathspec-from-file"); ok {
		return
	}
	for _, a := range paths {
		s, ok := a.Lit()
		if !ok || strings.ContainsAny(s, "*?[") || strings.HasPrefix(s, ":") {
			continue
		}
		w.write(st, a, by)
	}
}
