package shell

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"mvdan.cc/sh/v3/syntax"
)

// shOutput is what a command prints, as far as lucid can tell: for
// xargs or a shell on the right of a pipe, and for $( ).
type shOutput struct {
	text  string
	known bool
	// found is what a find prints, as write's arguments (see foundArgs):
	// where the files lie, not which they are.
	found []cmdline.Arg
}

// substOutput is the value of a command substitution: what its one
// command prints, without the newlines at its end.
func (w *walker) substOutput(c *syntax.CmdSubst, st *shState) (string, bool) {
	if len(c.Stmts) != 1 {
		return "", false
	}
	out := w.output(c.Stmts[0], st)
	return strings.TrimRight(out.text, "\n"), out.known
}

// output is what the command s prints when lucid can tell: echo and
// printf of known words (printf with %s and escapes only), ls of its
// operands, cat of files or a heredoc, pwd, git rev-parse --show-toplevel
// and --show-cdup, dirname, basename, and the files find finds. Any other
// command's output is not known.
func (w *walker) output(s *syntax.Stmt, st *shState) shOutput {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(call.Assigns) > 0 {
		return shOutput{}
	}
	for _, r := range s.Redirs {
		if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc && (r.N == nil || r.N.Value != "2") {
			return shOutput{} // what it prints goes elsewhere, or it reads a file
		}
	}
	name, _ := cmdline.ArgOf(call.Args[0]).Lit()
	switch name {
	case "echo", "printf", "ls", "cat", "pwd", "git", "dirname", "basename", "find":
	default:
		return shOutput{}
	}
	if !w.budget() {
		return shOutput{}
	}
	args := w.expand(call.Args[1:], st)
	for _, a := range args {
		if _, ok := a.Lit(); !ok {
			return shOutput{}
		}
	}
	switch name {
	case "echo":
		return echoOutput(args)
	case "printf":
		return printfOutput(args)
	case "ls":
		return w.lsOutput(args, st)
	case "cat":
		return w.catOutput(args, s.Redirs, st)
	case "pwd":
		return w.pwdOutput(args, st)
	case "git":
		return w.gitOutput(args, st)
	case "dirname", "basename":
		return nameOutput(name, args)
	}
	starts, glob, _ := findFiles(args, st)
	if len(starts) == 0 {
		return shOutput{}
	}
	return shOutput{known: true, found: foundArgs(starts, glob, true)}
}

// text is a known output of lines.
func lines(list []string) shOutput {
	if len(list) == 0 {
		return shOutput{known: true}
	}
	return shOutput{text: strings.Join(list, "\n") + "\n", known: true}
}

