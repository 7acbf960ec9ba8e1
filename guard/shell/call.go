package shell

import (
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"mvdan.cc/sh/v3/syntax"
)

// call walks a simple command: its substitutions first, then what the
// command itself writes. Assignments alone set variables; before a
// command they are the command's, not the shell's. The words after the
// name are expanded only for a command run knows: globbing the words of
// any other would cost the disk reads for nothing.
func (w *walker) call(c *syntax.CallExpr, redirs []*syntax.Redirect, st *shState) {
	for _, a := range c.Assigns {
		w.substs(a, st)
	}
	for _, word := range c.Args {
		w.substs(word, st)
	}
	if len(c.Args) == 0 {
		w.assigns(c.Assigns, st, false)
		return
	}
	args := make([]cmdline.Arg, 0, len(c.Args))
	i := 0
	for ; len(args) == 0 && i < len(c.Args); i++ {
		args = w.expandWord(args, c.Args[i], st) // $EMPTY cmd runs cmd
	}
	if len(args) == 0 {
		return
	}
	name, ok := args[0].Lit()
	if !ok {
		return
	}
	if body, ok := w.funcs[name]; ok {
		w.callFunc(body, st, c.Args[0].Pos().Offset())
		return
	}
	if !shellCommand(cmdline.CommandName(name)) {
		return
	}
	for _, word := range c.Args[i:] {
		args = w.expandWord(args, word, st)
	}
	w.run(args, redirs, st)
}

// callFunc walks a function's body where it is called: it runs in the
// calling shell, so its cd counts.
func (w *walker) callFunc(body *syntax.Stmt, st *shState, pos uint) {
	if !w.deeper() {
		return
	}
	fixed, hasFixed := w.fixed, w.hasFixed
	if !hasFixed {
		w.fixed, w.hasFixed = pos, true
	}
	w.depth++
	w.stmt(body, st)
	w.depth--
	w.fixed, w.hasFixed = fixed, hasFixed
}

// shellCommand reports whether run knows the command; for any other one
// the arguments are not even converted.
func shellCommand(name string) bool { return handlerOf(name) != nil }

// shCall is a command that run hands to its handler: its name (as
// cmdline.CommandName gives it), the words after it, its redirections and where
// it runs.
type shCall struct {
	name   string
	args   []cmdline.Arg
	redirs []*syntax.Redirect
	st     *shState
	pos    uint // where the command's name lies in the source
}

