package shell

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"mvdan.cc/sh/v3/syntax"
)

// What is literally in a command and can be resolved, is: the walker
// expands words as bash does, in bash's order (braces, tilde, variables
// and command substitutions, field splitting, globs, quote removal), as
// far as the command line and the disk tell. A variable the line sets to
// a known value, $HOME, $PWD, the output of a few commands (see output)
// and globs against the disk are known; anything else stays cmdline.Unknown.

// Bounds on what an analysis expands, so that hostile input stays cheap;
// past one the analysis stops there and says so (Analysis.Unsure).
const (
	maxExpandWords = 4096     // words made by braces, globs, splitting, xargs, loop items
	maxGlobReads   = 256      // folders read for globs and ls
	maxDirNames    = 4096     // names read from one folder
	maxFileBytes   = 64 << 10 // bytes read from a file (cat, xargs -a)
	maxLoopRuns    = 256      // times a for loop's body is read
	maxShellDirs   = 8        // directories the shell may be in at once
)

// The reasons for stopping that the bounds give.
const (
	unsureWords = "the command expands to more than 4096 words (globs, braces, lists, loops) for lucid to check: name fewer files at once, or split it"
	unsureNames = "the command globs or lists folders too large or too many for lucid to read: name the files, or split it"
	unsureFile  = "the command feeds more than 64 KiB of a file to xargs or a loop, more than lucid reads: split the list"
	unsureLoop  = "a loop in the command runs more than 256 times for lucid to check: split it, or write a script"
	unsureDirs  = "the command may end in more than 8 directories for lucid to follow: cd to one place, or split it"
)

// shVar is a shell variable the command line sets.
type shVar struct {
	name, val string
	known     bool // val is known; otherwise it is only known when the line runs
	exported  bool // a child process (bash -c) sees it
}

// lookup is the value of the variable name, if the line gave it one that
// is known ($PWD is the shell's directory).
func (st *shState) lookup(name string) (string, bool) {
	for i := len(st.vars) - 1; i >= 0; i-- {
		if v := st.vars[i]; v.name == name {
			return v.val, v.known
		}
	}
	if name == "PWD" && st.dir != "" {
		return st.dir, true
	}
	return "", false
}

// set gives the variable name a value, known or not; it keeps being
// exported once it was.
func (st *shState) set(name, val string, known, export bool) {
	for i := len(st.vars) - 1; i >= 0 && !export; i-- {
		if st.vars[i].name == name {
			export = st.vars[i].exported
			break
		}
	}
	st.vars = append(st.vars, shVar{name: name, val: val, known: known, exported: export})
}

// child is the state a new shell process (bash -c, a heredoc fed to sh)
// starts in: the directory, and the exported variables only.
func (st *shState) child() *shState {
	c := &shState{dir: st.dir, alt: slices.Clip(st.alt), fs: st.fs}
	for _, v := range st.vars {
		if v.exported {
			c.vars = append(c.vars, v)
		}
	}
	return c
}

// globMode is what the shell does with an unquoted * ? [.
type globMode uint8

const (
	globOn      globMode = iota
	globOff              // set -f: they are literal
	globUnknown          // shopt changed how globs match (dotglob, nullglob, globstar...)
)

// expand expands the words of a command; see expandWord.
func (w *walker) expand(words []*syntax.Word, st *shState) []cmdline.Arg {
	out := make([]cmdline.Arg, 0, len(words))
	for _, word := range words {
		out = w.expandWord(out, word, st)
	}
	return out
}

// expandWord appends what the shell makes of word, as command arguments:
// none, one or many words, what is not known cmdline.Unknown.
func (w *walker) expandWord(out []cmdline.Arg, word *syntax.Word, st *shState) []cmdline.Arg {
	if word == nil || len(word.Parts) == 0 || w.words > maxExpandWords {
		return out
	}
	pos := word.Pos().Offset()
	if len(word.Parts) == 1 { // most words: no need for more
		if lit, ok := word.Parts[0].(*syntax.Lit); ok && cmdline.PlainLit(lit.Value) {
			return append(out, cmdline.Arg{Text: lit.Value, Pos: pos, Word: word})
		}
	}
	for _, parts := range w.braces(word) {
		e := expander{w: w, st: st}
		e.parts(parts, false)
		e.end()
		for _, f := range e.fields {
			out = w.globField(out, f, st, pos)
		}
	}
	return out
}

