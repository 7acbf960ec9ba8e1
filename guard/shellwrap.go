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
			w.write(st, f, "time -o")
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
		inner = xargsCommand(o, inner)
	}
	if len(inner) == 0 {
		return
	}
	if s, ok := inner[0].lit(); ok && shellCommand(commandName(s)) {
		w.run(inner, redirs, st)
	}
}

// chdir is st moved to d, for a command run by env -C or sudo -D.
func chdir(st *shState, d shArg) *shState {
	st = st.clone()
	p, ok := st.resolve(d)
	if !ok {
		p = ""
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
// are unknown; otherwise unknown words are appended at the end.
func xargsCommand(o opts, inner []shArg) []shArg {
	repl, ok := o.get("I", "i", "replace")
	if !ok && o.has("i", "replace") {
		repl, ok = shArg{s: "{}"}, true
	}
	if len(inner) == 0 {
		return nil
	}
	out := make([]shArg, len(inner), len(inner)+1)
	copy(out, inner)
	if ok && repl.s != "" {
		for i := range out {
			if strings.Contains(out[i].s, repl.s) {
				out[i].s = strings.ReplaceAll(out[i].s, repl.s, shUnknown)
			}
		}
		return out
	}
	return append(out, shArg{s: shUnknown, multi: true, pos: inner[len(inner)-1].pos})
}

// find runs the commands of its -exec and -ok actions with {} unknown, and
// writes the files of -fprint and its kin; -execdir runs elsewhere.
func (w *shellWalker) find(args []shArg, st *shState) {
	for i := 0; i < len(args); i++ {
		s, ok := args[i].lit()
		if !ok {
			continue
		}
		switch s {
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				w.write(st, args[i+1], "find "+s)
				i++
			}
		case "-exec", "-ok", "-execdir", "-okdir":
			j := i + 1
			for j < len(args) && !args[j].is(";") && !args[j].is("+") {
				j++
			}
			cmd := make([]shArg, j-i-1)
			copy(cmd, args[i+1:j])
			for k := range cmd {
				cmd[k].s = strings.ReplaceAll(cmd[k].s, "{}", shUnknown)
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
