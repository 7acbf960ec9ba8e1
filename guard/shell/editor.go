package shell

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"mvdan.cc/sh/v3/syntax"
)

// awk -i inplace (gawk's in-place extension; also --include=inplace, or
// @include "inplace" in the program) rewrites the files it is given after
// its program (or after -f FILE); NAME=VALUE operands are assignments.
func (w *walker) awk(args []cmdline.Arg, st *shState) {
	inplace, prog := false, false
	i := 0
	arg := func(s string, at int) cmdline.Arg { // an option's argument: attached, or the next word
		if at < len(s) {
			return args[i].From(at)
		}
		if i+1 < len(args) {
			i++
			return args[i]
		}
		return cmdline.Arg{}
	}
	isInplace := func(a cmdline.Arg) bool { return a.Is("inplace") || a.Is("inplace.awk") }
options:
	for ; i < len(args); i++ {
		s, ok := args[i].Lit()
		if !ok || len(s) < 2 || s[0] != '-' {
			break
		}
		if s == "--" {
			i++
			break
		}
		if strings.HasPrefix(s, "--") {
			name, val, hasVal := strings.Cut(s[2:], "=")
			var v cmdline.Arg
			switch name {
			case "file", "source", "exec", "include", "assign", "field-separator", "load":
				if hasVal {
					v = args[i].From(len(s) - len(val))
				} else {
					v = arg(s, len(s))
				}
			case "help", "version", "usage", "copyright":
				return
			}
			switch name {
			case "file", "source":
				prog = true
			case "exec":
				prog = true
				i++
				break options
			case "include":
				inplace = inplace || isInplace(v)
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			switch c := s[j]; c {
			case 'f', 'e', 'E', 'i', 'v', 'F', 'l', 'W':
				v := arg(s, j+1)
				switch c {
				case 'f', 'e':
					prog = true
				case 'E':
					prog = true
					i++
					break options
				case 'i':
					inplace = inplace || isInplace(v)
				}
				continue options
			case 'd', 'D', 'L', 'o', 'p':
				continue options // an optional value, attached
			case 'h', 'V':
				return
			}
		}
	}
	ops := args[min(i, len(args)):]
	if !prog && len(ops) > 0 {
		inplace = inplace || strings.Contains(ops[0].Text, `@include "inplace"`)
		ops = ops[1:]
	}
	if !inplace {
		return
	}
	for _, a := range ops {
		if name, _, ok := strings.Cut(a.Text, "="); ok && isIdent(name) || a.Is("-") {
			continue
		}
		w.write(st, a, "awk -i inplace")
	}
}

// isIdent reports whether s is an awk variable's name.
func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// ed edits the file it is given with the commands it reads on its
// standard input: where they can be read (a heredoc, <<<, a file, what
// echo or printf pipe), it writes what their w and wq write (the file,
// or the one named, or the one e or f made current) and runs what their
// ! runs; where they cannot, it writes the file.
func (w *walker) ed(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "p", Long: []string{"prompt"}})
	if o.Informational() {
		return
	}
	var file cmdline.Arg
	if len(o.Ops) > 0 && !strings.HasPrefix(o.Ops[0].Text, "!") {
		file = o.Ops[0]
	}
	in := w.stdinOf(redirs, st, true)
	if !in.known || in.found != nil {
		if file.Text != "" {
			w.open(st, file, "ed")
		}
		return
	}
	pos := posOf(args)
	cur := file
	input := false
	for line := range strings.Lines(in.text) {
		line = strings.TrimRight(line, "\n")
		if input {
			input = line != "."
			continue
		}
		cmd := skipEdAddress(line)
		if cmd == "" {
			continue
		}
		c, rest := cmd[0], strings.TrimSpace(cmd[1:])
		switch c {
		case 'a', 'i', 'c':
			input = true
		case 'w', 'W':
			if strings.HasPrefix(cmd[1:], "q") {
				rest = strings.TrimSpace(cmd[2:]) // wq
			}
			switch {
			case strings.HasPrefix(rest, "!"):
				w.script(rest[1:], st, pos)
			case rest != "":
				w.open(st, cmdline.Arg{Text: rest, Pos: pos}, "ed")
			case cur.Text != "":
				w.open(st, cur, "ed")
			}
		case 'e', 'E', 'f':
			if rest != "" && !strings.HasPrefix(rest, "!") {
				cur = cmdline.Arg{Text: rest, Pos: pos}
			}
		case '!':
			w.script(cmd[1:], st, pos)
		case 'r':
			if strings.HasPrefix(rest, "!") {
				w.script(rest[1:], st, pos)
			}
		case 'q', 'Q':
			return
		}
	}
}