// expandValue is what the shell makes of the value of an assignment: no
// braces, splitting or globs.
func (w *walker) expandValue(word *syntax.Word, st *shState) (string, bool) {
	if word == nil {
		return "", true
	}
	e := expander{w: w, st: st, assign: true}
	e.parts(word.Parts, false)
	return string(e.cur.text), !e.cur.unknown
}

// field is one word in the making.
type field struct {
	text []byte
	// pat is text as a glob pattern: what was quoted is escaped.
	pat     []byte
	glob    bool // an unquoted * ? or [ in it
	unknown bool // text holds cmdline.Unknown
	multi   bool // an unquoted expansion not known: any number of words
	exists  bool // something, "" included, was written into it
}

// expander expands one word, after brace expansion.
type expander struct {
	w      *walker
	st     *shState
	assign bool // an assignment's value: no splitting, no globs
	fields []field
	cur    field
}

// end closes the field being made, if there is one.
func (e *expander) end() {
	if e.cur.exists {
		e.fields = append(e.fields, e.cur)
	}
	e.cur = field{}
}

// add appends s to the field; an unquoted * ? [ in it is a glob.
func (e *expander) add(s string, quoted bool) {
	e.cur.exists = true
	e.cur.text = append(e.cur.text, s...)
	if strings.Contains(s, cmdline.Unknown) {
		e.cur.unknown = true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '*' || c == '?' || c == '[' || c == '\\':
			if quoted || c == '\\' {
				e.cur.pat = append(e.cur.pat, '\\')
			} else {
				e.cur.glob = true
			}
			e.cur.pat = append(e.cur.pat, c)
		default:
			e.cur.pat = append(e.cur.pat, c)
		}
	}
}

// parts expands word parts, quoted when inside "...".
func (e *expander) parts(parts []syntax.WordPart, quoted bool) {
	for i, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if quoted {
				var b strings.Builder
				cmdline.Unescape(&b, p.Value, "$`\"\\\n", nil, 0, cmdline.Double)
				e.add(b.String(), true)
			} else {
				e.bare(p.Value, i == 0)
			}
		case *syntax.SglQuoted:
			e.add(cmdline.DollarQuoted(p), true)
		case *syntax.DblQuoted:
			e.cur.exists = true
			e.parts(p.Parts, true)
		case *syntax.ParamExp:
			v, ok := e.param(p)
			all := p.Index != nil || p.Param != nil && (p.Param.Value == "@" || p.Param.Value == "*")
			e.expansion(v, ok, quoted, all)
		case *syntax.CmdSubst:
			v, ok := e.w.substOutput(p, e.st)
			e.expansion(v, ok, quoted, false)
		case *syntax.ProcSubst:
			e.add(cmdline.Unknown, true) // a /dev/fd/N path
		default: // $(( )), extended globs
			e.expansion("", false, quoted, false)
		}
	}
}

// bare expands an unquoted literal: backslashes quote the byte after
// them, and a ~ at the start (or after a : in a value) is a home folder.
func (e *expander) bare(s string, first bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				e.add(s[i:i+1], true)
			}
		case c == '~' && (i == 0 && first || e.assign && i > 0 && s[i-1] == ':'):
			end := strings.IndexByte(s[i:], '/')
			if end < 0 {
				end = len(s) - i
			}
			var dir string
			ok := false
			switch s[i+1 : i+end] {
			case "":
				dir, ok = e.st.lookup("HOME")
			case "+":
				dir, ok = e.st.lookup("PWD")
			}
			if !ok {
				dir = cmdline.Unknown
			}
			e.add(dir, true)
			i += end - 1
		default:
			e.add(s[i:i+1], false)
		}
	}
}

