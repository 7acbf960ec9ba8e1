package guard

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/realpath"
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
		return optSpec{args: "pc", stop: true, long: []string{"package", "call"}}
	}
	return optSpec{stop: true} // command, builtin, nohup, chronic
}

// isWrapper reports whether the command name runs the command named
// among its arguments, with the environment it was given (which env and
// sudo change as told).
func isWrapper(name string) bool {
	switch name {
	case "sudo", "doas", "env", "command", "builtin", "exec", "nohup", "time", "timeout",
		"nice", "ionice", "stdbuf", "chronic", "setsid", "xargs", "npx":
		return true
	}
	return false
}

// wrapped is what a wrapper runs, as unwrap reads its arguments.
type wrapped struct {
	o     opts    // the wrapper's own options
	inner []shArg // the command it runs, its name first; empty when none
	// env is the NAME=VALUE words that env and sudo put in the command's
	// environment; unset the names env -u takes out; clear is set when
	// env -i starts the command with an empty environment.
	env, unset []shArg
	clear      bool
}

// unwrap reads the arguments of the wrapper name (see isWrapper): its
// options, the environment it gives, and the command it runs.
func unwrap(name string, args []shArg) wrapped {
	if name == "env" {
		args = envSplit(args)
	}
	u := wrapped{o: parseOpts(args, wrapperSpec(name))}
	if u.o.informational() {
		return u
	}
	inner := u.o.ops
	switch name {
	case "sudo":
		if u.o.has("e", "edit") {
			return u
		}
		for len(inner) > 0 && isAssignment(inner[0]) {
			u.env, inner = append(u.env, inner[0]), inner[1:]
		}
	case "env":
		u.clear = u.o.has("i", "ignore-environment")
		if len(inner) > 0 && inner[0].is("-") { // an old spelling of -i
			u.clear, inner = true, inner[1:]
		}
		for _, f := range u.o.flags {
			if f.has && (f.name == "u" || f.name == "unset") {
				u.unset = append(u.unset, f.val)
			}
		}
		for len(inner) > 0 && isAssignment(inner[0]) {
			u.env, inner = append(u.env, inner[0]), inner[1:]
		}
	case "command":
		if u.o.has("v", "V") {
			return u
		}
	case "timeout":
		if len(inner) == 0 {
			return u
		}
		inner = inner[1:] // the duration
	case "npx":
		if len(inner) > 0 {
			inner[0].s = npxName(inner[0].s)
		}
	}
	u.inner = inner
	return u
}

// wrapper passes through sudo, env, timeout, xargs and the like to the
// command they run.
func (w *shellWalker) wrapper(name string, args []shArg, redirs []*syntax.Redirect, st *shState) {
	u := unwrap(name, args)
	if name != "command" && name != "builtin" {
		st = st.clone() // a cd run by timeout or sudo is a program: it moves nothing
	}
	switch name {
	case "sudo":
		if d, ok := u.o.get("D", "chdir"); ok {
			st = chdir(st, d)
		}
	case "env":
		if d, ok := u.o.get("C", "chdir"); ok {
			st = chdir(st, d)
		}
	case "time":
		if f, ok := u.o.get("o", "output"); ok {
			w.open(st, f, "time -o")
		}
	case "npx":
		if c, ok := u.o.get("c", "call"); ok {
			w.script(c.s, st, c.pos) // npx -c 'prettier --write .'
			return
		}
	case "xargs":
		for _, cmd := range w.xargsRuns(u.o, u.inner, redirs, st) {
			w.runKnown(cmd, redirs, st)
		}
		return
	}
	w.runKnown(u.inner, redirs, st)
}

// runKnown runs the command args when run knows it.
func (w *shellWalker) runKnown(args []shArg, redirs []*syntax.Redirect, st *shState) {
	if len(args) == 0 {
		return
	}
	if s, ok := args[0].lit(); ok && shellCommand(commandName(s)) {
		w.run(args, redirs, st)
	}
}

// envSplit replaces env's -S STRING (--split-string) with the words env
// splits STRING into, as GNU env does before it goes on reading them as
// options, assignments and the command.
func envSplit(args []shArg) []shArg {
	for range maxShellDepth { // an -S among the words of an -S
		i, end, str, flags, ok := findSplit(args)
		if !ok {
			return args
		}
		out := make([]shArg, 0, len(args)+4)
		out = append(out, args[:i]...)
		if flags != "" {
			out = append(out, shArg{s: flags, pos: args[i].pos})
		}
		out = append(out, splitString(str)...)
		args = append(out, args[end:]...)
	}
	return args
}

// findSplit finds env's -S among its options: args[i:end] are the words
// of the option and its STRING, and flags the options bundled before S
// (-iS STRING), if any.
func findSplit(args []shArg) (i, end int, str shArg, flags string, ok bool) {
	spec := wrapperSpec("env")
	for i = 0; i < len(args); i++ {
		s, lit := args[i].lit()
		if !lit || len(s) < 2 || s[0] != '-' || s == "--" {
			return 0, 0, shArg{}, "", false // the options end here
		}
		if strings.HasPrefix(s, "--") {
			name, _, hasVal := strings.Cut(s[2:], "=")
			full, takes := spec.longName(name)
			switch {
			case full == "split-string" && hasVal:
				return i, i + 1, args[i].from(len("--" + name + "=")), "", true
			case full == "split-string" && i+1 < len(args):
				return i, i + 2, args[i+1], "", true
			case takes && !hasVal:
				i++
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'S':
				flags = ""
				if j > 1 {
					flags = s[:j]
				}
				if j+1 < len(s) {
					return i, i + 1, args[i].from(j + 1), flags, true
				}
				if i+1 < len(args) {
					return i, i + 2, args[i+1], flags, true
				}
				return 0, 0, shArg{}, "", false
			case 'u', 'C':
				if j+1 == len(s) {
					i++ // the option's argument is the next word
				}
				j = len(s)
			}
		}
	}
	return 0, 0, shArg{}, "", false
}