// skipEdAddress is an ed command line without its address: line
// numbers, . $ , ; + - ^, marks ('x), and /re/ or ?re? searches.
func skipEdAddress(line string) string {
	i := 0
	for i < len(line) {
		switch c := line[i]; {
		case strings.IndexByte("0123456789.$,;+-^ \t", c) >= 0:
			i++
		case c == '\'' && i+1 < len(line):
			i += 2
		case c == '/' || c == '?':
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
		default:
			return line[i:]
		}
	}
	return ""
}

// vimEdit is what the commands given to vim, ex or emacs do to the files
// they edit.
type vimEdit struct {
	buffers bool     // they write the files edited (w, wq, x, wa, up, ZZ)
	files   []string // the files they write by name (w FILE, sav FILE)
	edits   []string // the files they open besides the operands (e FILE)
	unknown bool     // a script lucid cannot read runs: it may write the files edited
	quits   bool     // a command quits: what follows is not read
}

// vim reads vim, vi, nvim, view and ex: the commands of -c, --cmd and
// +CMD, and in Ex mode (ex, -e, -E, -es) those it reads on its standard
// input, for what they write (see vimCommands): the files it edits, and
// those named. A script lucid cannot read (-S FILE, -u FILE, -s FILE in
// Normal mode) may write the files edited.
func (w *walker) vim(name string, args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	exMode := name == "ex"
	var cmds []string
	var files []cmdline.Arg
	var e vimEdit
	i := 0
	arg := func(s string, at int, optional bool) (string, bool) {
		if at < len(s) {
			return s[at:], true
		}
		if i+1 < len(args) && (!optional || !strings.HasPrefix(args[i+1].Text, "-")) {
			i++
			return args[i].Text, true
		}
		return "", false
	}
	for ; i < len(args); i++ {
		s := args[i].Text
		switch {
		case s == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(s, "+"):
			if c := s[1:]; c != "" && strings.Trim(c, "0123456789") != "" && !strings.HasPrefix(c, "/") {
				cmds = append(cmds, c)
			}
		case strings.HasPrefix(s, "--"):
			switch s {
			case "--cmd":
				if c, ok := arg(s, len(s), false); ok {
					cmds = append(cmds, c)
				}
			case "--startuptime", "--log":
				if f, ok := arg(s, len(s), false); ok {
					w.open(st, cmdline.Arg{Text: f, Pos: args[i].Pos}, name+" "+s)
				}
			case "--listen", "--servername", "--server", "--api-info", "--remote-ui":
				i++
			case "--help", "--version", "--embed", "--remote", "--remote-silent", "--remote-wait",
				"--remote-wait-silent", "--remote-tab", "--remote-send", "--remote-expr":
				return // another vim edits
			}
		case len(s) > 1 && s[0] == '-':
		letters:
			for j := 1; j < len(s); j++ {
				switch s[j] {
				case 'e', 'E':
					exMode = true
				case 's':
					if exMode {
						continue // silent
					}
					if _, ok := arg(s, j+1, false); ok {
						e.unknown = true // keys typed from a file
					}
					break letters
				case 'c':
					if c, ok := arg(s, j+1, false); ok {
						cmds = append(cmds, c)
					}
					break letters
				case 'S':
					arg(s, j+1, true)
					e.unknown = true
					break letters
				case 'u':
					if f, ok := arg(s, j+1, false); ok && f != "NONE" && f != "NORC" && f != "DEFAULTS" {
						e.unknown = true
					}
					break letters
				case 'w', 'W':
					if f, ok := arg(s, j+1, false); ok && strings.Trim(f, "0123456789") != "" {
						w.open(st, cmdline.Arg{Text: f, Pos: args[i].Pos}, name+" -"+string(s[j]))
					}
					break letters
				case 'U', 'i', 'T', 't', 'q':
					arg(s, j+1, s[j] == 'q')
					break letters
				case 'V', 'o', 'O', 'p', 'r', 'L':
					break letters // an optional value, attached
				case 'l':
					if name == "nvim" {
						return // a Lua script gets the rest
					}
				case 'h':
					return
				}
			}
		default:
			files = append(files, args[i])
		}
	}
	pos := posOf(args)
	for _, c := range cmds {
		w.vimCommands(c, &e, st, pos)
	}
	if exMode && !e.quits {
		// Ex mode reads commands on, from its standard input.
		if in := w.stdinOf(redirs, st, true); in.known && in.found == nil {
			for _, c := range strings.Split(in.text, "\n") {
				w.vimCommands(c, &e, st, pos)
			}
		} else {
			e.unknown = true
		}
	}
	w.editWrites(e, files, st, name, pos)
}

