package shell

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"mvdan.cc/sh/v3/syntax"
)

// sed writes its files only with -i (GNU: -i[SUFFIX], --in-place[=SUFFIX];
// BSD: -i SUFFIX, where an empty suffix word is recognised). The script is
// the first operand unless -e or -f gave it. A script's own w commands are
// not read.
func (w *walker) sed(args []cmdline.Arg, st *shState) {
	for i := 0; i+1 < len(args); i++ {
		if args[i].Is("-i") && args[i+1].Is("") {
			args = append(args[:i+1:i+1], args[i+2:]...)
			break
		}
	}
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "efl", Optional: "i", Long: []string{"expression", "file", "line-length"}})
	if o.Informational() || !o.Has("i", "in-place") {
		return
	}
	files := o.Ops
	if !o.Has("e", "f", "expression", "file") && len(files) > 0 {
		files = files[1:]
	}
	// sed -i writes a new file and renames it onto the old: a symbolic
	// link is replaced, unless --follow-symlinks has it write the target.
	opens := o.Has("follow-symlinks")
	for _, a := range files {
		w.writeArg(st, a, "sed -i", opens)
	}
}

// perl writes its files only with -i[EXT]: the files after the -e
// script, or after the script file.
func (w *walker) perl(args []cmdline.Arg, st *shState) {
	o := scanBundled(args, bundleSpec{script: "eE", arg: "I", rest: "iMmCdDxVF", digits: "0l"})
	if !strings.Contains(o.letters, "i") {
		return
	}
	files := o.operands
	if len(o.scripts) == 0 && len(files) > 0 {
		files = files[1:]
	}
	for _, a := range files {
		w.write(st, a, "perl -i")
	}
}

// bundleSpec is the single-letter options of perl or ruby, which bundle
// (-pi.bak -e CODE) in a way cmdline.ParseOpts does not read.
type bundleSpec struct {
	script string // letters followed by a script: the rest of the word, or the next word
	arg    string // letters followed by an argument: the rest of the word, or the next word
	rest   string // letters that take the rest of the word, if any, as theirs
	digits string // letters that take the digits after them
}

// bundled is what scanBundled read.
type bundled struct {
	letters  string        // every option letter given
	scripts  []cmdline.Arg // the scripts of the script letters, in order
	operands []cmdline.Arg // the words after the options
}

// scanBundled reads the options at the start of args; they end at the
// first word that is not one, or after --. Long options are skipped.
func scanBundled(args []cmdline.Arg, spec bundleSpec) bundled {
	var o bundled
	i := 0
words:
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
			continue // --disable=gems and the like
		}
		for j := 1; j < len(s); j++ {
			c := s[j]
			o.letters += string(c)
			switch {
			case strings.IndexByte(spec.script, c) >= 0 || strings.IndexByte(spec.arg, c) >= 0:
				val := cmdline.Arg{Text: s[j+1:], Pos: args[i].Pos}
				if val.Text == "" {
					if i+1 >= len(args) {
						break words
					}
					i++
					val = args[i]
				}
				if strings.IndexByte(spec.script, c) >= 0 {
					o.scripts = append(o.scripts, val)
				}
				continue words
			case strings.IndexByte(spec.rest, c) >= 0:
				continue words
			case strings.IndexByte(spec.digits, c) >= 0:
				for j+1 < len(s) && strings.IndexByte("0123456789abcdefxABCDEF", s[j+1]) >= 0 {
					j++
				}
			}
		}
	}
	o.operands = args[min(i, len(args)):]
	return o
}

// python reads the script of python -c and of python - or python with a
// heredoc, and finds the files it opens for writing; python -m black,
// isort or ruff is that formatter.
func (w *walker) python(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Lit()
		if !ok || s == "" {
			return // a script file, or unknown
		}
		if s == "-" {
			break
		}
		if s[0] != '-' {
			return // a script file
		}
		if s == "--" {
			if i+1 < len(args) && args[i+1].Is("-") {
				break
			}
			return
		}
	bundle:
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'c':
				if j+1 < len(s) {
					w.pythonSource(s[j+1:], st, args[i].Pos)
				} else if i+1 < len(args) {
					w.pythonSource(args[i+1].Text, st, args[i+1].Pos)
				}
				return
			case 'm':
				// Runs a module: the formatters' run as their commands do.
				mod, rest := s[j+1:], args[i+1:]
				if mod == "" && i+1 < len(args) {
					mod, rest = args[i+1].Text, args[i+2:]
				}
				switch mod {
				case "black", "isort", "ruff":
					w.run(append([]cmdline.Arg{{Text: mod, Pos: args[i].Pos}}, rest...), redirs, st)
				}
				return
			case 'W', 'X':
				if j+1 == len(s) {
					i++
				}
				break bundle
			case '-':
				break bundle // --long option
			}
		}
	}
	if text, ok := cmdline.StdinScript(redirs); ok {
		w.pythonSource(text, st, redirPos(redirs))
	}
}

func (w *walker) pythonSource(src string, st *shState, pos uint) {
	w.scriptSource(src, pythonWrites, st, pos)
}

// scriptSource records the writes that find finds in the script src,
// given at offset pos. A script that changes its directory (os.chdir,
// process.chdir, Dir.chdir) writes its relative paths where they are not
// known.
func (w *walker) scriptSource(src string, find func(string) []pyWrite, st *shState, pos uint) {
	chdir := strings.Contains(src, "chdir")
	for _, pw := range find(src) {
		if chdir && !strings.HasPrefix(pw.path, "/") {
			continue // the script moved; relative paths are not known
		}
		a := cmdline.Arg{Text: pw.path, Pos: pos}
		if pw.src != "" {
			if p, ok := st.path(a); ok && (strings.HasSuffix(pw.path, "/") || w.kindAt(st, p) == realpath.Dir) {
				w.into(st, a, []cmdline.Arg{{Text: pw.src}}, pw.by, false, pw.opens)
				continue
			}
		}
		w.writeArg(st, a, pw.by, pw.opens)
	}
}
