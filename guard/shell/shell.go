package shell

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/gitpredict"
	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/guard/winpath"
	"mvdan.cc/sh/v3/syntax"
)

// Write is one path a command writes.
type Write struct {
	// Path is absolute and clean, where the kernel puts the write,
	// resolved from the directory the command has reached: every symbolic
	// link below it followed, and a .. taken after the link before it, so
	// none is left (the directory itself is spelled as the shell spells
	// it, unless a .. climbs out of it). A command that opens a file (>,
	// tee, cp) through a symbolic link writes its target: both are
	// reported. Path may name a folder (rm -r, cp -r, git checkout --
	// dir): everything under it is written.
	Path string
	// Under, when not "", is a doublestar glob relative to the folder
	// Path: the command writes the paths under Path that it matches, and
	// only those (find build -name '*.o' -delete is build and "**/*.o").
	// The files that find hands to -exec or xargs are not known one by one,
	// but where they lie is.
	Under string
	// By says what writes it, for a message to the model: ">", ">>",
	// "tee", "cp", "mv", "rm", "sed -i", "python open()", "git checkout"...
	By string
	// Format is set when the writer is a formatter or a fixer (gofmt -w,
	// prettier --write, eslint --fix, black): it rewrites, of the files
	// Path and Under name, only those it parses as its language's source,
	// and leaves any other as it is.
	Format bool
}

// Writes returns the paths that command, run in cwd (absolute),
// writes, in the order they appear, each once. What is literally in the
// command and can be resolved is: globs and braces, variables the command
// sets, $HOME and ~, a few command substitutions and piped outputs (see
// Analyze); the scripts of package.json and the recipes of a
// Makefile that npm run and make run, as the lines they are. What cannot
// (a variable from elsewhere, eval, script files, a script or recipe
// that cannot be read) is left out: it never denies. A command that does
// not parse returns nil.
func Writes(command, cwd string) []Write {
	return Analyze(command, cwd).Writes
}

// Analysis is what lucid can tell of a shell command before it runs.
type Analysis struct {
	// Writes are the paths the command writes, as Writes gives them.
	Writes []Write
	// Git are the git commands in the line that change files of git's own
	// choosing (git stash, checkout BRANCH, merge, reset --hard...): what
	// they change is asked of git itself (gitpredict.Op.Changes).
	Git []gitpredict.Op
	// Unsure, when not "", says why the analysis could not read the whole
	// command, in a sentence for the model: it is too long, nests too
	// deep, expands to more words than lucid looks at, or applies a patch
	// or runs a Makefile larger than lucid reads. Writes and Git
	// hold what was found before it stopped and may miss some; the caller
	// must not take the command as harmless.
	Unsure string
}

// Analyze reads command, run in cwd (absolute), for what it writes.
// It expands words as bash would, as far as the command line and the disk
// tell: braces; globs, matched against the disk; variables the command
// sets to known values, loop variables over known lists, $PWD, and $HOME
// and ~ from this process's environment; $(pwd), $(git rev-parse
// --show-toplevel) and --show-cdup, $(dirname X), $(basename X); and what
// xargs or a shell reads from echo, printf '%s\n', ls, cat or find on the
// left of a pipe, or from xargs -a FILE. After branches that end in
// different directories, what follows is read in each (a few at most).
// What it reads of the disk besides (package.json, Makefiles, go.mod,
// tools' configs, archives, patches) it reads only for a command that
// runs them.
// A command that does not parse gives an empty analysis: the shell would
// not run it either.
func Analyze(command, cwd string) Analysis {
	return analyze(command, cwd, os.Getenv("HOME"), osFS{})
}

// maxShellSteps is the statements and calls walked per command: with
// cmdline.MaxDepth and cmdline.MaxBytes, it keeps hostile input from
// costing more than a hook may spend. Past it, what is left is not looked
// at and the analysis says so (Analysis.Unsure).
const maxShellSteps = 4096