// editWrites records what an editor's commands write: the files named
// on its command line and opened by its commands, when the commands write
// the files edited or a script lucid cannot read runs; and the files
// they write by name.
func (w *walker) editWrites(e vimEdit, files []cmdline.Arg, st *shState, by string, pos uint) {
	if e.buffers || e.unknown {
		for _, a := range files {
			if !a.Is("-") {
				w.open(st, a, by)
			}
		}
		for _, f := range e.edits {
			w.open(st, cmdline.Arg{Text: f, Pos: pos}, by)
		}
	}
	for _, f := range e.files {
		w.open(st, cmdline.Arg{Text: f, Pos: pos}, by)
	}
}

// vimCommands reads one line of Ex commands, joined by |: those that
// write (:w, :wq, :x, :exit, :wa, :wqa, :xa, :up, :sav, :wn, :wN, :wp,
// :norm with ZZ), each with a file name or not; :e FILE and its kin open
// another file; :! runs a shell line; :g, :argdo and the modifiers run
// the command after them; :exe, :norm, :so, :call and the script
// languages run what lucid cannot read.
func (w *walker) vimCommands(line string, e *vimEdit, st *shState, pos uint) {
	for _, c := range splitBar(line) {
		c = strings.TrimLeft(c, " \t:")
		c = skipVimRange(c)
		name := c
		i := 0
		for i < len(c) && (c[i] >= 'a' && c[i] <= 'z' || c[i] >= 'A' && c[i] <= 'Z') {
			i++
		}
		name, rest := c[:i], c[i:]
		if name == "" {
			if strings.HasPrefix(c, "!") {
				w.script(c[1:], st, pos)
			}
			continue
		}
		bang := strings.HasPrefix(rest, "!")
		rest = strings.TrimSpace(strings.TrimPrefix(rest, "!"))
		switch {
		case vimAbbrev(name, "w", "write") || vimAbbrev(name, "sav", "saveas") || vimAbbrev(name, "x", "xit") ||
			vimAbbrev(name, "exi", "exit") || name == "wq" || vimAbbrev(name, "up", "update") ||
			vimAbbrev(name, "wn", "wnext") || vimAbbrev(name, "wN", "wNext") || vimAbbrev(name, "wp", "wprevious"):
			if strings.HasPrefix(rest, "!") && !bang && vimAbbrev(name, "w", "write") {
				w.script(rest[1:], st, pos) // :w !cmd pipes the buffer to cmd
				continue
			}
			rest = strings.TrimSpace(strings.TrimPrefix(rest, ">>"))
			for strings.HasPrefix(rest, "++") { // ++opt
				_, rest = firstWord(rest)
			}
			if rest != "" {
				e.files = append(e.files, rest)
			} else {
				e.buffers = true
			}
			e.quits = e.quits || name == "wq" || vimAbbrev(name, "x", "xit") || vimAbbrev(name, "exi", "exit")
		case vimAbbrev(name, "wa", "wall") || vimAbbrev(name, "wqa", "wqall") || vimAbbrev(name, "xa", "xall"):
			e.buffers = true
			e.quits = e.quits || name != "wa" && !vimAbbrev(name, "wa", "wall")
		case vimAbbrev(name, "e", "edit") || vimAbbrev(name, "sp", "split") || vimAbbrev(name, "vs", "vsplit") ||
			vimAbbrev(name, "new", "new") || vimAbbrev(name, "vne", "vnew") || vimAbbrev(name, "tabe", "tabedit") ||
			vimAbbrev(name, "bad", "badd") || vimAbbrev(name, "arga", "argadd") || vimAbbrev(name, "ar", "args") ||
			vimAbbrev(name, "n", "next") || vimAbbrev(name, "fin", "find") || vimAbbrev(name, "f", "file"):
			for _, f := range strings.Fields(rest) {
				if !strings.HasPrefix(f, "+") {
					e.edits = append(e.edits, f)
				}
			}
		case vimAbbrev(name, "g", "global") || vimAbbrev(name, "v", "vglobal"):
			if rest != "" {
				d := rest[0]
				if j := strings.IndexByte(rest[1:], d); j >= 0 {
					w.vimCommands(rest[j+2:], e, st, pos)
				}
			}
		case vimAbbrev(name, "norm", "normal"):
			if strings.Contains(rest, "ZZ") || strings.Contains(rest, ":w") || strings.Contains(rest, ":x") {
				e.buffers = true
			}
			e.unknown = e.unknown || strings.Contains(rest, ":")
		case vimAbbrev(name, "exe", "execute") || vimAbbrev(name, "so", "source") || vimAbbrev(name, "ru", "runtime") ||
			vimAbbrev(name, "cal", "call") || vimAbbrev(name, "lua", "lua") || vimAbbrev(name, "luafile", "luafile") ||
			vimAbbrev(name, "py", "python") || vimAbbrev(name, "py3", "py3") || vimAbbrev(name, "pyf", "pyfile") ||
			vimAbbrev(name, "pe", "perl") || vimAbbrev(name, "rub", "ruby") ||
			vimAbbrev(name, "let", "let") && strings.Contains(rest, "("):
			e.unknown = true
		case vimAbbrev(name, "q", "quit") || vimAbbrev(name, "qa", "qall") || vimAbbrev(name, "quita", "quitall") ||
			name == "cq" || vimAbbrev(name, "cq", "cquit"):
			e.quits = true
		case vimAbbrev(name, "r", "read"):
			if strings.HasPrefix(rest, "!") {
				w.script(rest[1:], st, pos)
			}
		case vimModifier(name):
			w.vimCommands(rest, e, st, pos)
		}
	}
}