// handlerOf is the table of the commands the analysis reads, each with
// the handler that finds what it writes; nil for any other command. A
// switch rather than a map, which would be built at every hook's start.
func handlerOf(name string) func(*walker, shCall) {
	switch name {
	case "cd":
		return func(_ *walker, c shCall) { cd(c.st, c.args) }
	case "pushd":
		return func(_ *walker, c shCall) { pushd(c.st, c.args) }
	case "popd":
		return func(_ *walker, c shCall) { popd(c.st, c.args) }
	case "unset", "read", "mapfile", "readarray", "printf", "shopt", "set", "source", ".", "eval", "exit":
		return func(_ *walker, c shCall) { setsVars(c.name, c.args, c.st) }
	case "find":
		return func(w *walker, c shCall) { w.find(c.args, c.st) }
	case "rm", "rmdir", "touch", "truncate", "tee", "shred", "unlink":
		return func(w *walker, c shCall) { w.operands(c.name, c.args, c.st) }
	case "chmod":
		return func(w *walker, c shCall) { w.chmod(c.args, c.st) }
	case "cp", "mv", "install", "ln":
		return func(w *walker, c shCall) { w.copyLike(c.name, c.args, c.st) }
	case "dd":
		return func(w *walker, c shCall) { w.dd(c.args, c.st) }
	case "sed":
		return func(w *walker, c shCall) { w.sed(c.args, c.st) }
	case "perl":
		return func(w *walker, c shCall) { w.perl(c.args, c.st) }
	case "git":
		return func(w *walker, c shCall) { w.git(c.args, c.st) }
	case "gofmt", "goimports":
		return func(w *walker, c shCall) { w.gofmt(c.name, c.args, c.st) }
	case "go":
		return func(w *walker, c shCall) { w.goTool(c.args, c.st) }
	case "prettier":
		return func(w *walker, c shCall) { w.prettier(c.args, c.st) }
	case "eslint":
		return func(w *walker, c shCall) { w.eslint(c.args, c.st) }
	case "black":
		return func(w *walker, c shCall) { w.black(c.args, c.st) }
	case "ruff":
		return func(w *walker, c shCall) { w.ruff(c.args, c.st) }
	case "isort":
		return func(w *walker, c shCall) { w.isort(c.args, c.st) }
	case "cargo":
		return func(w *walker, c shCall) { w.cargo(c.args, c.st) }
	case "rustfmt":
		return func(w *walker, c shCall) { w.rustfmt(c.args, c.st) }
	case "clang-format":
		return func(w *walker, c shCall) { w.clangFormat(c.args, c.st) }
	case "shfmt":
		return func(w *walker, c shCall) { w.shfmt(c.args, c.st) }
	case "npm":
		return func(w *walker, c shCall) { w.npm(c.args, c.redirs, c.st) }
	case "pnpm":
		return func(w *walker, c shCall) { w.pnpm(c.args, c.redirs, c.st) }
	case "yarn":
		return func(w *walker, c shCall) { w.yarn(c.args, c.redirs, c.st) }
	case "bun":
		return func(w *walker, c shCall) { w.bun(c.args, c.redirs, c.st) }
	case "bunx":
		return func(w *walker, c shCall) { w.bunx(c.args, c.redirs, c.st) }
	case "uv", "uvx":
		return func(w *walker, c shCall) { w.uv(c.name, c.args, c.redirs, c.st) }
	case "poetry":
		return func(w *walker, c shCall) { w.poetry(c.args, c.redirs, c.st) }
	case "pipx":
		return func(w *walker, c shCall) { w.pipx(c.args, c.redirs, c.st) }
	case "make", "gmake":
		return func(w *walker, c shCall) { w.make(c.args, c.st, c.pos) }
	case "tar", "gtar", "bsdtar":
		return func(w *walker, c shCall) { w.tar(c.args, c.redirs, c.st) }
	case "unzip":
		return func(w *walker, c shCall) { w.unzip(c.args, c.st) }
	case "rsync":
		return func(w *walker, c shCall) { w.rsync(c.args, c.st) }
	case "patch":
		return func(w *walker, c shCall) { w.patch(c.args, c.redirs, c.st) }
	case "awk", "gawk":
		return func(w *walker, c shCall) { w.awk(c.args, c.st) }
	case "ed":
		return func(w *walker, c shCall) { w.ed(c.args, c.redirs, c.st) }
	case "vim", "vi", "nvim", "ex", "view", "vimdiff", "rvim", "gvim":
		return func(w *walker, c shCall) { w.vim(c.name, c.args, c.redirs, c.st) }
	case "emacs", "emacs-nox":
		return func(w *walker, c shCall) { w.emacs(c.args, c.st) }
	case "curl", "wget", "sort":
		return func(w *walker, c shCall) { w.outputFlag(c.name, c.args, c.st) }
	case "node", "nodejs":
		return func(w *walker, c shCall) { w.node(c.args, c.redirs, c.st) }
	case "ruby":
		return func(w *walker, c shCall) { w.ruby(c.args, c.redirs, c.st) }
	case "pwsh", "powershell", "pwsh.exe", "powershell.exe":
		return func(w *walker, c shCall) { w.pwshCommand(c.name, c.args, c.st, c.pos) }
	}
	switch {
	case cmdline.IsWrapper(name):
		return func(w *walker, c shCall) { w.wrapper(c.name, c.args, c.redirs, c.st) }
	case cmdline.IsShell(name):
		return func(w *walker, c shCall) { w.shell(c.args, c.redirs, c.st) }
	case isPython(name):
		return func(w *walker, c shCall) { w.python(c.args, c.redirs, c.st) }
	case isVersioned(name, "clang-format"):
		return func(w *walker, c shCall) { w.clangFormat(c.args, c.st) }
	}
	return nil
}

