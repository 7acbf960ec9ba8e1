package guard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// sed writes its files only with -i (GNU: -i[SUFFIX], --in-place[=SUFFIX];
// BSD: -i SUFFIX, where an empty suffix word is recognised). The script is
// the first operand unless -e or -f gave it. A script's own w commands are
// not read.
func (w *shellWalker) sed(args []shArg, st *shState) {
	for i := 0; i+1 < len(args); i++ {
		if args[i].is("-i") && args[i+1].is("") {
			args = append(args[:i+1:i+1], args[i+2:]...)
			break
		}
	}
	o := parseOpts(args, optSpec{args: "efl", optional: "i", long: []string{"expression", "file", "line-length"}})
	if o.informational() || !o.has("i", "in-place") {
		return
	}
	files := o.ops
	if !o.has("e", "f", "expression", "file") && len(files) > 0 {
		files = files[1:]
	}
	for _, a := range files {
		w.write(st, a, "sed -i")
	}
}

// perl writes its files only with -i[EXT]: the files after the -e
// script, or after the script file.
func (w *shellWalker) perl(args []shArg, st *shState) {
	inPlace, hasScript := false, false
	i := 0
	for ; i < len(args); i++ {
		s, ok := args[i].lit()
		if !ok || len(s) < 2 || s[0] != '-' {
			break
		}
		if s == "--" {
			i++
			break
		}
	bundle:
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'e', 'E':
				hasScript = true
				if j+1 == len(s) {
					i++ // the script is the next word
				}
				break bundle
			case 'i':
				inPlace = true
				break bundle // the rest is the backup extension
			case '0', 'l':
				for j+1 < len(s) && strings.IndexByte("0123456789abcdefxABCDEF", s[j+1]) >= 0 {
					j++
				}
			case 'I', 'M', 'm', 'C', 'd', 'D', 'x', 'V', 'F':
				if s[j] == 'I' && j+1 == len(s) {
					i++
				}
				break bundle
			}
		}
	}
	if !inPlace || i > len(args) {
		return
	}
	files := args[i:]
	if !hasScript && len(files) > 0 {
		files = files[1:]
	}
	for _, a := range files {
		w.write(st, a, "perl -i")
	}
}

// python reads the script of python -c and of python - or python with a
// heredoc, and finds the files it opens for writing.
func (w *shellWalker) python(args []shArg, redirs []*syntax.Redirect, st *shState) {
	for i := 0; i < len(args); i++ {
		s, ok := args[i].lit()
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
			if i+1 < len(args) && args[i+1].is("-") {
				break
			}
			return
		}
	bundle:
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'c':
				if j+1 < len(s) {
					w.pythonSource(s[j+1:], st, args[i].pos)
				} else if i+1 < len(args) {
					w.pythonSource(args[i+1].s, st, args[i+1].pos)
				}
				return
			case 'm':
				return // runs a module
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
	if text, ok := stdinScript(redirs); ok {
		w.pythonSource(text, st, redirPos(redirs))
	}
}

func (w *shellWalker) pythonSource(src string, st *shState, pos uint) {
	chdir := strings.Contains(src, "chdir")
	for _, pw := range pythonWrites(src) {
		if chdir && !strings.HasPrefix(pw.path, "/") {
			continue // the script moved; relative paths are not known
		}
		a := shArg{s: pw.path, pos: pos}
		if pw.src != "" {
			if p, ok := st.resolve(a); ok && (strings.HasSuffix(pw.path, "/") || w.kind(p) == kindDir) {
				w.into(st, a, []shArg{{s: pw.src}}, pw.by, false)
				continue
			}
		}
		w.write(st, a, pw.by)
	}
}
