package shell

import (
	"os"
	"path/filepath"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/pwsh"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// PowerShell reads command as PowerShell runs it in cwd (absolute): the
// files its cmdlets and redirections write, as package pwsh reads them,
// and the native programs it runs (git, gofmt, sed, bash -c...), read as
// Analyze reads them in a bash line. A line pwsh cannot read whole is
// unsure, with its reason.
func PowerShell(command, cwd string) Analysis {
	mfs := &memoFS{shellFS: osFS{}}
	w := &walker{fs: mfs}
	st := &shState{fs: mfs}
	if filepath.IsAbs(cwd) {
		st.dir = filepath.Clean(cwd)
	}
	if home := os.Getenv("HOME"); filepath.IsAbs(home) {
		st.set("HOME", filepath.Clean(home), true, true)
	}
	w.powershell(pwsh.Analyze(command, cwd), st, 0)
	return Analysis{Writes: w.result(), Git: w.gitOps, Unsure: w.unsure}
}

// powershell records what a PowerShell script, read by package pwsh,
// writes: its paths, and what its native programs write, each run in its
// folder as a process of its own.
func (w *walker) powershell(a pwsh.Analysis, st *shState, pos uint) {
	if a.Unsure != "" {
		w.stop(a.Unsure)
	}
	for _, pw := range a.Writes {
		switch {
		case filepath.Separator != '/':
			// realpath reads paths by slashes; on Windows the path is
			// as PowerShell's providers resolve it, by its text.
			w.record(Write{Path: pw.Path, Under: pw.Under, By: pw.By}, pos)
		case pw.Under != "":
			base, rel := st.from(pw.Path)
			p, _ := realpath.Resolve(w.fs, base, rel, true)
			w.record(Write{Path: p, Under: pw.Under, By: pw.By}, pos)
		default:
			w.writePath(st, pw.Path, pw.By, pos, pw.Opens)
		}
	}
	for _, n := range a.Native {
		if !w.budget() {
			return
		}
		ns := st.child()
		ns.dir, ns.alt = n.Dir, nil
		args := make([]cmdline.Arg, len(n.Args))
		for i, word := range n.Args {
			text := word.Text
			if !word.Known {
				text = cmdline.Unknown
			}
			args[i] = cmdline.Arg{Text: text, Pos: pos}
		}
		w.run(args, nil, ns)
	}
}

// pwshCommand walks pwsh's or powershell's -Command script (and Windows
// PowerShell's first plain word, which is one too), read as PowerShell.
func (w *walker) pwshCommand(name string, args []cmdline.Arg, st *shState, pos uint) {
	words := make([]pwsh.Word, len(args))
	for i, a := range args {
		s, ok := a.Lit()
		words[i] = pwsh.Word{Text: s, Known: ok}
	}
	script, workdir, ok, unsure := pwsh.Script(words, name == "powershell" || name == "powershell.exe")
	if unsure != "" {
		w.stop(unsure)
	}
	if !ok || !w.deeper() {
		return
	}
	if w.parsed += int32(min(len(script), cmdline.MaxBytes+1)); w.parsed > cmdline.MaxBytes {
		w.stop(unsureNested)
		return
	}
	dir := st.dir
	if workdir != "" {
		dir, ok = st.resolve(cmdline.Arg{Text: workdir})
		if !ok {
			dir = ""
		}
	}
	w.depth++
	ns := st.child()
	ns.dir, ns.alt = dir, nil
	w.powershell(pwsh.Analyze(script, dir), ns, pos)
	w.depth--
}