// isVersioned reports whether name is base with a version after a dash,
// as Debian installs clang-format-19.
func isVersioned(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base+"-")
	return ok && rest != "" && strings.Trim(rest, "0123456789.") == ""
}

func isPython(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	return ok && strings.Trim(rest, "0123456789.") == ""
}

// run dispatches a command whose words are args (args[0] is its name).
func (w *walker) run(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	if len(args) == 0 || !w.budget() {
		return
	}
	s, ok := args[0].Lit()
	if !ok {
		return
	}
	name := cmdline.CommandName(s)
	if h := handlerOf(name); h != nil {
		h(w, shCall{name: name, args: args[1:], redirs: redirs, st: st, pos: args[0].Pos})
	}
}

// dd writes the file of its of= operand.
func (w *walker) dd(args []cmdline.Arg, st *shState) {
	for _, a := range args {
		if strings.HasPrefix(a.Text, "of=") {
			w.open(st, cmdline.Arg{Text: a.Text[3:], Multi: a.Multi, Pos: a.Pos}, "dd")
		}
	}
}

// operandSpec is the options that take an argument of the commands whose
// operands are all written (rm, touch, tee...).
func operandSpec(name string) cmdline.Spec {
	switch name {
	case "touch":
		return cmdline.Spec{Args: "dtr", Long: []string{"date", "reference", "time"}}
	case "tee":
		return cmdline.Spec{Long: []string{"output-error"}}
	case "truncate":
		return cmdline.Spec{Args: "sr", Long: []string{"size", "reference"}}
	case "shred":
		return cmdline.Spec{Args: "ns", Long: []string{"iterations", "size", "random-source"}}
	}
	return cmdline.Spec{}
}

// operands records the operands of rm, touch, tee and the like. rm,
// rmdir and unlink remove a symbolic link itself; the others open the file
// and write through a link to its target (touch -h excepted).
func (w *walker) operands(name string, args []cmdline.Arg, st *shState) {
	o := cmdline.ParseOpts(args, operandSpec(name))
	if o.Informational() {
		return
	}
	opens := true
	switch name {
	case "rm", "rmdir", "unlink":
		opens = false
	case "touch":
		opens = !o.Has("h", "no-dereference")
	}
	for _, a := range o.Ops {
		w.writeArg(st, a, name, opens)
	}
}

// chmod changes a file's mode, which git records. Its mode may look like
// an option (-x, -w).
func (w *walker) chmod(args []cmdline.Arg, st *shState) {
	var kept []cmdline.Arg
	for _, a := range args {
		if s, ok := a.Lit(); ok && len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "rwxXstugoa+-=,01234567") == "" {
			a.Text = "+" + s[1:] // a mode, not an option
		}
		kept = append(kept, a)
	}
	o := cmdline.ParseOpts(kept, cmdline.Spec{Long: []string{"reference"}})
	if o.Informational() {
		return
	}
	files := o.Ops
	if _, ok := o.Get("reference"); !ok && len(files) > 0 {
		files = files[1:]
	}
	// A link's own mode does not exist on Linux: chmod changes its target.
	opens := !o.Has("h", "no-dereference")
	for _, a := range files {
		w.writeArg(st, a, "chmod", opens)
	}
}

// copyLike handles cp, mv, ln and install: the last operand, or -t DIR, is
// the destination; into a folder each source keeps its base name. mv also
// removes its sources.
func (w *walker) copyLike(name string, args []cmdline.Arg, st *shState) {
	spec := cmdline.Spec{Args: "tS", Long: []string{"target-directory", "suffix"}}
	if name == "install" {
		spec = cmdline.Spec{Args: "tSmog", Long: []string{"target-directory", "suffix", "mode", "owner", "group", "strip-program"}}
	}
	o := cmdline.ParseOpts(args, spec)
	if o.Informational() {
		return
	}
	if name == "install" && o.Has("d", "directory") {
		for _, a := range o.Ops {
			w.write(st, a, name)
		}
		return
	}
	if name == "ln" {
		defer w.links(st, o)
	}
	if name == "ln" && len(o.Ops) == 1 {
		if _, ok := o.Get("t", "target-directory"); !ok {
			w.into(st, cmdline.Arg{Text: ".", Pos: o.Ops[0].Pos}, o.Ops, name, false, false)
			return
		}
	}
	w.copyOps(st, o, name, name == "mv")
}

