package cmdline

import "strings"

// CommandName is the name a command is known by: the base of its path.
func CommandName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// wrapperSpec is the options of a command that runs another command
// named among its arguments.
func wrapperSpec(name string) Spec {
	switch name {
	case "sudo":
		return Spec{Args: "ugpCDhrtTUR", Stop: true, Long: []string{"user", "group", "prompt",
			"close-from", "chdir", "host", "role", "type", "command-timeout", "other-user", "chroot"}}
	case "doas":
		return Spec{Args: "uC", Stop: true}
	case "env":
		return Spec{Args: "uCS", Stop: true, Long: []string{"unset", "chdir", "split-string"}}
	case "exec":
		return Spec{Args: "a", Stop: true}
	case "time":
		return Spec{Args: "fo", Stop: true, Long: []string{"format", "output"}}
	case "timeout":
		return Spec{Args: "sk", Stop: true, Long: []string{"signal", "kill-after"}}
	case "nice":
		return Spec{Args: "n", Stop: true, Long: []string{"adjustment"}}
	case "ionice":
		return Spec{Args: "cnpPu", Stop: true, Long: []string{"class", "classdata", "pid", "pgid", "uid"}}
	case "stdbuf":
		return Spec{Args: "ioe", Stop: true, Long: []string{"input", "output", "error"}}
	case "xargs":
		return Spec{Args: "aEdILnPs", Optional: "eil", Stop: true, Long: []string{"arg-file",
			"delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}}
	case "npx":
		return Spec{Args: "pc", Stop: true, Long: []string{"package", "call"}}
	}
	return Spec{Stop: true} // command, builtin, nohup, chronic
}

// IsWrapper reports whether the command name runs the command named
// among its arguments, with the environment it was given (which env and
// sudo change as told).
func IsWrapper(name string) bool {
	switch name {
	case "sudo", "doas", "env", "command", "builtin", "exec", "nohup", "time", "timeout",
		"nice", "ionice", "stdbuf", "chronic", "setsid", "xargs", "npx":
		return true
	}
	return false
}

// Wrapped is what a wrapper runs, as Unwrap reads its arguments.
type Wrapped struct {
	Opts  Opts  // the wrapper's own options
	Inner []Arg // the command it runs, its name first; empty when none
	// Env is the NAME=VALUE words that env and sudo put in the command's
	// environment; Unset the names env -u takes out; Clear is set when
	// env -i starts the command with an empty environment.
	Env, Unset []Arg
	Clear      bool
}

// Unwrap reads the arguments of the wrapper name (see IsWrapper): its
// options, the environment it gives, and the command it runs.
func Unwrap(name string, args []Arg) Wrapped {
	if name == "env" {
		args = envSplit(args)
	}
	u := Wrapped{Opts: ParseOpts(args, wrapperSpec(name))}
	if u.Opts.Informational() {
		return u
	}
	inner := u.Opts.Ops
	switch name {
	case "sudo":
		if u.Opts.Has("e", "edit") {
			return u
		}
		for len(inner) > 0 && isAssignment(inner[0]) {
			u.Env, inner = append(u.Env, inner[0]), inner[1:]
		}
	case "env":
		u.Clear = u.Opts.Has("i", "ignore-environment")
		if len(inner) > 0 && inner[0].Is("-") { // an old spelling of -i
			u.Clear, inner = true, inner[1:]
		}
		for _, f := range u.Opts.Flags {
			if f.Has && (f.Name == "u" || f.Name == "unset") {
				u.Unset = append(u.Unset, f.Val)
			}
		}
		for len(inner) > 0 && isAssignment(inner[0]) {
			u.Env, inner = append(u.Env, inner[0]), inner[1:]
		}
	case "command":
		if u.Opts.Has("v", "V") {
			return u
		}
	case "timeout":
		if len(inner) == 0 {
			return u
		}
		inner = inner[1:] // the duration
	case "npx":
		if len(inner) > 0 {
			inner[0].Text = NPXName(inner[0].Text)
		}
	}
	u.Inner = inner
	return u
}

// envSplit replaces env's -S STRING (--split-string) with the words env
// splits STRING into, as GNU env does before it goes on reading them as
// options, assignments and the command.
func envSplit(args []Arg) []Arg {
	for range MaxDepth { // an -S among the words of an -S
		i, end, str, flags, ok := findSplit(args)
		if !ok {
			return args
		}
		out := make([]Arg, 0, len(args)+4)
		out = append(out, args[:i]...)
		if flags != "" {
			out = append(out, Arg{Text: flags, Pos: args[i].Pos})
		}
		out = append(out, splitString(str)...)
		args = append(out, args[end:]...)
	}
	return args
}

// findSplit finds env's -S among its options: args[i:end] are the words
// of the option and its STRING, and flags the options bundled before S
// (-iS STRING), if any.
func findSplit(args []Arg) (i, end int, str Arg, flags string, ok bool) {
	spec := wrapperSpec("env")
	for i = 0; i < len(args); i++ {
		s, lit := args[i].Lit()
		if !lit || len(s) < 2 || s[0] != '-' || s == "--" {
			return 0, 0, Arg{}, "", false // the options end here
		}
		if strings.HasPrefix(s, "--") {
			name, _, hasVal := strings.Cut(s[2:], "=")
			full, takes := spec.longName(name)
			switch {
			case full == "split-string" && hasVal:
				return i, i + 1, args[i].From(len("--" + name + "=")), "", true
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
					return i, i + 1, args[i].From(j + 1), flags, true
				}
				if i+1 < len(args) {
					return i, i + 2, args[i+1], flags, true
				}
				return 0, 0, Arg{}, "", false
			case 'u', 'C':
				if j+1 == len(s) {
					i++ // the option's argument is the next word
				}
				j = len(s)
			}
		}
	}
	return 0, 0, Arg{}, "", false
}

// splitString splits the STRING of env -S as GNU env does: at blanks
// outside quotes; '...' keeps all but \\ and \'; "..." and bare text
// take the escapes \" \# \$ \' \\ \_ (a blank) \c (the end) \f \n \r \t \v;
// ${NAME} is a variable (unknown here); # starts a comment where a word
// would start. A word that is STRING's text byte for byte keeps its place
// in the source (Arg.Word), for the stamp. A STRING env rejects gives
// no words: env runs nothing.
func splitString(str Arg) []Arg {
	s := str.Text
	var out []Arg
	var b strings.Builder
	start := -1 // where the current word starts in s; -1 between words
	raw := true // the word is s[start:i] as it is
	sq, dq := false, false
	end := func() {
		if start < 0 {
			return
		}
		a := Arg{Text: b.String(), Pos: str.Pos}
		if raw && str.Word != nil {
			a.Word, a.At, a.Part, a.Split = str.Word, str.At+start, true, true
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
			b.WriteString(Unknown)
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

// isAssignment reports whether an env operand is NAME=VALUE.
func isAssignment(a Arg) bool {
	name, _, ok := strings.Cut(a.Text, "=")
	return ok && name != "" && !strings.ContainsAny(name, "/"+Unknown)
}

// NPXName is the command an npx package runs: @scope/pkg@1.2 runs pkg.
func NPXName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s[min(1, len(s)):], '@'); i >= 0 {
		s = s[:i+1]
	}
	return s
}

// XargsCommand is the command xargs runs when what it reads is not known:
// with -I R, the words holding R are unknown; otherwise unknown words are
// appended at the end. When xargs reads what find printed (found), those
// words are find's files instead.
func XargsCommand(o Opts, inner, found []Arg) []Arg {
	if len(inner) == 0 {
		return nil
	}
	if repl, ok := XargsRepl(o); ok {
		out := make([]Arg, 0, len(inner))
		for _, a := range inner {
			switch {
			case found != nil && a.Is(repl):
				out = append(out, Placed(found, a.Pos)...)
			case strings.Contains(a.Text, repl):
				a.Text = strings.ReplaceAll(a.Text, repl, Unknown)
				out = append(out, a)
			default:
				out = append(out, a)
			}
		}
		return out
	}
	out := make([]Arg, len(inner), len(inner)+max(1, len(found)))
	copy(out, inner)
	if found != nil {
		return append(out, Placed(found, inner[len(inner)-1].Pos)...)
	}
	return append(out, Arg{Text: Unknown, Multi: true, Pos: inner[len(inner)-1].Pos})
}

// XargsRepl is the string that -I (or -i, --replace) has xargs replace.
func XargsRepl(o Opts) (string, bool) {
	if r, ok := o.Get("I", "i", "replace"); ok && r.Text != "" {
		return r.Text, true
	}
	if o.Has("i", "replace") {
		return "{}", true
	}
	return "", false
}

// Placed is args placed at the source offset pos.
func Placed(args []Arg, pos uint) []Arg {
	out := make([]Arg, len(args))
	for i, a := range args {
		a.Pos = pos
		out[i] = a
	}
	return out
}

// ExecEnd is the index of the ; or + that ends the -exec (or -ok...) at
// args[i], or len(args).
func ExecEnd(args []Arg, i int) int {
	j := i + 1
	for j < len(args) && !args[j].Is(";") && !args[j].Is("+") {
		j++
	}
	return j
}

// FindOperands reads find's arguments: args[first:expr] are its starting
// points, after its options (-H, -L, -P, -O, -D), and expr is the index
// of its expression's first word.
func FindOperands(args []Arg) (first, expr int) {
	i := 0
	for i < len(args) {
		s, _ := args[i].Lit()
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			i++
		} else if s == "-D" {
			i += 2
		} else {
			break
		}
	}
	first = min(i, len(args))
	for i = first; i < len(args); i++ {
		s, ok := args[i].Lit()
		if ok && (strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == ")" || s == ",") {
			break
		}
	}
	return first, i
}

// IsShell reports whether the command name is a shell that runs a
// script given with -c or on its standard input.
func IsShell(name string) bool {
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh":
		return true
	}
	return false
}

// ShellScript reads a shell's arguments: the word of its -c script, or
// whether it reads its script from its standard input (no script file
// named, or -s).
func ShellScript(args []Arg) (script *Arg, stdin bool) {
	byC := false
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Lit()
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