// expansion adds the value v of an expansion (ok: it is known), which is
// split into words when not quoted; all is set for "$@" and its kin,
// which make any number of words even quoted.
func (e *expander) expansion(v string, ok, quoted, all bool) {
	switch {
	case !ok:
		e.add(cmdline.Unknown, true)
		e.cur.multi = e.cur.multi || all || !quoted && !e.assign
	case quoted || e.assign:
		e.add(v, true)
	default:
		for i := 0; i < len(v); i++ {
			if c := v[i]; c == ' ' || c == '\t' || c == '\n' {
				if e.cur.exists {
					e.end()
				}
				continue
			}
			e.add(v[i:i+1], false)
		}
	}
}

// param is the value of $NAME or ${NAME}; any other form of parameter
// expansion is not known.
func (e *expander) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil {
		return "", false
	}
	return e.st.lookup(p.Param.Value)
}

// globField appends the words field f makes once its glob, if any, is
// matched against the disk as bash matches it: no match leaves it as it
// is.
func (w *walker) globField(out []cmdline.Arg, f field, st *shState, pos uint) []cmdline.Arg {
	a := cmdline.Arg{Text: string(f.text), Multi: f.multi, Pos: pos}
	if !f.glob || f.unknown || st.glob == globOff {
		a.Multi = a.Multi || f.glob && f.unknown
		return w.count(out, a)
	}
	matches, ok := w.glob(st, string(f.pat))
	switch {
	case !ok || st.glob == globUnknown:
		a.Multi = true
		return append(out, a)
	case len(matches) == 0:
		return w.count(out, a)
	}
	for _, m := range matches {
		out = w.count(out, cmdline.Arg{Text: m, Pos: pos})
	}
	return out
}

// count appends a, one more expanded word, while the bound allows.
func (w *walker) count(out []cmdline.Arg, a cmdline.Arg) []cmdline.Arg {
	w.words++
	if w.words > maxExpandWords {
		w.stop(unsureWords)
		return out
	}
	return append(out, a)
}

// glob matches pattern against the disk from the shell's directory: * ?
// and [...] within a component, a name starting with a dot only when the
// component does (** is *, without globstar). ok is false when it cannot
// be told: a [:class:], a folder too large. A relative pattern where the
// directory is not known matches nothing: its paths could not be
// resolved anyway, and a word like -*t stays what it looks like.
func (w *walker) glob(st *shState, pattern string) (matches []string, ok bool) {
	if strings.Contains(pattern, "[:") {
		return nil, false
	}
	base := st.dir
	if strings.HasPrefix(pattern, "/") {
		base = "/"
	} else if base == "" {
		return nil, true
	}
	comps := strings.Split(pattern, "/")
	cands := []string{""} // the matches so far, as the pattern spells them
	if comps[0] == "" {
		cands, comps = []string{"/"}, comps[1:]
	}
	checkLast := false // the last component is literal: it must exist
	for i, c := range comps {
		last := i == len(comps)-1
		sep := func(cand string) string {
			if cand == "" || strings.HasSuffix(cand, "/") {
				return cand
			}
			return cand + "/"
		}
		if !hasGlob(c) {
			lit := unglob(c)
			for j := range cands {
				cands[j] = sep(cands[j]) + lit
			}
			checkLast = last && lit != ""
			continue
		}
		var next []string
		dot := strings.HasPrefix(c, ".")
		for _, cand := range cands {
			dir := base
			switch {
			case strings.HasPrefix(cand, "/"):
				dir = cand
			case cand != "":
				dir = base + "/" + cand
			}
			names, more := w.readDir(dir)
			if more {
				return nil, false
			}
			for _, name := range names {
				if name[0] == '.' && !dot {
					continue
				}
				if m, err := path.Match(strings.ReplaceAll(c, "[!", "[^"), name); m && err == nil {
					next = append(next, sep(cand)+name)
				}
			}
		}
		cands = next
		if len(cands) == 0 {
			return nil, true
		}
	}
	if checkLast || strings.HasSuffix(pattern, "/") {
		cands = slices.DeleteFunc(cands, func(c string) bool {
			p := c
			if !strings.HasPrefix(c, "/") {
				p = base + "/" + c
			}
			k := w.kindAt(st, p)
			return k == realpath.None || strings.HasSuffix(c, "/") && k != realpath.Dir
		})
	}
	slices.Sort(cands)
	return cands, true
}