// The reasons the analysis gives for stopping short, for the model to read.
const (
	unsureSteps  = "the command is too long or too nested for lucid to check (over 4096 steps): split it, or write a script"
	unsureDepth  = "the command nests shells or function calls more than 8 deep for lucid to check: split it, or write a script"
	unsureBytes  = "the command is over 1 MiB, more than lucid reads: split it, or write a script"
	unsureNested = "the command's nested scripts (bash -c, heredocs fed to a shell) hold over 1 MiB in all, more than lucid reads: split it, or write a script"
)

func analyze(command, cwd, home string, fsys shellFS) Analysis {
	if len(command) > cmdline.MaxBytes {
		return Analysis{Unsure: unsureBytes}
	}
	f := cmdline.Parse(command)
	if f == nil {
		return Analysis{}
	}
	mfs := &memoFS{shellFS: fsys}
	w := &walker{fs: mfs}
	st := &shState{fs: mfs}
	if filepath.IsAbs(cwd) {
		st.dir = filepath.Clean(cwd)
	}
	if filepath.IsAbs(home) {
		st.set("HOME", filepath.Clean(home), true, true)
	}
	w.stmts(f.Stmts, st)
	return Analysis{Writes: w.result(), Git: w.gitOps, Unsure: w.unsure}
}

// walker walks a parsed command in the order the shell runs it.
type walker struct {
	fs    shellFS
	out   []Write
	pos   []uint // source offset of each write in out, to order them
	funcs map[string]*syntax.Stmt
	// scripts caches the bash -c strings parsed, so that a function called
	// many times parses its nested scripts once.
	scripts map[string]*syntax.File
	// piped, while the right side of a pipe is walked, is its left side
	// and the state it runs in: xargs or a shell there may read what it
	// prints (see stdinOf), which is worked out only then.
	piped   *syntax.Stmt
	pipedSt *shState
	// fixed, when set, is the offset every write gets: the bash -c word or
	// the call of a function whose body sits elsewhere in the source.
	fixed uint
	// gitOps are the git commands whose writes git decides (gitpredict.Op).
	gitOps []gitpredict.Op
	// unsure says why the walk stopped short, when it did.
	unsure string
	// files is what the walk read of the files that say what a command
	// does; nil until a command reads one.
	files *shellFiles
	// depth and steps count shells and statements entered, words and
	// reads what expansion made and read, and parsed the bytes of nested
	// scripts parsed, for their bounds. 32 bits are enough for each, and
	// keep the walker, allocated for every command, in a small size class.
	depth, steps, words, reads, parsed int32
	hasFixed                           bool
}

// shellFiles is what one analysis read of the files that say what a
// command does, each file once: the scripts of each package.json by its
// folder (nil: none that can be read), each Makefile read, and each file
// readConfig read.
type shellFiles struct {
	packages  map[string]map[string]string
	makefiles map[string]*makefile
	configs   map[string]config
}

// cache is w.files, made when a command first reads a file.
func (w *walker) cache() *shellFiles {
	if w.files == nil {
		w.files = &shellFiles{packages: map[string]map[string]string{}, makefiles: map[string]*makefile{}, configs: map[string]config{}}
	}
	return w.files
}

// shState is what the shell knows at a point of the command: its
// directory as far as it is known ("" when not), the variables the
// command set, and the disk it runs on.
type shState struct {
	// dir is the directory as the shell names it ($PWD): cd follows
	// paths as written, .. included, as bash's cd does.
	dir string
	// alt are the other directories the shell may be in, after branches
	// that ended in different ones; each statement is then read in each.
	alt   []string
	stack []string // pushd's stack, from this command only
	vars  []shVar  // latest last
	glob  globMode
	// exited is set once the shell ran exit: nothing after runs.
	exited bool
	fs     shellFS
}

func (st *shState) clone() *shState {
	return &shState{dir: st.dir, alt: slices.Clip(st.alt), stack: slices.Clip(st.stack),
		vars: slices.Clip(st.vars), glob: st.glob, fs: st.fs}
}

// path is where an argument leads from the shell's directory, absolute
// but not cleaned: a .. in it is the kernel's to take (see realpath.Resolve). It
// reports false when the argument or the directory is not known.
func (st *shState) path(a cmdline.Arg) (string, bool) {
	s, ok := a.Lit()
	if runtime.GOOS == "windows" {
		// Git Bash, the shell of Claude Code on Windows, spells C:\x as
		// /c/x, which Windows reads as \c\x on the current drive.
		if w, bash := winpath.FromGitBash(s); bash {
			s = w
		}
	}
	switch {
	case !ok || s == "":
		return "", false
	case filepath.IsAbs(s):
		return s, true
	case st.dir == "":
		return "", false
	}
	return st.dir + "/" + s, true
}

