package shell

import (
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"mvdan.cc/sh/v3/syntax"
)

// maxPatchBytes is the most lucid reads of a patch that patch applies.
const maxPatchBytes = 1 << 20

const unsurePatch = "the command applies a patch over 1 MiB, more than lucid reads: apply it in parts"

// patchNames is every name the headers of a unified or context diff give
// a file (--- and +++, *** and ---, diff --git a/X b/Y, Index:), each
// once, in order, /dev/null left out: GNU patch picks one of a file's
// names (the one that exists, or the new one), so each may be written.
func patchNames(text string) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && n != "/dev/null" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		next := ""
		if i+1 < len(lines) {
			next = strings.TrimSuffix(lines[i+1], "\r")
		}
		switch {
		case strings.HasPrefix(l, "--- ") && strings.HasPrefix(next, "+++ "),
			strings.HasPrefix(l, "*** ") && strings.HasPrefix(next, "--- "):
			for _, h := range []string{l, next} {
				if n := headerName(h[4:]); !strings.HasSuffix(n, " ****") && !strings.HasSuffix(n, " ----") {
					add(n)
				}
			}
		case strings.HasPrefix(l, "diff --git "):
			a, b := gitDiffNames(l[len("diff --git "):])
			add(a)
			add(b)
		case strings.HasPrefix(l, "Index: "):
			add(strings.TrimSpace(l[len("Index: "):]))
		}
	}
	return names
}

// headerName is the file name of a --- or +++ header: up to a tab (the
// time follows it), C-quoted as git quotes a name with odd bytes.
func headerName(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, " ")
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// gitDiffNames reads the two names of a diff --git line: a/X b/Y, each
// perhaps quoted.
func gitDiffNames(s string) (a, b string) {
	if strings.HasPrefix(s, `"`) {
		if end := strings.Index(s[1:], `" `); end >= 0 {
			a, _ = strconv.Unquote(s[:end+2])
			return a, headerName(strings.TrimSpace(s[end+3:]))
		}
	}
	// Unquoted names hold no quote; a space may sit inside them, so the
	// split is where b/ starts the second half.
	if i := strings.Index(s, " b/"); i >= 0 {
		return s[:i], s[i+1:]
	}
	if a, b, ok := strings.Cut(s, " "); ok {
		return a, headerName(b)
	}
	return s, ""
}

// stripPath removes the smallest prefix holding n slashes from name, as
// patch -pN does (runs of slashes count once); ok is false where name
// has fewer. With n < 0 (no -p), it is the base name, as GNU patch takes
// it then.
func stripPath(name string, n int) (string, bool) {
	if n < 0 {
		return name[strings.LastIndexByte(name, '/')+1:], name != "" && !strings.HasSuffix(name, "/")
	}
	for ; n > 0; n-- {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return "", false
		}
		name = strings.TrimLeft(name[i:], "/")
	}
	return name, name != ""
}

// patch writes the file it is given (patch FILE [PATCH]), or else the
// files its patch names, read from -i FILE or its standard input (a
// file, a heredoc, what cat or echo pipe): each name of their headers
// with -p's components stripped (without -p, its base name), from -d's
// folder. -o FILE writes that file instead, -r FILE its rejects;
// --dry-run writes nothing. A patch lucid cannot read (what another
// command pipes) is not read; one over 1 MiB makes the analysis unsure.
func (w *walker) patch(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "pdiorBYzVDFg", Long: []string{"strip", "directory", "input", "output",
		"reject-file", "prefix", "basename-prefix", "suffix", "version-control", "ifdef", "fuzz", "get",
		"quoting-style", "reject-format", "read-only"}})
	if o.Informational() || o.Has("dry-run", "C", "check") {
		return
	}
	if d, ok := o.Get("d", "directory"); ok {
		st = chdir(st, d)
	}
	if r, ok := o.Get("r", "reject-file"); ok && !r.Is("-") {
		w.open(st, r, "patch -r")
	}
	if out, ok := o.Get("o", "output"); ok {
		if !out.Is("-") {
			w.open(st, out, "patch -o")
		}
		return
	}
	if len(o.Ops) > 0 {
		w.write(st, o.Ops[0], "patch")
		return
	}
	strip := -1
	if p, ok := o.Get("p", "strip"); ok {
		n, err := strconv.Atoi(p.Text)
		if err != nil || n < 0 {
			return
		}
		strip = n
	}
	text, ok := w.patchText(o, redirs, st)
	if !ok {
		return
	}
	pos := posOf(args)
	for _, n := range patchNames(text) {
		if s, ok := stripPath(n, strip); ok {
			w.write(st, cmdline.Arg{Text: s, Pos: pos}, "patch")
		}
	}
}

// patchText is the text of the patch that patch reads: -i FILE's, or
// its standard input's.
func (w *walker) patchText(o cmdline.Opts, redirs []*syntax.Redirect, st *shState) (string, bool) {
	file, ok := o.Get("i", "input")
	if !ok {
		for _, r := range redirs {
			if (r.N == nil || r.N.Value == "0") && r.Op == syntax.RdrIn {
				if t := w.expandWord(nil, r.Word, st); len(t) == 1 {
					file, ok = t[0], true
				} else {
					file, ok = cmdline.Arg{Text: cmdline.Unknown}, true
				}
			}
		}
		if cmdline.StdinRedir(redirs) != nil {
			ok = false // a heredoc after the < wins
		}
	}
	if !ok {
		in := w.stdinOf(redirs, st, false)
		return in.text, in.known && in.found == nil
	}
	p, ok := st.path(file)
	if !ok {
		return "", false
	}
	b, more, ok := w.fs.readFile(p, maxPatchBytes)
	if more {
		w.stop(unsurePatch)
		return "", false
	}
	return string(b), ok
}