// splitString splits the STRING of env -S as GNU env does: at blanks
// outside quotes; '...' keeps all but \\ and \'; "..." and bare text
// take the escapes \" \# \$ \' \\ \_ (a blank) \c (the end) \f \n \r \t \v;
// ${NAME} is a variable (unknown here); # starts a comment where a word
// would start. A word that is STRING's text byte for byte keeps its place
// in the source (shArg.word), for StampLucid. A STRING env rejects gives
// no words: env runs nothing.
func splitString(str shArg) []shArg {
	s := str.s
	var out []shArg
	var b strings.Builder
	start := -1 // where the current word starts in s; -1 between words
	raw := true // the word is s[start:i] as it is
	sq, dq := false, false
	end := func() {
		if start < 0 {
			return
		}
		a := shArg{s: b.String(), pos: str.pos}
		if raw && str.word != nil {
			a.word, a.at, a.part, a.split = str.word, str.at+start, true, true
		}
		out = append(out, a)
		b.Reset()
		start, raw = -1, true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		blank := strings.IndexByte(" \t\n\v\f\r", c) >= 0
		if start < 0 {
			if blank {
				continue
			}
			if c == '#' {
				return out
			}
			start = i
		}
		switch {
		case sq && c == '\'':
			sq, raw = false, false
			continue
		case sq && c == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\''):
			i++
			c, raw = s[i], false
		case sq:
		case c == '\'' && !dq:
			sq, raw = true, false
			continue
		case c == '"':
			dq, raw = !dq, false
			continue
		case blank && !dq:
			end()
			continue
		case c == '\\':
			if i+1 == len(s) {
				return nil
			}
			i++
			raw = false
			switch c = s[i]; c {
			case 'c':
				if dq {
					return nil
				}
				end()
				return out
			case '_':
				if !dq {
					end()
					continue
				}
				c = ' '
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'v':
				c = '\v'
			case '"', '#', '$', '\'', '\\':
			default:
				return nil
			}
		case c == '$':
			close := strings.IndexByte(s[i:], '}')
			if i+1 == len(s) || s[i+1] != '{' || close < 0 {
				return nil
			}
			b.WriteString(shUnknown)
			i += close
			raw = false
			continue
		}
		b.WriteByte(c)
	}
	if sq || dq {
		return nil
	}
	end()
	return out
}

// chdir is st moved to d, for a command run by env -C, sudo -D or
// git -C: they change directory as the kernel resolves d.
func chdir(st *shState, d shArg) *shState {
	st = st.clone()
	p, ok := st.path(d)
	if ok {
		p, _ = realpath.Resolve(st.fs, "/", p, true)
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

// xargsCommand is the command xargs runs when what it reads is not known:
// with -I R, the words holding R are unknown; otherwise unknown words are
// appended at the end. When xargs reads what find printed (found), those
// words are find's files instead.
func xargsCommand(o opts, inner, found []shArg) []shArg {
	if len(inner) == 0 {
		return nil
	}
	if repl, ok := xargsRepl(o); ok {
		out := make([]shArg, 0, len(inner))
		for _, a := range inner {
			switch {
			case found != nil && a.is(repl):
				out = append(out, placed(found, a.pos)...)
			case strings.Contains(a.s, repl):
				a.s = strings.ReplaceAll(a.s, repl, shUnknown)
				out = append(out, a)
			default:
				out = append(out, a)
			}
		}
		return out
	}
	out := make([]shArg, len(inner), len(inner)+max(1, len(found)))
	copy(out, inner)
	if found != nil {
		return append(out, placed(found, inner[len(inner)-1].pos)...)
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
			j := execEnd(args, i)
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

// execEnd is the index of the ; or + that ends the -exec (or -ok...) at
// args[i], or len(args).
func execEnd(args []shArg, i int) int {
	j := i + 1
	for j < len(args) && !args[j].is(";") && !args[j].is("+") {
		j++
	}
	return j
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
			j = execEnd(args, j) - 1
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

// isShell reports whether the command name is a shell that runs a
// script given with -c or on its standard input.
func isShell(name string) bool {
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh":
		return true
	}
	return false
}

// shellScript reads a shell's arguments: the word of its -c script, or
// whether it reads its script from its standard input (no script file
// named, or -s).
func shellScript(args []shArg) (script *shArg, stdin bool) {
	byC := false
	for i := 0; i < len(args); i++ {
		s, ok := args[i].lit()
		if !ok || len(s) < 2 || (s[0] != '-' && s[0] != '+') || s == "--" {
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
	case byC:
		return script, false
	case script == nil || stdin:
		return nil, true
	}
	return nil, false
}

// shell walks bash -c SCRIPT, and a shell that reads its script from a
// heredoc. A script file is not read.
func (w *shellWalker) shell(args []shArg, redirs []*syntax.Redirect, st *shState) {
	script, stdin := shellScript(args)
	switch {
	case script != nil:
		w.script(script.s, st, script.pos)
	case stdin:
		// A heredoc, or what echo or printf piped to it; a script file
		// is not read.
		if in := w.stdinOf(redirs, st, false); in.known && in.found == nil {
			pos := redirPos(redirs)
			if stdinRedir(redirs) == nil {
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