// resolve turns an argument into an absolute clean path as the shell
// writes it (cd's idea of a path: .. removes the name before it), or
// reports that it cannot.
func (st *shState) resolve(a cmdline.Arg) (string, bool) {
	p, ok := st.path(a)
	if !ok {
		return "", false
	}
	return filepath.Clean(p), true
}

// write records that the path a names is replaced or removed (rm, mv, ln,
// git checkout): a symbolic link there is itself what changes.
func (w *walker) write(st *shState, a cmdline.Arg, by string) {
	w.writeArg(st, a, by, false)
}

// open records that the command opens the file a names and writes into
// it (>, tee, cp's destination, touch): through a symbolic link there,
// the link's target is written, a dangling link's created.
func (w *walker) open(st *shState, a cmdline.Arg, by string) {
	w.writeArg(st, a, by, true)
}

func (w *walker) writeArg(st *shState, a cmdline.Arg, by string, opens bool) {
	if a.Under != "" {
		base, rel := st.from(a.Text)
		p, _ := realpath.Resolve(w.fs, base, rel, true)
		w.record(Write{Path: p, Under: a.Under, By: by}, a.Pos)
		return
	}
	if p, ok := st.path(a); ok {
		w.writePath(st, p, by, a.Pos, opens)
	}
}

// writePath records a write to the absolute path p where the kernel puts
// it (see physical).
func (w *walker) writePath(st *shState, p, by string, pos uint, opens bool) {
	path, target := w.physical(st, p, opens)
	w.record(Write{Path: path, By: by}, pos)
	if target != "" {
		w.record(Write{Path: target, By: by}, pos)
	}
}

func (w *walker) record(sw Write, pos uint) {
	if p := sw.Path; p == "/dev" || strings.HasPrefix(p, "/dev/") || p == "/proc" || strings.HasPrefix(p, "/proc/") {
		return
	}
	if w.hasFixed {
		pos = w.fixed
	}
	if w.out == nil {
		w.out, w.pos = make([]Write, 0, 4), make([]uint, 0, 4)
	}
	w.out = append(w.out, sw)
	w.pos = append(w.pos, pos)
}

// result is the writes in source order, each path (and Under) once: its
// first writer.
func (w *walker) result() []Write {
	if len(w.out) == 0 {
		return nil
	}
	idx := make([]int, len(w.out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case w.pos[a] < w.pos[b]:
			return -1
		case w.pos[a] > w.pos[b]:
			return 1
		}
		return 0
	})
	res := make([]Write, 0, len(idx))
	var seen map[string]bool // only for long lists: a scan is cheaper for a few
	for _, i := range idx {
		p, under := w.out[i].Path, w.out[i].Under
		if under != "" {
			p += "\x00" + under
		}
		switch {
		case len(idx) <= 16:
			if slices.ContainsFunc(res, func(s Write) bool { return s.Path == w.out[i].Path && s.Under == under }) {
				continue
			}
		case seen[p]:
			continue
		default:
			if seen == nil {
				seen = make(map[string]bool, len(idx))
			}
			seen[p] = true
		}
		res = append(res, w.out[i])
	}
	return res
}

// budget counts one step and reports whether the walk may go on.
func (w *walker) budget() bool {
	w.steps++
	if w.steps > maxShellSteps {
		w.stop(unsureSteps)
		return false
	}
	return true
}

// deeper reports whether the walk may enter one more shell or function
// call.
func (w *walker) deeper() bool {
	if w.depth >= cmdline.MaxDepth {
		w.stop(unsureDepth)
		return false
	}
	return true
}

// stop records why the walk leaves part of the command unread; the first
// reason is the one given.
func (w *walker) stop(reason string) {
	if w.unsure == "" {
		w.unsure = reason
	}
}

