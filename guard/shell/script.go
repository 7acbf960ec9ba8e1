package shell

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"mvdan.cc/sh/v3/syntax"
)

// node reads the script of node -e, -p (and --eval, --print, -pe), or the
// heredoc node reads as its script, and finds the files it writes through
// fs (see nodeWrites). A script file is not read.
func (w *walker) node(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Lit()
		if !ok || s == "" {
			return
		}
		if s == "-" || s == "--" {
			break
		}
		if s[0] != '-' {
			return // a script file
		}
		name, val, hasVal := strings.Cut(s, "=")
		switch name {
		case "-e", "--eval", "-p", "--print", "-pe", "-ep":
			if hasVal {
				w.scriptSource(val, nodeWrites, st, args[i].Pos)
			} else if i+1 < len(args) {
				w.scriptSource(args[i+1].Text, nodeWrites, st, args[i+1].Pos)
			}
			return
		case "-r", "--require", "--import", "--loader", "--input-type", "-C", "--conditions", "--title":
			if !hasVal {
				i++ // the option's argument
			}
		}
	}
	if text, ok := cmdline.StdinScript(redirs); ok {
		w.scriptSource(text, nodeWrites, st, redirPos(redirs))
	}
}

// nodeWrites scans JavaScript for the fs calls that write a file named by
// a string literal: fs.writeFileSync(PATH, ...), appendFileSync, rmSync,
// unlinkSync, rmdirSync, and their callback and promise forms (fs.writeFile,
// fs.promises.rm...); copyFileSync and renameSync write their destination,
// renameSync its source too. The Sync names count called bare, as after
// const {writeFileSync} = require('fs'); the others only after fs. or
// promises. or require('fs').
func nodeWrites(src string) []pyWrite {
	toks := pyScan(scriptTokens(src, langJS))
	var out []pyWrite
	for i, t := range toks {
		if !toks.callWithString(i) {
			continue
		}
		fn := strings.TrimSuffix(t.text, "Sync")
		_, onFS := toks.member(i, "fs", "promises", "fsp")
		onFS = onFS || toks.punct(i-1, ".") && toks.punct(i-2, ")") // require('fs').rmSync
		if !onFS && !(fn != t.text && toks.at(i-1).text != ".") {
			continue
		}
		by := "node "
		if onFS {
			by += "fs."
		}
		by += t.text + "()"
		args := pyArgs(toks, i+2)
		if len(args) == 0 || args[0].kind != tokString {
			continue // not a call that closes, or a path joined from parts
		}
		switch fn {
		case "writeFile", "appendFile", "truncate":
			out = append(out, pyWrite{path: pyValue(args[0]), by: by, opens: true})
		case "rm", "unlink", "rmdir":
			out = append(out, pyWrite{path: pyValue(args[0]), by: by})
		case "copyFile", "cp":
			if len(args) > 1 && args[1].kind == tokString {
				out = append(out, pyWrite{path: pyValue(args[1]), by: by, opens: true})
			}
		case "rename":
			out = append(out, pyWrite{path: pyValue(args[0]), by: by})
			if len(args) > 1 && args[1].kind == tokString {
				out = append(out, pyWrite{path: pyValue(args[1]), by: by})
			}
		}
	}
	return out
}

// ruby reads the scripts of ruby -e (several join as lines), or the
// heredoc ruby reads as its script, and finds the files they write (see
// rubyWrites). With -i it also writes the files it is given, as sed -i
// does. A script file is not read, and -C moves it where relative paths
// are not known.
func (w *walker) ruby(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := scanBundled(args, bundleSpec{script: "e", arg: "rIEFC", rest: "ixTWK", digits: "0"})
	if strings.Contains(o.letters, "C") {
		return
	}
	if len(o.scripts) == 0 {
		if len(o.operands) > 0 {
			return // a script file
		}
		if text, ok := cmdline.StdinScript(redirs); ok {
			w.scriptSource(text, rubyWrites, st, redirPos(redirs))
		}
		return
	}
	lines := make([]string, len(o.scripts))
	for i, s := range o.scripts {
		lines[i] = s.Text
	}
	w.scriptSource(strings.Join(lines, "\n"), rubyWrites, st, o.scripts[len(o.scripts)-1].Pos)
	if strings.Contains(o.letters, "i") {
		for _, a := range o.operands {
			w.write(st, a, "ruby -i")
		}
	}
}

// rubyWrites scans Ruby for the calls that write a file named by a string
// literal: File.write, File.binwrite, File.delete, File.unlink,
// File.open(PATH, MODE) with a mode that writes, File.rename, and
// FileUtils.rm, rm_f, rm_r, rm_rf, touch. A "#{...}" string is not known.
func rubyWrites(src string) []pyWrite {
	toks := pyScan(scriptTokens(src, langRuby))
	var out []pyWrite
	for i, t := range toks {
		if !toks.callWithString(i) {
			continue
		}
		obj, ok := toks.member(i, "File", "FileUtils")
		if !ok {
			continue
		}
		fn := obj + "." + t.text
		by := "ruby " + fn + "()"
		args := pyArgs(toks, i+2)
		if len(args) == 0 || args[0].kind != tokString {
			continue // not a call that closes, or a path joined from parts
		}
		switch fn {
		case "File.write", "File.binwrite", "FileUtils.touch":
			out = append(out, pyWrite{path: pyValue(args[0]), by: by, opens: true})
		case "File.delete", "File.unlink", "FileUtils.rm", "FileUtils.rm_f", "FileUtils.rm_r", "FileUtils.rm_rf", "FileUtils.remove_dir":
			out = append(out, pyWrite{path: pyValue(args[0]), by: by})
		case "File.open", "File.new":
			if pyWriteMode(args, 1) {
				out = append(out, pyWrite{path: pyValue(args[0]), by: by, opens: true})
			}
		case "File.rename", "FileUtils.mv":
			for _, a := range args[:min(len(args), 2)] {
				if a.kind == tokString {
					out = append(out, pyWrite{path: pyValue(a), by: by})
				}
			}
		}
	}
	return out
}
