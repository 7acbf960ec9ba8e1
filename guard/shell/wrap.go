package shell

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"mvdan.cc/sh/v3/syntax"
)

// wrapper passes through sudo, env, timeout, xargs and the like to the
// command they run.
func (w *walker) wrapper(name string, args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	u := cmdline.Unwrap(name, args)
	if name != "command" && name != "builtin" {
		st = st.clone() // a cd run by timeout or sudo is a program: it moves nothing
	}
	switch name {
	case "sudo":
		if d, ok := u.Opts.Get("D", "chdir"); ok {
			st = chdir(st, d)
		}
	case "env":
		if d, ok := u.Opts.Get("C", "chdir"); ok {
			st = chdir(st, d)
		}
	case "time":
		if f, ok := u.Opts.Get("o", "output"); ok {
			w.open(st, f, "time -o")
		}
	case "npx":
		if c, ok := u.Opts.Get("c", "call"); ok {
			w.script(c.Text, st, c.Pos) // npx -c 'prettier --write .'
			return
		}
	case "xargs":
		for _, cmd := range w.xargsRuns(u.Opts, u.Inner, redirs, st) {
			w.runKnown(cmd, redirs, st)
		}
		return
	}
	w.runKnown(u.Inner, redirs, st)
}

// runKnown runs the command args when run knows it.
func (w *walker) runKnown(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	if len(args) == 0 {
		return
	}
	if s, ok := args[0].Lit(); ok && shellCommand(cmdline.CommandName(s)) {
		w.run(args, redirs, st)
	}
}

// chdir is st moved to d, for a command run by env -C, sudo -D or
// git -C: they change directory as the kernel resolves d.
func chdir(st *shState, d cmdline.Arg) *shState {
	st = st.clone()
	p, ok := st.path(d)
	if ok {
		p, _ = realpath.Resolve(st.fs, "/", p, true)
	}
	st.dir = p
	return st
}

// find writes what its -delete removes and the files of -fprint and its
// kin, and runs the commands of its -exec and -ok actions. Which files it
// finds is not known, but where they lie is (see findFiles): -delete
// writes those, and each {} of an action stands for them.
func (w *walker) find(args []cmdline.Arg, st *shState) {
	starts, name, expr := findFiles(args, st)
	for i := expr; i < len(args); i++ {
		s, ok := args[i].Lit()
		if !ok {
			continue
		}
		switch s {
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				w.open(st, args[i+1], "find "+s)
				i++
			}
		case "-delete":
			// Depth first, and a folder only once it is empty: what it
			// removes is what the tests match, not what lies under it.
			for _, a := range cmdline.Placed(foundArgs(starts, name, false), args[i].Pos) {
				w.write(st, a, "find -delete")
			}
		case "-exec", "-ok", "-execdir", "-okdir":
			j := cmdline.ExecEnd(args, i)
			cmd := make([]cmdline.Arg, 0, j-i-1)
			for _, a := range args[i+1 : j] {
				if a.Is("{}") {
					cmd = append(cmd, cmdline.Placed(foundArgs(starts, name, true), a.Pos)...)
					if len(starts) == 0 {
						cmd = append(cmd, cmdline.Arg{Text: cmdline.Unknown, Pos: a.Pos})
					}
					continue
				}
				a.Text = strings.ReplaceAll(a.Text, "{}", cmdline.Unknown)
				cmd = append(cmd, a)
			}
			sub := st.clone()
			if s == "-execdir" || s == "-okdir" {
				sub.dir = ""
			}
			if len(cmd) > 0 {
				if name, ok := cmd[0].Lit(); ok && shellCommand(cmdline.CommandName(name)) {
					w.run(cmd, nil, sub)
				}
			}
			i = j
		}
	}
}

// findFiles reads find's starting points (the operands before its
// expression, "." when there are none), resolved, and the base-name glob
// that every file it finds matches: its -name, when the expression is
// tests and actions joined by and alone; "" when any name may be found.
// expr is the index of the expression's first word. A starting point that
// cannot be resolved is left out.
func findFiles(args []cmdline.Arg, st *shState) (starts []cmdline.Arg, name string, expr int) {
	first, expr := cmdline.FindOperands(args)
	known := true
	for _, a := range args[first:expr] {
		if p, ok := st.path(a); ok {
			starts = append(starts, cmdline.Arg{Text: p, Pos: a.Pos})
		} else {
			known = false
		}
	}
	if len(starts) == 0 && known {
		if p, ok := st.path(cmdline.Arg{Text: "."}); ok {
			starts = append(starts, cmdline.Arg{Text: p})
		}
	}
	anyName := false
	for j := expr; j < len(args); j++ {
		s, ok := args[j].Lit()
		switch {
		case !ok:
		case s == "-name" && j+1 < len(args):
			if n, ok := args[j+1].Lit(); ok && name == "" && !strings.Contains(n, "/") {
				name = n
			} else if !ok {
				anyName = true
			}
			j++
		case s == "-exec" || s == "-ok" || s == "-execdir" || s == "-okdir":
			j = cmdline.ExecEnd(args, j) - 1
		case s == "-o" || s == "-or" || s == "!" || s == "-not" || s == "(" || s == ")" || s == ",",
			s == "-iname" || s == "-path" || s == "-ipath" || s == "-wholename" || s == "-iwholename",
			s == "-regex" || s == "-iregex" || s == "-lname" || s == "-ilname":
			anyName = true // a name test this glob cannot follow, or tests joined otherwise than by and
		}
	}
	if anyName {
		name = ""
	}
	return starts, name, expr
}

// foundArgs is what find finds under each starting point, as arguments
// for write: the paths whose base name matches the -name glob name (any,
// when ""), and with subtree everything under them too, as rm -r of one
// of them removes.
func foundArgs(starts []cmdline.Arg, name string, subtree bool) []cmdline.Arg {
	glob := "**"
	if name != "" {
		glob += "/" + strings.NewReplacer("{", `\{`, "}", `\}`).Replace(name) // braces are literal to find
		if subtree {
			glob += "/**"
		}
	}
	out := make([]cmdline.Arg, len(starts))
	for i, s := range starts {
		out[i] = cmdline.Arg{Text: s.Text, Under: glob, Pos: s.Pos}
	}
	return out
}

// shell walks bash -c SCRIPT, and a shell that reads its script from a
// heredoc. A script file is not read.
func (w *walker) shell(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	script, stdin := cmdline.ShellScript(args)
	switch {
	case script != nil:
		w.script(script.Text, st, script.Pos)
	case stdin:
		// A heredoc, or what echo or printf piped to it; a script file
		// is not read.
		if in := w.stdinOf(redirs, st, false); in.known && in.found == nil {
			pos := redirPos(redirs)
			if cmdline.StdinRedir(redirs) == nil {
				pos = w.piped.Pos().Offset()
			}
			w.script(in.text, st, pos)
		}
	}
}

// redirPos is where the heredoc of a command starts, for ordering.
func redirPos(redirs []*syntax.Redirect) uint {
	for _, r := range redirs {
		if r.Hdoc != nil && len(r.Hdoc.Parts) > 0 {
			return r.Hdoc.Pos().Offset()
		}
		if r.Op == syntax.WordHdoc && r.Word != nil && len(r.Word.Parts) > 0 {
			return r.Word.Pos().Offset()
		}
	}
	return 0
}