func (w *walker) stmts(list []*syntax.Stmt, st *shState) {
	for _, s := range list {
		w.stmt(s, st)
	}
}

func (w *walker) stmt(s *syntax.Stmt, st *shState) {
	if s == nil {
		return
	}
	if st.exited {
		return
	}
	if len(st.alt) > 0 {
		w.forked(s, st)
		return
	}
	if !w.budget() {
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		st = st.clone() // runs in a subshell: a cd there stays there
	}
	// The shell opens the redirections before the command runs, in the
	// directory it is in then.
	for _, r := range s.Redirs {
		w.redirect(r, st)
	}
	w.command(s, st)
}

func (w *walker) command(s *syntax.Stmt, st *shState) {
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		w.call(c, s.Redirs, st)
	case *syntax.BinaryCmd:
		w.binary(c, st)
	case *syntax.Subshell:
		w.stmts(c.Stmts, st.clone())
	case *syntax.Block:
		w.stmts(c.Stmts, st)
	case *syntax.IfClause:
		w.ifClause(c, st)
	case *syntax.WhileClause:
		w.loop(c.Cond, c.Do, st, nil)
	case *syntax.ForClause:
		w.forClause(c, st)
	case *syntax.CaseClause:
		w.substs(c.Word, st)
		ends := []*shState{st.clone()} // no pattern matched
		for _, item := range c.Items {
			b := st.clone()
			w.stmts(item.Stmts, b)
			ends = append(ends, b)
		}
		w.join(st, ends)
	case *syntax.FuncDecl:
		if c.Name != nil && c.Body != nil {
			if w.funcs == nil {
				w.funcs = map[string]*syntax.Stmt{}
			}
			w.funcs[c.Name.Value] = c.Body
		}
	case *syntax.TimeClause:
		w.stmt(c.Stmt, st)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, st.clone())
	case *syntax.DeclClause:
		w.substs(c, st)
		w.declare(c, st)
	default:
		// [[ ]], (( )), let, declare/local/export: they write nothing
		// themselves, but a $( ) inside them runs.
		w.substs(c, st)
	}
}

// binary walks a && b, a || b and pipelines. Each element of a pipeline
// runs in its own subshell. After a && b both ran; a || b runs b in the
// directory a started from when a is a failed cd.
func (w *walker) binary(c *syntax.BinaryCmd, st *shState) {
	switch c.Op {
	case syntax.Pipe, syntax.PipeAll:
		w.stmt(c.X, st.clone())
		piped, pipedSt := w.piped, w.pipedSt
		w.piped, w.pipedSt = c.X, st.clone()
		w.stmt(c.Y, st.clone())
		w.piped, w.pipedSt = piped, pipedSt
	case syntax.AndStmt:
		w.stmt(c.X, st)
		w.stmt(c.Y, st)
	case syntax.OrStmt:
		before := st.clone()
		w.stmt(c.X, st)
		// Y runs when X failed: before X changed anything, or after (a
		// plain cd that fails changes nothing).
		y := before
		if !changesDir(c.X) {
			w.join(y, []*shState{before.clone(), st.clone()})
		}
		w.stmt(c.Y, y)
		w.join(st, []*shState{st.clone(), y})
	}
}

// changesDir reports whether s is a plain cd, pushd or popd, which changes
// nothing when it fails.
func changesDir(s *syntax.Stmt) bool {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	switch call.Args[0].Lit() {
	case "cd", "pushd", "popd":
		return true
	}
	return false
}

func (w *walker) ifClause(c *syntax.IfClause, st *shState) {
	w.stmts(c.Cond, st)
	then := st.clone()
	w.stmts(c.Then, then)
	ends := []*shState{then}
	switch {
	case c.Else == nil:
		ends = append(ends, st.clone())
	case len(c.Else.Cond) == 0: // else
		b := st.clone()
		w.stmts(c.Else.Then, b)
		ends = append(ends, b)
	default: // elif
		b := st.clone()
		w.ifClause(c.Else, b)
		ends = append(ends, b)
	}
	w.join(st, ends)
}