// links follows what ln, whose options and operands are o, links to. A
// hard link is one more name by which a file's bytes are written out of
// the guard's sight: its source counts as written. A symbolic link into
// lucid's or lich's state (lucid's folder of a git dir) is a write there.
// And a symbolic link the line makes is known to the rest of the line, so
// that a write through it resolves where the kernel will put it (ln -s
// .git/lucid x && : > x/claims writes the claims).
func (w *walker) links(st *shState, o cmdline.Opts) {
	symbolic := o.Has("s", "symbolic")
	srcs := o.Ops
	t, toDir := o.Get("t", "target-directory")
	switch {
	case toDir:
	case len(srcs) == 1:
		t, toDir = cmdline.Arg{Text: ".", Pos: srcs[0].Pos}, true
	case len(srcs) > 1:
		t, srcs = srcs[len(srcs)-1], srcs[:len(srcs)-1]
	default:
		return
	}
	dest, ok := st.path(t)
	if !ok {
		return
	}
	if !toDir && !o.Has("T", "no-target-directory") &&
		(len(srcs) > 1 || strings.HasSuffix(t.Text, "/") || !o.Has("n", "no-dereference") && w.kindAt(st, dest) == realpath.Dir) {
		toDir = true
	}
	for _, src := range srcs {
		s, ok := src.Lit()
		if !ok || s == "" {
			continue
		}
		link := dest
		if toDir {
			link = filepath.Join(dest, filepath.Base(filepath.Clean(s)))
		}
		if !symbolic {
			w.write(st, src, "ln")
			continue
		}
		at := s
		if !filepath.IsAbs(at) {
			at = filepath.Join(filepath.Dir(link), at)
		}
		real, _ := realpath.Resolve(w.fs, "/", at, true)
		if _, inState := gitstore.StateDir(real); inState {
			w.record(Write{Path: real, By: "ln -s"}, src.Pos)
		}
		if m, ok := w.fs.(*memoFS); ok {
			m.link(link, s)
		}
	}
}

// copyOps records the destinations of a copy or a move whose options and
// operands are o; a move also removes its sources. Only cp writes into an
// existing destination, through a symbolic link to its target: mv and
// git mv rename onto it, install and ln remove it first.
func (w *walker) copyOps(st *shState, o cmdline.Opts, by string, move bool) {
	opens := by == "cp"
	srcs := o.Ops
	t, toDir := o.Get("t", "target-directory")
	if !toDir {
		if len(srcs) < 2 {
			return
		}
		t, srcs = srcs[len(srcs)-1], srcs[:len(srcs)-1]
	}
	if move {
		for _, a := range srcs {
			w.write(st, a, by)
		}
	}
	if !toDir && o.Has("T", "no-target-directory") {
		w.writeArg(st, t, by, opens)
		return
	}
	p, ok := st.path(t)
	if !ok {
		return
	}
	known := 0
	for _, a := range srcs {
		if !a.Multi {
			known++
		}
	}
	// ln -n and ln -T take a link to a folder as the link to replace.
	follow := !(by == "ln" && o.Has("n", "no-dereference"))
	if toDir || known > 1 || strings.HasSuffix(t.Text, "/") || o.Has("parents") || follow && w.kindAt(st, p) == realpath.Dir {
		w.into(st, t, srcs, by, o.Has("parents"), opens)
		return
	}
	w.writeArg(st, t, by, opens)
}

// into records dir/base(src) for each source copied into folder dir, or
// dir/src with --parents.
func (w *walker) into(st *shState, dir cmdline.Arg, srcs []cmdline.Arg, by string, parents, opens bool) {
	d, ok := st.path(dir)
	if !ok {
		return
	}
	for _, src := range srcs {
		s, ok := src.Lit()
		if !ok || s == "" {
			continue
		}
		var rel string
		if parents {
			rel = filepath.Clean("/" + s)[1:]
		} else {
			rel = filepath.Base(filepath.Clean(s))
			switch {
			case s == "." || strings.HasSuffix(s, "/."):
				rel = "." // cp -r dir/. dest copies what dir holds into dest
			case rel == ".." || rel == "/" || strings.HasSuffix(s, "/.."):
				continue
			}
		}
		w.writePath(st, d+"/"+rel, by, dir.Pos, opens)
	}
}

