package shell

import (
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// makeRun is what a make command line asks: where it runs, the
// Makefiles it reads, the goals it makes, and how.
type makeRun struct {
	st       *shState      // -C applied
	files    []cmdline.Arg // -f
	includes []cmdline.Arg // -I
	vars     []string      // NAME=VALUE operands
	eval     []string      // --eval texts
	goals    []cmdline.Arg
	dry      bool // -n: only the lines with + or $(MAKE) run
	question bool // -q: nothing runs
	touch    bool // -t: the targets are touched instead
}

// parseMake reads make's command line as GNU make reads it: options
// anywhere, -j and -l with an optional number, NAME=VALUE operands.
func parseMake(args []cmdline.Arg, st *shState) (makeRun, bool) {
	r := makeRun{st: st}
	takes := func(i *int, s string, at int) cmdline.Arg {
		if at < len(s) {
			return args[*i].From(at)
		}
		if *i+1 < len(args) {
			*i++
			return args[*i]
		}
		return cmdline.Arg{Text: cmdline.Unknown}
	}
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Lit()
		if !ok {
			if !strings.HasPrefix(args[i].Text, "-") {
				r.goals = append(r.goals, args[i])
			}
			continue
		}
		switch {
		case s == "--":
			for _, a := range args[i+1:] {
				if _, _, _, ok := assignment(a.Text); ok {
					r.vars = append(r.vars, a.Text)
				} else {
					r.goals = append(r.goals, a)
				}
			}
			return r, true
		case strings.HasPrefix(s, "--"):
			name, val, hasVal := strings.Cut(s[2:], "=")
			arg := func() cmdline.Arg {
				if hasVal {
					return args[i].From(len(s) - len(val))
				}
				return takes(&i, "", 0)
			}
			switch name {
			case "help", "version", "print-data-base", "question":
				if name == "question" {
					r.question = true
					continue
				}
				return r, false
			case "directory":
				r.st = chdir(r.st, arg())
			case "file", "makefile":
				r.files = append(r.files, arg())
			case "include-dir":
				r.includes = append(r.includes, arg())
			case "eval":
				r.eval = append(r.eval, arg().Text)
			case "old-file", "assume-old", "new-file", "what-if", "assume-new":
				arg()
			case "just-print", "dry-run", "recon":
				r.dry = true
			case "touch":
				r.touch = true
			}
		case len(s) > 1 && s[0] == '-':
		letters:
			for j := 1; j < len(s); j++ {
				switch s[j] {
				case 'C':
					r.st = chdir(r.st, takes(&i, s, j+1))
					break letters
				case 'f':
					r.files = append(r.files, takes(&i, s, j+1))
					break letters
				case 'I':
					r.includes = append(r.includes, takes(&i, s, j+1))
					break letters
				case 'E':
					r.eval = append(r.eval, takes(&i, s, j+1).Text)
					break letters
				case 'o', 'W':
					takes(&i, s, j+1)
					break letters
				case 'j', 'l':
					// An optional number: attached, or the next word when it
					// is one.
					if j+1 == len(s) && i+1 < len(args) && args[i+1].Text != "" && strings.Trim(args[i+1].Text, "0123456789.") == "" {
						i++
					}
					break letters
				case 'O', 'd':
					break letters // -O[TYPE], -d
				case 'n':
					r.dry = true
				case 'q':
					r.question = true
				case 't':
					r.touch = true
				case 'h', 'v', 'p':
					return r, false
				}
			}
		default:
			if _, _, _, ok := assignment(s); ok {
				r.vars = append(r.vars, s)
			} else {
				r.goals = append(r.goals, args[i])
			}
		}
	}
	return r, true
}

// make reads the recipes that make would run: those of the goals named
// (the default goal when none is), after those of their prerequisites that
// are targets of the Makefile, each line read as the line sh runs in
// make's directory. The Makefile is -f's, or GNUmakefile, makefile or
// Makefile in the directory (after -C). A goal that is no explicit rule
// of it, and a Makefile that cannot be read, are not read.
func (w *walker) make(args []cmdline.Arg, st *shState, pos uint) {
	r, ok := parseMake(args, st)
	if !ok || r.question || r.st.dir == "" {
		return
	}
	m := w.readMakefile(r)
	if m == nil {
		return
	}
	switch {
	case r.dry:
		m.makeCmd = "make -n"
	case r.touch:
		m.makeCmd = "make -t"
	default:
		m.makeCmd = "make"
	}
	goals := r.goals
	if len(goals) == 0 {
		if m.goal == "" {
			return
		}
		goals = []cmdline.Arg{{Text: m.goal, Pos: pos}}
	}
	done := map[string]bool{}
	for _, g := range goals {
		s, ok := g.Lit()
		if !ok {
			continue
		}
		steps, deep := m.steps(s, done, 0)
		if deep {
			w.stop(unsureDepth)
		}
		if m.exhausted {
			w.stop(unsureMake)
		}
		for _, step := range steps {
			w.makeStep(m, r, step, pos)
		}
	}
}

// makeStep reads what make does for one target: the lines of its recipe
// (with -n or -t, only those with + or $(MAKE)), and with -t the target
// touched.
func (w *walker) makeStep(m *makefile, r makeRun, step makeStep, pos uint) {
	if r.touch && !m.phony[step.target] {
		w.open(r.st, cmdline.Arg{Text: step.target, Pos: pos}, "make -t")
	}
	var lines []string
	for _, l := range step.lines {
		if (r.dry || r.touch) && !l.always {
			continue
		}
		lines = append(lines, l.text)
	}
	if m.oneShell && len(lines) > 0 {
		lines = []string{strings.Join(lines, "\n")}
	}
	for _, l := range lines {
		w.script(l, r.st, pos)
	}
}

// readMakefile reads the Makefiles of a make, with what they include;
// nil when there is none it can read. Each is read once per analysis
// for the same command-line variables.
func (w *walker) readMakefile(r makeRun) *makefile {
	dir := r.st.dir
	var files []string
	if len(r.files) == 0 {
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if w.kind(dir+"/"+n) == realpath.File {
				files = []string{n}
				break
			}
		}
	}
	for _, f := range r.files {
		s, ok := f.Lit()
		if !ok {
			return nil
		}
		files = append(files, s)
	}
	if len(files) == 0 {
		return nil
	}
	key := dir + "\x00" + strings.Join(files, "\x00") + "\x00" + strings.Join(r.vars, "\x00") + "\x00" + strings.Join(r.eval, "\x00")
	if m, ok := w.cache().makefiles[key]; ok {
		return m
	}
	var incDirs []string
	for _, a := range r.includes {
		if s, ok := a.Lit(); ok {
			incDirs = append(incDirs, realpath.InDir(dir, s))
		}
	}
	include := func(name string) (string, bool) {
		for _, d := range append([]string{dir}, incDirs...) {
			if filepath.IsAbs(name) && d != dir {
				break
			}
			if text, ok := w.readConfig(realpath.InDir(d, name)); ok {
				return text, true
			}
		}
		return "", false
	}
	m := newMakefile(dir, r.vars)
	for _, e := range r.eval { // read before the Makefiles
		m.read(e, "", include)
	}
	m.files = nil
	for _, f := range files {
		text, ok := w.readConfig(realpath.InDir(dir, f))
		if !ok || !m.read(text, f, include) {
			m = nil
			break
		}
	}
	w.files.makefiles[key] = m
	return m
}
