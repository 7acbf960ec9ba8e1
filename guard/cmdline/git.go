package cmdline

// GitSpec is the options of a git subcommand that take an argument, so
// that its operands (branches, commits, paths) are told from them. The
// shell analysis and the git predictions read a command with the same
// spec.
func GitSpec(sub string) Spec {
	switch sub {
	case "checkout":
		return Spec{Args: "bB", Long: []string{"orphan", "pathspec-from-file", "conflict"}}
	case "switch":
		return Spec{Args: "cC", Long: []string{"create", "force-create", "orphan", "conflict"}}
	case "restore":
		return Spec{Args: "s", Long: []string{"source", "pathspec-from-file", "conflict"}}
	case "rm", "reset":
		return Spec{Long: []string{"pathspec-from-file"}}
	case "clean":
		return Spec{Args: "e", Long: []string{"exclude"}}
	case "stash":
		return Spec{Args: "m", Long: []string{"message", "pathspec-from-file"}}
	case "merge":
		return Spec{Args: "msFX", Long: []string{"message", "file", "strategy", "strategy-option", "into-name", "cleanup"}}
	case "cherry-pick", "revert":
		return Spec{Args: "mX", Long: []string{"mainline", "strategy", "strategy-option", "cleanup"}}
	case "rebase":
		return Spec{Args: "sxXC", Long: []string{"onto", "strategy", "strategy-option", "exec", "whitespace", "empty"}}
	case "pull":
		return Spec{Args: "sXj", Long: []string{"strategy", "strategy-option", "jobs", "depth", "deepen", "shallow-since", "shallow-exclude", "upload-pack", "refmap", "server-option", "negotiation-tip"}}
	case "apply", "am":
		return Spec{Args: "pC", Long: []string{"directory", "include", "exclude", "whitespace", "build-fake-ancestor", "patch-format", "resolvemsg"}}
	case "read-tree":
		return Spec{Long: []string{"prefix", "index-output", "exclude-per-directory"}}
	case "checkout-index":
		return Spec{Long: []string{"prefix", "stage"}}
	}
	return Spec{}
}

// StashAction is what git stash is asked to do: "push" when no
// subcommand is named (git stash, git stash -u, git stash -- path), "" for
// a word git would refuse.
func StashAction(o Opts) string {
	if len(o.Ops) == 0 || o.Dashes == 0 {
		return "push"
	}
	s, _ := o.Ops[0].Lit()
	switch s {
	case "push", "save", "pop", "apply", "branch", "list", "show", "drop", "clear", "create", "store":
		return s
	}
	return ""
}

// CheckoutArgs is how git checkout reads its operands: switching to a
// commit (Target, "" for HEAD), or writing paths (from Source, "" for the
// index).
type CheckoutArgs struct {
	PathForm bool
	Target   Arg
	Source   Arg
	Paths    []Arg
}

// CheckoutOperands: paths after --, or after one tree-ish; without --, a
// single operand is a path only when it exists (otherwise it is a branch),
// and of several the first is a tree-ish unless it exists: exists tells
// whether an operand names a path that exists.
func CheckoutOperands(o Opts, exists func(Arg) bool) CheckoutArgs {
	switch {
	case o.Has("b", "B", "orphan", "detach") || len(o.Ops) == 0:
	case o.Dashes >= 0 && o.Dashes < len(o.Ops):
		if o.Dashes > 0 {
			return CheckoutArgs{PathForm: true, Source: o.Ops[0], Paths: o.Ops[o.Dashes:]}
		}
		return CheckoutArgs{PathForm: true, Paths: o.Ops}
	case o.Dashes < 0:
		if exists(o.Ops[0]) {
			return CheckoutArgs{PathForm: true, Paths: o.Ops}
		}
		if len(o.Ops) > 1 {
			return CheckoutArgs{PathForm: true, Source: o.Ops[0], Paths: o.Ops[1:]}
		}
	}
	if len(o.Ops) > 0 {
		return CheckoutArgs{Target: o.Ops[0]}
	}
	return CheckoutArgs{}
}