// forClause walks a for loop: over a list of known words, its body once
// for each; otherwise once, as any loop (see loop).
func (w *walker) forClause(c *syntax.ForClause, st *shState) {
	it, ok := c.Loop.(*syntax.WordIter)
	if !ok {
		w.loop(nil, c.Do, st, nil)
		return
	}
	for _, word := range it.Items {
		w.substs(word, st)
	}
	if it.InPos.IsValid() {
		items := w.expand(it.Items, st)
		if !slices.ContainsFunc(items, func(a cmdline.Arg) bool { _, ok := a.Lit(); return !ok }) {
			if len(items) > maxLoopRuns {
				w.stop(unsureLoop)
				items = items[:maxLoopRuns]
			}
			for _, a := range items {
				st.set(it.Name.Value, a.Text, true, false)
				w.stmts(c.Do, st)
			}
			return
		}
	}
	w.loop(nil, c.Do, st, []string{it.Name.Value})
}

// loop walks a loop whose body runs a number of times not known: once,
// with the variables it sets (and vars) not known, before and after. When
// the body moves the shell, the directory after is not known.
func (w *walker) loop(cond, body []*syntax.Stmt, st *shState, vars []string) {
	vars = append(append(vars, assignedIn(cond)...), assignedIn(body)...)
	for _, v := range vars {
		st.set(v, "", false, false)
	}
	before := st.dirs()
	w.stmts(cond, st)
	w.stmts(body, st)
	if !slices.Equal(st.dirs(), before) {
		st.dir, st.alt = "", nil
	}
	for _, v := range vars {
		st.set(v, "", false, false)
	}
}

// redirect records the file a redirection writes. Duplicating a
// descriptor (2>&1, >&-) writes none; `>& file` writes file. A target
// that expands to more than one word is an ambiguous redirect: bash
// writes nothing.
func (w *walker) redirect(r *syntax.Redirect, st *shState) {
	if r.Word != nil {
		w.substs(r.Word, st)
	}
	if r.Hdoc != nil {
		w.substs(r.Hdoc, st)
	}
	var by string
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
		syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
		by = r.Op.String()
	case syntax.DplOut:
		// `>& file` writes file; `>&2`, `>&-` and `>&2-` only move descriptors.
		s, ok := cmdline.ArgOf(r.Word).Lit()
		if !ok || s == "-" || strings.Trim(s, "0123456789") == "" || strings.HasSuffix(s, "-") {
			return
		}
		by = r.Op.String()
	default:
		return
	}
	if r.N != nil {
		by = r.N.Value + by
	}
	if target := w.expandWord(nil, r.Word, st); len(target) == 1 {
		w.open(st, target[0], by)
	}
}

// substs walks the command substitutions inside node, each in a subshell.
func (w *walker) substs(node syntax.Node, st *shState) {
	if node == nil {
		return
	}
	if word, ok := node.(*syntax.Word); ok && plainWord(word) {
		return // most words: nothing to walk
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(n.Stmts, st.clone())
			return false
		case *syntax.ProcSubst:
			w.stmts(n.Stmts, st.clone())
			return false
		}
		return true
	})
}

// script walks src, the text of bash -c or of a heredoc fed to a shell, as
// a new shell process started in st's directory.
func (w *walker) script(src string, st *shState, pos uint) {
	if !w.deeper() {
		return
	}
	f, ok := w.scripts[src]
	if !ok {
		// Nested heredocs can each hold the rest of the line: what is
		// parsed in all is bounded like the line.
		if w.parsed += int32(min(len(src), cmdline.MaxBytes+1)); w.parsed > cmdline.MaxBytes {
			w.stop(unsureNested)
			return
		}
		f = cmdline.Parse(src)
		if w.scripts == nil {
			w.scripts = map[string]*syntax.File{}
		}
		w.scripts[src] = f
	}
	if f == nil {
		return
	}
	saved := *w
	w.depth++
	w.funcs = nil
	if !w.hasFixed {
		w.fixed, w.hasFixed = pos, true
	}
	w.stmts(f.Stmts, st.child())
	w.depth, w.funcs, w.fixed, w.hasFixed = saved.depth, saved.funcs, saved.fixed, saved.hasFixed
}

// plainWord reports whether a word is only literal text and quotes, so
// that it cannot hold a command substitution.
func plainWord(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}