// vimModifier reports whether an Ex command name runs the command after
// it: :argdo, :bufdo, :silent, :keepjumps and their kin.
func vimModifier(name string) bool {
	for _, m := range [][2]string{{"argdo", "argdo"}, {"bufdo", "bufdo"}, {"windo", "windo"}, {"tabdo", "tabdo"},
		{"cdo", "cdo"}, {"cfdo", "cfdo"}, {"ldo", "ldo"}, {"lfdo", "lfdo"}, {"sil", "silent"}, {"keepj", "keepjumps"},
		{"keepp", "keeppatterns"}, {"kee", "keepmarks"}, {"keepa", "keepalt"}, {"noa", "noautocmd"},
		{"uns", "unsilent"}, {"vert", "vertical"}, {"tab", "tab"}, {"lockm", "lockmarks"}, {"sandbox", "sandbox"},
		{"bo", "botright"}, {"to", "topleft"}, {"abo", "aboveleft"}, {"bel", "belowright"}, {"conf", "confirm"},
		{"try", "try"}} {
		if vimAbbrev(name, m[0], m[1]) {
			return true
		}
	}
	return false
}

// vimAbbrev reports whether name is the Ex command full written as at
// least its shortest form short.
func vimAbbrev(name, short, full string) bool {
	return len(name) >= len(short) && strings.HasPrefix(full, name) && strings.HasPrefix(name, short)
}

// splitBar splits an Ex command line at the | that separate commands
// (one a backslash escapes does not).
func splitBar(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			out = append(out, line[start:i])
			start = i + 1
		}
	}
	return append(out, line[start:])
}

// skipVimRange is an Ex command without its range: %, line numbers, . $ ,
// ; + -, marks ('x, '<,'>), and /pat/ or ?pat? searches.
func skipVimRange(c string) string {
	c = skipEdAddress(strings.TrimLeft(c, " \t"))
	return strings.TrimLeft(strings.TrimPrefix(c, "%"), " \t")
}