// cd follows cd DIR; no argument, cd -, and what cannot be resolved make
// the directory unknown. Like bash, cd takes DIR as written (link/.. is
// where it started), and cd -P as the kernel resolves it.
func cd(st *shState, args []cmdline.Arg) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Stop: true})
	if len(o.Ops) == 0 {
		st.dir = ""
		return
	}
	if o.Ops[0].Is("") {
		return // cd "" stays
	}
	p, ok := st.path(o.Ops[0])
	if !ok || o.Ops[0].Is("-") {
		st.dir = ""
		return
	}
	if o.Has("P") {
		st.dir, _ = realpath.Resolve(st.fs, "/", p, true)
		return
	}
	st.dir = filepath.Clean(p)
}

// setsVars follows the builtins that set variables or how words expand:
// unset empties them; read, mapfile and printf -v set them to what is not
// known; source and eval may set any; set -f turns globs off, shopt
// changes how they match; exit ends the shell.
func setsVars(name string, args []cmdline.Arg, st *shState) {
	switch name {
	case "unset":
		o := cmdline.ParseOpts(args, cmdline.Spec{})
		if o.Has("f") {
			return // functions
		}
		for _, a := range o.Ops {
			st.set(a.Text, "", true, false)
		}
	case "read", "mapfile", "readarray":
		o := cmdline.ParseOpts(args, cmdline.Spec{Args: "adinNptuCcs"})
		if a, ok := o.Get("a"); ok {
			st.set(a.Text, "", false, false)
		}
		for _, a := range o.Ops {
			st.set(a.Text, "", false, false)
		}
		if name != "read" && len(o.Ops) == 0 {
			st.set("MAPFILE", "", false, false)
		}
	case "printf":
		if o := cmdline.ParseOpts(args, cmdline.Spec{Args: "v", Stop: true}); o.Has("v") {
			v, _ := o.Get("v")
			st.set(v.Text, "", false, false)
		}
	case "source", ".", "eval":
		for _, v := range st.vars {
			st.set(v.name, "", false, false)
		}
	case "shopt":
		st.glob = globUnknown
	case "set":
		for _, a := range args {
			switch {
			case a.Text == "noglob":
				st.glob = globOff
			case strings.HasPrefix(a.Text, "-") && strings.Contains(a.Text, "f") && !strings.HasPrefix(a.Text, "--"):
				st.glob = globOff
			case strings.HasPrefix(a.Text, "+") && strings.Contains(a.Text, "f"):
				st.glob = globOn
			}
		}
	case "exit":
		st.exited = true
	}
}

func pushd(st *shState, args []cmdline.Arg) {
	if len(args) != 1 || strings.HasPrefix(args[0].Text, "-") || strings.HasPrefix(args[0].Text, "+") {
		st.dir = "" // swapping or rotating a stack this command did not build
		return
	}
	st.stack = append(st.stack, st.dir)
	cd(st, args)
}

func popd(st *shState, args []cmdline.Arg) {
	if len(args) != 0 || len(st.stack) == 0 {
		st.dir = ""
		return
	}
	st.dir = st.stack[len(st.stack)-1]
	st.stack = st.stack[:len(st.stack)-1]
}