// readDir reads a folder's names for a glob or ls, within the bounds.
func (w *walker) readDir(dir string) (names []string, more bool) {
	w.reads++
	if w.reads > maxGlobReads {
		w.stop(unsureNames)
		return nil, true
	}
	names, more = w.fs.readDir(dir, maxDirNames)
	if more {
		w.stop(unsureNames)
	}
	return names, more
}

// hasGlob reports whether a glob pattern holds an unescaped * ? or [.
func hasGlob(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// unglob removes the escapes of a pattern without glob characters.
func unglob(p string) string {
	if !strings.Contains(p, `\`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// braces is the words brace expansion makes of word, each as its parts;
// word itself when it has none. Only unquoted braces expand.
func (w *walker) braces(word *syntax.Word) [][]syntax.WordPart {
	if !slices.ContainsFunc(word.Parts, func(p syntax.WordPart) bool {
		lit, ok := p.(*syntax.Lit)
		return ok && strings.Contains(lit.Value, "{")
	}) {
		return [][]syntax.WordPart{word.Parts} // most words: no copy
	}
	cp := &syntax.Word{Parts: slices.Clone(word.Parts)}
	if !syntax.SplitBraces(cp) {
		return [][]syntax.WordPart{word.Parts}
	}
	return w.braceParts(cp.Parts)
}

// braceParts expands the brace expressions in parts, left to right, as
// bash does: a{b,c}d is abd acd.
func (w *walker) braceParts(parts []syntax.WordPart) [][]syntax.WordPart {
	out := [][]syntax.WordPart{nil}
	for _, part := range parts {
		br, ok := part.(*syntax.BraceExp)
		if !ok {
			for i := range out {
				out[i] = append(out[i], part)
			}
			continue
		}
		var alts [][]syntax.WordPart
		if br.Sequence {
			seq, ok := braceSequence(br)
			if !ok {
				w.stop(unsureWords)
				return out
			}
			for _, s := range seq {
				alts = append(alts, []syntax.WordPart{&syntax.Lit{Value: s}})
			}
		} else {
			for _, el := range br.Elems {
				alts = append(alts, w.braceParts(el.Parts)...)
			}
		}
		if len(out)*len(alts) > maxExpandWords {
			w.stop(unsureWords)
			return out
		}
		next := make([][]syntax.WordPart, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, append(slices.Clip(o), a...))
			}
		}
		out = next
	}
	return out
}

// braceSequence is the words of {x..y[..step]}: numbers, zero-padded to
// the widest when one of them is, or letters; ok is false when there are
// more than maxExpandWords.
func braceSequence(br *syntax.BraceExp) (seq []string, ok bool) {
	from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
	step := 1
	if len(br.Elems) == 3 {
		step, _ = strconv.Atoi(br.Elems[2].Lit())
	}
	if step < 0 {
		step = -step
	}
	if step == 0 {
		step = 1
	}
	x, err1 := strconv.Atoi(from)
	y, err2 := strconv.Atoi(to)
	letters := err1 != nil || err2 != nil
	if letters {
		x, y = int(from[0]), int(to[0])
	}
	if n := (max(x, y)-min(x, y))/step + 1; n > maxExpandWords || n < 0 {
		return nil, false
	}
	width := 0
	if !letters && (zeroPadded(from) || zeroPadded(to)) {
		width = max(len(from), len(to))
	}
	for i := x; x <= y && i <= y || x > y && i >= y; {
		switch {
		case letters:
			seq = append(seq, string(rune(i)))
		case width > 0:
			s := strconv.Itoa(max(i, -i))
			pad := width - len(s)
			if i < 0 {
				pad--
			}
			s = strings.Repeat("0", max(pad, 0)) + s
			if i < 0 {
				s = "-" + s
			}
			seq = append(seq, s)
		default:
			seq = append(seq, strconv.Itoa(i))
		}
		if x <= y {
			i += step
		} else {
			i -= step
		}
	}
	return seq, true
}

func zeroPadded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// join makes st the state after one of ends, as after the branches of an
// if or a case: every directory one of them ended in (up to
// maxShellDirs), and the variables on which they agree.
func (w *walker) join(st *shState, ends []*shState) {
	ends = slices.DeleteFunc(slices.Clone(ends), func(e *shState) bool { return e.exited })
	if len(ends) == 0 {
		st.exited = true
		return
	}
	var dirs []string
	for _, e := range ends {
		for _, d := range e.dirs() {
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) > maxShellDirs {
		w.stop(unsureDirs)
		dirs = []string{""}
	}
	vars := slices.Clip(ends[0].vars)
	for _, e := range ends {
		for _, v := range e.vars {
			val, known := ends[0].lookup(v.name)
			for _, o := range ends[1:] {
				if oval, oknown := o.lookup(v.name); oknown != known || oval != val {
					vars = append(vars, shVar{name: v.name, exported: v.exported})
					break
				}
			}
		}
	}
	stack := ends[0].stack
	glob := ends[0].glob
	for _, e := range ends[1:] {
		if !slices.Equal(e.stack, stack) {
			stack = nil
		}
		if e.glob != glob {
			glob = globUnknown
		}
	}
	st.dir, st.alt, st.vars, st.stack, st.glob, st.exited = dirs[0], slices.Clip(dirs[1:]), vars, slices.Clip(stack), glob, false
}

// dirs is every directory the shell may be in.
func (st *shState) dirs() []string {
	return append([]string{st.dir}, st.alt...)
}

// forked walks s once from each directory the shell may be in, and joins
// what follows.
func (w *walker) forked(s *syntax.Stmt, st *shState) {
	dirs := st.dirs()
	ends := make([]*shState, len(dirs))
	for i, d := range dirs {
		b := st.clone()
		b.dir, b.alt = d, nil
		w.stmt(s, b)
		ends[i] = b
	}
	w.join(st, ends)
}

// assigns sets the variables of assignments as the shell does: the value
// expanded, export kept.
func (w *walker) assigns(list []*syntax.Assign, st *shState, export bool) {
	for _, a := range list {
		if a.Name == nil {
			continue
		}
		switch {
		case a.Naked:
			if export {
				val, known := st.lookup(a.Name.Value)
				st.set(a.Name.Value, val, known, true)
			}
		case a.Index != nil || a.Array != nil:
			st.set(a.Name.Value, "", false, export)
		case a.Append:
			old, ok := st.lookup(a.Name.Value)
			val, known := w.expandValue(a.Value, st)
			st.set(a.Name.Value, old+val, ok && known, export)
		default:
			val, known := w.expandValue(a.Value, st)
			st.set(a.Name.Value, val, known, export)
		}
	}
}

// declare handles export, declare, local, readonly and typeset: their
// assignments, exported with export or -x; with a flag that changes the
// value (-i, -a, -l, -u...) the value is not known.
func (w *walker) declare(d *syntax.DeclClause, st *shState) {
	export := d.Variant.Value == "export"
	odd := false
	var list []*syntax.Assign
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil {
			flag := a.Value.Lit()
			export = export || strings.HasPrefix(flag, "-") && strings.Contains(flag, "x")
			odd = odd || strings.Trim(flag, "-+xrgf") != ""
			continue
		}
		list = append(list, a)
	}
	if odd {
		for _, a := range list {
			if a.Name != nil {
				st.set(a.Name.Value, "", false, export)
			}
		}
		return
	}
	w.assigns(list, st, export)
}

// assignedIn is the names of the variables the statements assign, for a
// loop whose body runs an unknown number of times.
func assignedIn(list []*syntax.Stmt) []string {
	var names []string
	for _, s := range list {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Assign:
				if n.Name != nil {
					names = append(names, n.Name.Value)
				}
			case *syntax.WordIter:
				names = append(names, n.Name.Value)
			}
			return true
		})
	}
	return names
}