// echoOutput is what bash's echo prints: its words joined by blanks; -n
// drops the newline; with -e, a backslash makes the output not known.
func echoOutput(args []cmdline.Arg) shOutput {
	newline, escapes := true, false
	for len(args) > 0 {
		s := args[0].Text
		if len(s) < 2 || s[0] != '-' || strings.Trim(s[1:], "neE") != "" {
			break
		}
		for _, c := range s[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	words := make([]string, len(args))
	for i, a := range args {
		if escapes && strings.Contains(a.Text, `\`) {
			return shOutput{}
		}
		words[i] = a.Text
	}
	text := strings.Join(words, " ")
	if newline {
		text += "\n"
	}
	return shOutput{text: text, known: true}
}

// printfOutput is what printf FORMAT ARGS prints when FORMAT has only %s,
// %% and escapes: the format is used again while arguments remain.
func printfOutput(args []cmdline.Arg) shOutput {
	if len(args) > 0 && args[0].Text == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0].Text, "-") {
		return shOutput{} // -v VAR prints nothing here
	}
	format, vals := args[0].Text, args[1:]
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			switch c := format[i]; {
			case c == '\\' && i+1 < len(format):
				n, w := printfEscape(format[i+1:])
				b.WriteByte(n)
				i += w
			case c == '%' && i+1 < len(format) && format[i+1] == '%':
				b.WriteByte('%')
				i++
			case c == '%' && i+1 < len(format) && format[i+1] == 's':
				if used < len(vals) {
					b.WriteString(vals[used].Text)
				}
				used++
				i++
			case c == '%':
				return shOutput{} // a conversion not read here
			default:
				b.WriteByte(c)
			}
		}
		if used == 0 || used >= len(vals) {
			break
		}
		vals = vals[used:]
	}
	return shOutput{text: b.String(), known: true}
}

// printfEscape decodes the escape after a backslash in a printf format:
// its byte, and how many bytes of s it took.
func printfEscape(s string) (byte, int) {
	switch c := s[0]; c {
	case 'a':
		return '\a', 1
	case 'b':
		return '\b', 1
	case 'f':
		return '\f', 1
	case 'n':
		return '\n', 1
	case 'r':
		return '\r', 1
	case 't':
		return '\t', 1
	case 'v':
		return '\v', 1
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n, w := cmdline.ANSIDigits(s, 3, 8)
		return byte(n), w
	case 'x':
		if n, w := cmdline.ANSIDigits(s[1:], 2, 16); w > 0 {
			return byte(n), w + 1
		}
	}
	if c := s[0]; c == '\\' || c == '"' || c == '\'' || c == '?' {
		return c, 1
	}
	return '\\', 0 // not an escape: the backslash stays
}

// lsOutput is what ls prints into a pipe: one name a line, an operand
// that is not a folder (or with -d) as given, a folder's names (without
// the dot files unless -a or -A); an operand that does not exist prints
// nothing. With any other option, not known.
func (w *walker) lsOutput(args []cmdline.Arg, st *shState) shOutput {
	o := cmdline.ParseOpts(args, cmdline.Spec{})
	for _, f := range o.Flags {
		if len(f.Name) != 1 || !strings.Contains("1aAd", f.Name) {
			return shOutput{}
		}
	}
	ops := o.Ops
	if len(ops) == 0 {
		ops = []cmdline.Arg{{Text: "."}}
	}
	var list []string
	for _, a := range ops {
		p, ok := st.path(a)
		if !ok {
			return shOutput{}
		}
		switch k := w.kindAt(st, p); {
		case k == realpath.None:
			continue
		case o.Has("d") || k != realpath.Dir:
			list = append(list, a.Text)
			continue
		}
		names, more := w.readDir(p)
		if more {
			return shOutput{}
		}
		for _, n := range names {
			if n[0] != '.' || o.Has("a", "A") {
				list = append(list, n)
			}
		}
	}
	return lines(list)
}

// catOutput is what cat prints: its files, or the heredoc it reads.
func (w *walker) catOutput(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) shOutput {
	o := cmdline.ParseOpts(args, cmdline.Spec{})
	if len(o.Flags) > 0 {
		return shOutput{}
	}
	if len(o.Ops) == 0 || len(o.Ops) == 1 && o.Ops[0].Text == "-" {
		if r := cmdline.StdinRedir(redirs); r != nil {
			return shOutput{text: cmdline.RedirText(r, nil), known: true}
		}
		return shOutput{}
	}
	var b strings.Builder
	for _, a := range o.Ops {
		out := w.fileOutput(a, st)
		if !out.known {
			return shOutput{}
		}
		b.WriteString(out.text)
	}
	return shOutput{text: b.String(), known: true}
}

// fileOutput is the content of the file a names, read up to maxFileBytes.
func (w *walker) fileOutput(a cmdline.Arg, st *shState) shOutput {
	p, ok := st.path(a)
	if !ok {
		return shOutput{}
	}
	b, more, ok := w.fs.readFile(p, maxFileBytes)
	if more {
		w.stop(unsureFile)
		return shOutput{}
	}
	return shOutput{text: string(b), known: ok}
}

// pwdOutput is the shell's directory, as pwd prints it (-P: links
// resolved).
func (w *walker) pwdOutput(args []cmdline.Arg, st *shState) shOutput {
	o := cmdline.ParseOpts(args, cmdline.Spec{})
	if st.dir == "" || len(o.Ops) > 0 {
		return shOutput{}
	}
	if o.Has("P") {
		d, _ := realpath.Resolve(w.fs, "/", st.dir, true)
		return lines([]string{d})
	}
	return lines([]string{st.dir})
}

// gitOutput is what git rev-parse --show-toplevel and --show-cdup print.
func (w *walker) gitOutput(args []cmdline.Arg, st *shState) shOutput {
	if len(args) != 2 || args[0].Text != "rev-parse" || st.dir == "" {
		return shOutput{}
	}
	top, ok := w.gitTop(st.dir)
	if !ok {
		return shOutput{}
	}
	switch args[1].Text {
	case "--show-toplevel":
		return lines([]string{top})
	case "--show-cdup":
		here, _ := realpath.Resolve(w.fs, "/", st.dir, true)
		rel, err := filepath.Rel(top, here)
		if err != nil || rel == "." {
			return lines([]string{""})
		}
		return lines([]string{strings.Repeat("../", strings.Count(rel, "/")+1)})
	}
	return shOutput{}
}

// gitTop is the top of the work tree that dir lies in, as git rev-parse
// --show-toplevel prints it: the nearest folder at or above dir, links
// resolved, that holds a .git folder or a .git file (gitdir: ...).
func (w *walker) gitTop(dir string) (string, bool) {
	d, _ := realpath.Resolve(w.fs, "/", dir, true)
	for {
		switch w.fs.Lstat(filepath.Join(d, ".git")) {
		case realpath.Dir:
			return d, true
		case realpath.File:
			b, _, ok := w.fs.readFile(filepath.Join(d, ".git"), 256)
			if ok && bytes.HasPrefix(b, []byte("gitdir:")) {
				return d, true
			}
		}
		if d == "/" {
			return "", false
		}
		d = filepath.Dir(d)
	}
}

// nameOutput is what dirname and basename print for their operands.
func nameOutput(name string, args []cmdline.Arg) shOutput {
	if name == "dirname" {
		o := cmdline.ParseOpts(args, cmdline.Spec{})
		if len(o.Flags) > 0 || len(o.Ops) == 0 {
			return shOutput{}
		}
		list := make([]string, len(o.Ops))
		for i, a := range o.Ops {
			list[i] = dirname(a.Text)
		}
		return lines(list)
	}
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "s", Long: []string{"suffix"}})
	suffix, hasSuffix := o.Get("s", "suffix")
	ops := o.Ops
	switch {
	case len(ops) == 0 || o.Has("z", "zero"):
		return shOutput{}
	case !hasSuffix && !o.Has("a", "multiple") && len(ops) == 2:
		suffix, ops = ops[1], ops[:1] // basename NAME SUFFIX
	case !hasSuffix && !o.Has("a", "multiple") && len(ops) > 2:
		return shOutput{} // basename refuses
	}
	list := make([]string, len(ops))
	for i, a := range ops {
		b := basename(a.Text)
		if s := suffix.Text; s != "" && b != s {
			b = strings.TrimSuffix(b, s)
		}
		list[i] = b
	}
	return lines(list)
}

// dirname is POSIX dirname: the path without its last component.
func dirname(p string) string {
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/"
	}
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "."
	}
	if p = strings.TrimRight(p[:i], "/"); p == "" {
		return "/"
	}
	return p
}

// basename is POSIX basename: the last component of the path.
func basename(p string) string {
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/"
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}

// xargsRuns is the commands xargs runs, each its words: inner with the
// items it reads (from -a FILE, its standard input, or what the pipe
// gives it, when known) added as xargs adds them: all at the end, -n N
// items or -L N lines at a time, or each in place of -I's string. When
// what it reads is not known, see cmdline.XargsCommand.
func (w *walker) xargsRuns(o cmdline.Opts, inner []cmdline.Arg, redirs []*syntax.Redirect, st *shState) [][]cmdline.Arg {
	in := w.stdinOf(redirs, st, true)
	if f, ok := o.Get("a", "arg-file"); ok {
		in = w.fileOutput(f, st)
	}
	if len(inner) == 0 {
		inner = []cmdline.Arg{{Text: "echo"}}
	}
	if !in.known || in.found != nil {
		return [][]cmdline.Arg{cmdline.XargsCommand(o, inner, in.found)}
	}
	pos := inner[len(inner)-1].Pos
	var groups []string // what each run reads
	if v, ok := o.Get("L", "max-lines"); ok {
		if n, err := strconv.Atoi(v.Text); err == nil && n > 0 {
			lines := slices.DeleteFunc(strings.Split(in.text, "\n"), func(l string) bool { return strings.TrimSpace(l) == "" })
			for len(lines) > 0 {
				k := min(n, len(lines))
				groups, lines = append(groups, strings.Join(lines[:k], "\n")), lines[k:]
			}
		}
	}
	if groups != nil {
		runs := make([][]cmdline.Arg, 0, len(groups))
		for _, g := range groups {
			run := inner[:len(inner):len(inner)]
			for _, it := range xargsItems(g, o) {
				run = w.count(run, cmdline.Arg{Text: it, Pos: pos})
			}
			runs = append(runs, run)
		}
		return runs
	}
	var items []cmdline.Arg
	for _, it := range xargsItems(in.text, o) {
		items = w.count(items, cmdline.Arg{Text: it, Pos: pos})
	}
	if repl, ok := cmdline.XargsRepl(o); ok {
		runs := make([][]cmdline.Arg, 0, len(items))
		for _, it := range items {
			cmd := make([]cmdline.Arg, len(inner))
			for i, a := range inner {
				a.Text = strings.ReplaceAll(a.Text, repl, it.Text)
				cmd[i] = a
			}
			runs = append(runs, cmd)
		}
		return runs
	}
	n := len(items)
	if v, ok := o.Get("n", "max-args"); ok {
		if k, err := strconv.Atoi(v.Text); err == nil && k > 0 {
			n = k
		}
	}
	var runs [][]cmdline.Arg
	for len(items) > 0 || runs == nil {
		k := min(n, len(items))
		runs = append(runs, append(inner[:len(inner):len(inner)], items[:k]...))
		items = items[k:]
	}
	return runs
}

// stdinOf is what a command with the redirections redirs reads on its
// standard input: a heredoc or here-string, a file (< FILE, when files is
// set), or else the pipe it is on the right of.
func (w *walker) stdinOf(redirs []*syntax.Redirect, st *shState, files bool) shOutput {
	var in shOutput
	if w.piped != nil && len(w.pipedSt.alt) == 0 {
		in = w.output(w.piped, w.pipedSt)
	}
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			in = shOutput{text: cmdline.RedirText(r, nil), known: true}
		case syntax.RdrIn:
			in = shOutput{}
			if t := w.expandWord(nil, r.Word, st); files && len(t) == 1 {
				in = w.fileOutput(t[0], st)
			}
		case syntax.RdrInOut, syntax.DplIn:
			in = shOutput{}
		}
	}
	return in
}

// xargsItems splits what xargs reads as xargs does: at NULs with -0, at
// the delimiter of -d, one item a line with -I (leading blanks dropped),
// else at blanks and newlines; '...', "..." and \ quote but for -0 and -d.
func xargsItems(text string, o cmdline.Opts) []string {
	if o.Has("0", "null") {
		return splitItems(text, "\x00")
	}
	if d, ok := o.Get("d", "delimiter"); ok {
		sep := d.Text
		if len(sep) > 1 && sep[0] == '\\' {
			b, _ := printfEscape(sep[1:])
			sep = string(b)
		}
		return splitItems(text, sep)
	}
	_, perLine := cmdline.XargsRepl(o)
	var items []string
	var b strings.Builder
	have := false
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
			continue
		case quote != 0 && c == '\n':
			return items // xargs stops at an unmatched quote
		case quote != 0:
		case c == '\'' || c == '"':
			quote, have = c, true
			continue
		case c == '\\' && i+1 < len(text):
			i++
			c = text[i]
		case c == '\n' || !perLine && (c == ' ' || c == '\t'):
			if have {
				items = append(items, b.String())
			}
			b.Reset()
			have = false
			continue
		case perLine && !have && (c == ' ' || c == '\t'):
			continue
		}
		b.WriteByte(c)
		have = true
	}
	if have && quote == 0 {
		items = append(items, b.String())
	}
	return items
}

// splitItems splits text at sep, a last empty item dropped.
func splitItems(text, sep string) []string {
	items := strings.Split(text, sep)
	if items[len(items)-1] == "" {
		items = items[:len(items)-1]
	}
	return items
}
