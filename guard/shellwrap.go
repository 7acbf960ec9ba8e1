package guard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapperSpec is the options of a command that runs another command
// named among its arguments.
func wrapperSpec(name string) optSpec {
	switch name {
	case "sudo":
		return optSpec{args: "ugpCDhrtTUR", stop: true, long: []string{"user", "group", "prompt",
			"close-from", "chdir", "host", "role", "type", "command-timeout", "other-user", "chroot"}}
	case "doas":
		return optSpec{args: "uC", stop: true}
	case "env":
		return optSpec{args: "uCS", stop: true, long: []string{"unset", "chdir", "split-string"}}
	case "exec":
		return optSpec{args: "a", stop: true}
	case "time":
		return optSpec{args: "fo", stop: true, long: []string{"format", "output"}}
	case "timeout":
		return optSpec{args: "sk", stop: true, long: []string{"signal", "kill-after"}}
	case "nice":
		return optSpec{args: "n", stop: true, long: []string{"adjustment"}}
	case "ionice":
		return optSpec{args: "cnpPu", stop: true, long: []string{"class", "classdata", "pid", "pgid", "uid"}}
	case "stdbuf":
		return optSpec{args: "ioe", stop: true, long: []string{"input", "output", "error"}}
	case "xargs":
		return optSpec{args: "aEdILnPs", optional: "eil", stop: true, long: []string{"arg-file",
			"delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}}
	case "npx":
		return optSpec{args: "p", stop: true, long: []string{"package"}}
	}
	return optSpec{stop: true} // command, builtin, nohup, chronic
}

// wrapper passes through sudo, env, timeout, xargs and the like to the
// command they run.
func (w *shellWalker) wrapper(name string, args []shArg, redirs []*syntax.Redirect, st *shState) {
	o := parseOpts(args, wrapperSpec(name))
	if o.informational() {
		return
	}
	inner := o.ops
	if name != "command" && name != "builtin" {
		st = st.clone() // a cd run by timeout or sudo is a program: it moves nothing
	}
	switch name {
	case "sudo":
		if o.has("e", "edit") {
			return
		}
		if d, ok := o.get("D", "chdir"); ok {
			st = chdir(st, d)
		}
	case "env":
		if _, ok := o.get("S", "split-string"); ok {
			return
		}
		if d, ok := o.get("C", "chdir"); ok {
			st = chdir(st, d)
		}
		for len(inner) > 0 && isAssignment(inner[0]) {
			inner = inner[1:]
		}
	case "command":
		if o.has("v", "V") {
			return
		}
	case "time":
		if f, ok := o.get("o", "output"); ok {
			w.open(st, f, "time -o")
		}
	case "timeout":
		if len(inner) == 0 {
			return
		}
		inner = inner[1:] // the duration
	case "npx":
		if len(inner) > 0 {
			inner[0].s = npxName(inner[0].s)
		}
	case "xargs":
		inner = xargsCommand(o, inner, w.piped)
	}
	if len(inner) == 0 {
		return
	}
	if s, ok := inner[0].lit(); ok && shellCommand(commandName(s)) {
		w.run(inner, redirs, st)
	}
}

// chdir is st moved to d, for a command run by env -C, sudo -D or
// git -C: they change directory as the kernel resolves d.
func chdir(st *shState, d shArg) *shState {
	st = st.clone()
	p, ok := st.path(d)
	if ok {
		p, _ = realPath(st.fs, "/", p, true)
	}
	st.dir = p
	return st
}

// isAssignment reports whether an env operand is NAME=VALUE.
func isAssignment(a shArg) bool {
	name, _, ok := strings.Cut(a.s, "=")
	return ok && name != "" && !strings.ContainsAny(name, "/"+shUnknown)
}

// npxName is the command an npx package runs: @scope/pkg@1.2 runs pkg.
func npxName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s[min(1, len(s)):], '@'); i >= 0 {
		s = s[:i+1]
	}
	return s
}

// xargsCommand is the command xargs runs: with -I R, the words holding R
// are unknown; otherwise unknown words are appended at the end. When xargs
// reads what find printed (piped), those words are find's files instead.
func xargsCommand(o opts, inner, piped []shArg) []shArg {
	repl, ok := o.get("I", "i", "replace")
	if !ok && o.has("i", "replace") {
		repl, ok = shArg{s: "{}"}, true
	}
	if len(inner) == 0 {
		return nil
	}
	if ok && repl.s != "" {
		out := make([]shArg, 0, len(inner))
		for _, a := range inner {
			switch {
			case piped != nil && a.is(repl.s):
				out = append(out, placed(piped, a.pos)...)
			case strings.Contains(a.s, repl.s):
				a.s = strings.ReplaceAll(a.s, repl.s, shUnknown)
				out = append(out, a)
			default:
				out = append(out, a)
			}
		}
		return out
	}
	out := make([]shArg, len(inner), len(inner)+max(1, len(piped)))
	copy(out, inner)
	if piped != nil {
		return append(out, placed(piped, inner[len(inner)-1].pos)...)
	}
	return append(out, shArg{s: shUnknown, multi: true, pos: inner[len(inner)-1].pos})
}