// gofmt -w and goimports -w rewrite the files they are given, and the .go
// files under the folders they are given. Their flags are Go flags: -name, --name, -name=value, and they end at
// the first operand or after --.
func (w *walker) gofmt(name string, args []cmdline.Arg, st *shState) {
	write := false
	i := 0
	for ; i < len(args); i++ {
		flag, ok := args[i].Lit()
		if !ok || !strings.HasPrefix(flag, "-") || flag == "-" {
			break
		}
		if flag == "--" {
			i++
			break
		}
		flag, val, hasVal := strings.Cut(strings.TrimLeft(flag, "-"), "=")
		switch {
		case flag == "w":
			write = !hasVal || val == "true" || val == "1"
		case !hasVal && (flag == "r" || flag == "cpuprofile" || flag == "local" || flag == "srcdir"):
			i++
		}
	}
	if !write {
		return
	}
	for _, a := range args[min(i, len(args)):] {
		w.fmtWrite(st, a, globGo, name+" -w", false)
	}
}

// goTool finds the files the go command writes: those go build and go
// test are told to write (-o, -coverprofile), the .go files go fmt and
// go fix rewrite (goFmt), and the go.mod and go.sum that go mod tidy and
// its kin rewrite (goMod). -C DIR, before the subcommand or right after
// it, moves it.
func (w *walker) goTool(args []cmdline.Arg, st *shState) {
	args, st = goChdir(args, st)
	if len(args) == 0 {
		return
	}
	switch sub := args[0].Text; sub {
	case "fmt", "fix":
		rest, st := goChdir(args[1:], st)
		w.goFmt(sub, rest, st)
		return
	case "mod", "get":
		rest, st := goChdir(args[1:], st)
		w.goMod(sub, rest, st)
		return
	case "build", "test":
	default:
		return
	}
	sub := args[0].Text
	for i := 1; i < len(args); i++ {
		s, ok := args[i].Lit()
		if !ok || !strings.HasPrefix(s, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(s, "-"), "=")
		if name == "args" {
			return // the rest goes to the test binary
		}
		if name != "o" && name != "coverprofile" && name != "test.coverprofile" {
			continue
		}
		target := cmdline.Arg{Text: val, Pos: args[i].Pos}
		if !hasVal {
			if i+1 >= len(args) {
				return
			}
			i++
			target = args[i]
		}
		// go build -o moves the binary into place; a profile is opened.
		w.writeArg(st, target, "go "+sub+" -"+name, name != "o")
	}
}

// goChdir takes the go command's -C DIR (also -C=DIR, --C) off the front
// of args, and moves st there as go does.
func goChdir(args []cmdline.Arg, st *shState) ([]cmdline.Arg, *shState) {
	for len(args) > 0 {
		name, val, hasVal := strings.Cut(strings.TrimLeft(args[0].Text, "-"), "=")
		if !strings.HasPrefix(args[0].Text, "-") || name != "C" {
			break
		}
		d := cmdline.Arg{Text: val, Pos: args[0].Pos}
		if !hasVal {
			if len(args) < 2 {
				return nil, st
			}
			d, args = args[1], args[1:]
		}
		st, args = chdir(st, d), args[1:]
	}
	return args, st
}

// outputFlag handles curl -o, wget -O and sort -o, which name the file
// they write in an option.
func (w *walker) outputFlag(name string, args []cmdline.Arg, st *shState) {
	var spec cmdline.Spec
	var flag, long string
	switch name {
	case "curl":
		// Every curl short option that takes an argument, so that a
		// bundle like -sSLo stays apart from -H 'x: y'.
		spec = cmdline.Spec{Args: "AbcCdDeEFHKmoPQrtTuUwxXyYz", Long: []string{"output", "data", "header", "user-agent", "request", "url", "form", "user", "cookie", "cookie-jar", "config", "write-out"}}
		flag, long = "o", "output"
	case "wget":
		spec = cmdline.Spec{Args: "oaeiBtOTwQPUlARDIX", Long: []string{"output-document", "output-file", "append-output", "directory-prefix"}}
		flag, long = "O", "output-document"
	case "sort":
		spec = cmdline.Spec{Args: "ktoST", Long: []string{"key", "field-separator", "output", "buffer-size", "temporary-directory"}}
		flag, long = "o", "output"
	}
	o := cmdline.ParseOpts(args, spec)
	if o.Informational() {
		return
	}
	for _, f := range o.Flags {
		if (f.Name == flag || f.Name == long) && f.Has && !f.Val.Is("-") {
			w.open(st, f.Val, name+" -"+flag)
		}
	}
}