// emacs reads emacs --batch and its kin: the files it visits are written
// when -f or --eval saves them (save-buffer, basic-save-buffer,
// save-some-buffers, write-file), or when a Lisp file lucid cannot read
// runs (-l, --script); write-file "NAME" and write-region's file are
// written too, and find-file "NAME" visits one more.
func (w *walker) emacs(args []cmdline.Arg, st *shState) {
	var e vimEdit
	var files []cmdline.Arg
	pos := posOf(args)
	for i := 0; i < len(args); i++ {
		s := args[i].Text
		long := strings.TrimPrefix(s, "-")
		name, val, hasVal := strings.Cut(long, "=")
		next := func() string {
			if hasVal {
				return val
			}
			if i+1 < len(args) {
				i++
				return args[i].Text
			}
			return ""
		}
		if !strings.HasPrefix(s, "-") || s == "-" {
			if !strings.HasPrefix(s, "+") {
				files = append(files, args[i])
			}
			continue
		}
		switch name {
		case "-batch", "batch", "q", "Q", "-quick", "-no-init-file", "-no-site-file", "nw", "-no-window-system", "-debug-init", "-kill", "kill":
		case "l", "-load", "load", "-script", "script", "x":
			next()
			e.unknown = true
		case "f", "-funcall", "funcall":
			switch next() {
			case "save-buffer", "basic-save-buffer", "save-some-buffers", "write-file":
				e.buffers = true
			}
		case "-eval", "eval", "-execute", "execute":
			elispWrites(next(), &e)
		case "-chdir", "chdir":
			st = chdir(st, cmdline.Arg{Text: next()})
		case "-file", "-find-file", "-visit", "file", "find-file", "visit":
			if f := next(); f != "" {
				files = append(files, cmdline.Arg{Text: f, Pos: pos})
			}
		case "L", "-directory", "directory", "-insert", "insert", "u", "-user", "user", "t", "-terminal", "d", "-display",
			"-dump-file", "-seccomp", "T", "-title", "-name", "-init-directory":
			next()
		case "-help", "-version":
			return
		}
	}
	w.editWrites(e, files, st, "emacs", pos)
}

// elispWrites reads Lisp for the calls that save: save-buffer and its
// kin save the buffers visited; write-file "NAME" and write-region to a
// literal file write that file; find-file "NAME" visits it.
func elispWrites(src string, e *vimEdit) {
	for _, f := range []string{"save-buffer", "basic-save-buffer", "save-some-buffers"} {
		if strings.Contains(src, f) {
			e.buffers = true
		}
	}
	for _, fn := range []string{"write-file", "write-region", "find-file", "find-file-noselect"} {
		rest := src
		for {
			i := strings.Index(rest, "("+fn+" ")
			if i < 0 {
				break
			}
			rest = rest[i+len(fn)+2:]
			arg := strings.TrimSpace(rest)
			if fn == "write-region" { // (write-region START END FILENAME ...)
				for k := 0; k < 2; k++ {
					_, arg = elispSkip(arg)
				}
			}
			name, ok := elispString(arg)
			switch {
			case !ok && fn == "write-file":
				e.buffers = true // to a file lucid cannot name: at least the buffer's
			case !ok:
			case strings.HasPrefix(fn, "find-file"):
				e.edits = append(e.edits, name)
			default:
				e.files = append(e.files, name)
			}
		}
	}
}

// elispString is the literal string s starts with.
func elispString(s string) (string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", false
}

// elispSkip skips one Lisp form (an atom, a string, a list) at the start
// of s.
func elispSkip(s string) (form, rest string) {
	s = strings.TrimSpace(s)
	depth, inStr := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && c == '\\':
			i++
		case inStr && c == '"':
			inStr = false
			if depth == 0 {
				return s[:i+1], s[i+1:]
			}
		case inStr:
		case c == '"':
			inStr = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth <= 0 {
				return s[:i+1], s[i+1:]
			}
		case (c == ' ' || c == '\t' || c == '\n') && depth == 0:
			return s[:i], s[i:]
		}
	}
	return s, ""
}