// placed is args placed at the source offset pos.
func placed(args []shArg, pos uint) []shArg {
	out := make([]shArg, len(args))
	for i, a := range args {
		a.pos = pos
		out[i] = a
	}
	return out
}

// find writes what its -delete removes and the files of -fprint and its
// kin, and runs the commands of its -exec and -ok actions. Which files it
// finds is not known, but where they lie is (see findFiles): -delete
// writes those, and each {} of an action stands for them.
func (w *shellWalker) find(args []shArg, st *shState) {
	starts, name, expr := findFiles(args, st)
	for i := expr; i < len(args); i++ {
		s, ok := args[i].lit()
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
			for _, a := range placed(foundArgs(starts, name, false), args[i].pos) {
				w.write(st, a, "find -delete")
			}
		case "-exec", "-ok", "-execdir", "-okdir":
			j := i + 1
			for j < len(args) && !args[j].is(";") && !args[j].is("+") {
				j++
			}
			cmd := make([]shArg, 0, j-i-1)
			for _, a := range args[i+1 : j] {
				if a.is("{}") {
					cmd = append(cmd, placed(foundArgs(starts, name, true), a.pos)...)
					if len(starts) == 0 {
						cmd = append(cmd, shArg{s: shUnknown, pos: a.pos})
					}
					continue
				}
				a.s = strings.ReplaceAll(a.s, "{}", shUnknown)
				cmd = append(cmd, a)
			}
			sub := st.clone()
			if s == "-execdir" || s == "-okdir" {
				sub.dir = ""
			}
			if len(cmd) > 0 {
				if name, ok := cmd[0].lit(); ok && shellCommand(commandName(name)) {
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
func findFiles(args []shArg, st *shState) (starts []shArg, name string, expr int) {
	i := 0
	for i < len(args) {
		s, _ := args[i].lit()
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			i++
		} else if s == "-D" {
			i += 2
		} else {
			break
		}
	}
	known := true
	for ; i < len(args); i++ {
		s, ok := args[i].lit()
		if ok && (strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == ")" || s == ",") {
			break
		}
		if p, ok := st.path(args[i]); ok {
			starts = append(starts, shArg{s: p, pos: args[i].pos})
		} else {
			known = false
		}
	}
	expr = min(i, len(args))
	if len(starts) == 0 && known {
		if p, ok := st.path(shArg{s: "."}); ok {
			starts = append(starts, shArg{s: p})
		}
	}
	anyName := false
	for j := expr; j < len(args); j++ {
		s, ok := args[j].lit()
		switch {
		case !ok:
		case s == "-name" && j+1 < len(args):
			if n, ok := args[j+1].lit(); ok && name == "" && !strings.Contains(n, "/") {
				name = n
			} else if !ok {
				anyName = true
			}
			j++
		case s == "-exec" || s == "-ok" || s == "-execdir" || s == "-okdir":
			for j+1 < len(args) && !args[j+1].is(";") && !args[j+1].is("+") {
				j++
			}
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
func foundArgs(starts []shArg, name string, subtree bool) []shArg {
	glob := "**"
	if name != "" {
		glob += "/" + strings.NewReplacer("{", `\{`, "}", `\}`).Replace(name) // braces are literal to find
		if subtree {
			glob += "/**"
		}
	}
	out := make([]shArg, len(starts))
	for i, s := range starts {
		out[i] = shArg{s: s.s, under: glob, pos: s.pos}
	}
	return out
}

// shell walks bash -c SCRIPT, and a shell that reads its script from a
// heredoc. A script file is not read.
func (w *shellWalker) shell(args []shArg, redirs []*syntax.Redirect, st *shState) {
	byC, stdin := false, false
	var script *shArg
	for i := 0; i < len(args); i++ {
		a := args[i]
		s, ok := a.lit()
		if !ok || len(s) < 2 || (s[0] != '-' && s[0] != '+') || s == "--" || s == "-" {
			if s == "--" || s == "-" {
				continue
			}
			script = &args[i]
			break
		}
		if strings.HasPrefix(s, "--") {
			if s == "--rcfile" || s == "--init-file" {
				i++
			}
			continue
		}
		for _, c := range s[1:] {
			switch c {
			case 'c':
				byC = true
			case 's':
				stdin = true
			case 'o', 'O':
				i++ // -o pipefail
			}
		}
	}
	switch {
	case byC && script != nil:
		w.script(script.s, st, script.pos)
	case script == nil || stdin:
		if text, ok := stdinScript(redirs); ok {
			w.script(text, st, redirPos(redirs))
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
