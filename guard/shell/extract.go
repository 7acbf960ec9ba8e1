package shell

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"mvdan.cc/sh/v3/syntax"
)

// readArchive is the member paths of the archive file a (see
// archiveMembers), when it can be read.
func (w *walker) readArchive(a cmdline.Arg, st *shState) ([]string, bool) {
	p, ok := st.path(a)
	if !ok {
		return nil, false
	}
	b, more, ok := w.fs.readFile(p, maxArchiveBytes)
	if !ok || more {
		return nil, false
	}
	return archiveMembers(b)
}

// everything records that by may write anything under the folder dir
// (absolute): what an archive lucid cannot read unpacks there.
func (w *walker) everything(st *shState, dir, by string, pos uint) {
	w.writeArg(st, cmdline.Arg{Text: filepath.Clean(dir), Under: globAny, Pos: pos}, by, false)
}

// tarOldStyle turns tar's first word without a dash (tar xzf A, tar
// cvf A DIR) into the options it stands for, each letter that takes an
// argument taking the next word, in order.
func tarOldStyle(args []cmdline.Arg) []cmdline.Arg {
	if len(args) == 0 || strings.HasPrefix(args[0].Text, "-") {
		return args
	}
	s, ok := args[0].Lit()
	if !ok {
		return args
	}
	out := make([]cmdline.Arg, 0, len(args)+len(s))
	rest := args[1:]
	for _, c := range s {
		out = append(out, cmdline.Arg{Text: "-" + string(c), Pos: args[0].Pos})
		if strings.ContainsRune(tarArgs, c) && len(rest) > 0 {
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...)
}

// tarArgs is tar's short options that take an argument.
const tarArgs = "fCbFgHIKLNTVX"

// tar x writes the members of its archive into its folder (-C DIR, or
// --one-top-level's): those named, if any, --strip-components taken off,
// leading slashes dropped unless -P, a member with a .. skipped as tar
// skips it. An archive lucid cannot read (a pipe, xz, too large), or
// names --transform changes, write anything under the folder. tar c, r,
// u and --delete write the archive (-f), and --remove-files removes what
// went into it.
func (w *walker) tar(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := cmdline.ParseOpts(tarOldStyle(args), cmdline.Spec{Args: tarArgs, Long: []string{"file", "directory",
		"strip-components", "transform", "xform", "to-command", "files-from", "exclude", "exclude-from",
		"use-compress-program", "format", "blocking-factor", "record-size", "owner", "group", "mode", "mtime",
		"newer", "newer-mtime", "after-date", "label", "tape-length", "info-script", "new-volume-script",
		"volno-file", "checkpoint-action", "suffix", "quoting-style", "rmt-command", "rsh-command",
		"index-file", "sort", "exclude-tag", "exclude-tag-under", "exclude-tag-all", "hole-detection",
		"xattrs-include", "xattrs-exclude", "warning", "pax-option", "level", "listed-incremental", "starting-file"}})
	if o.Informational() {
		return
	}
	mode := ""
	dest := st
	for _, f := range o.Flags {
		switch f.Name {
		case "x", "extract", "get":
			mode = "x"
		case "c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate", "delete":
			mode = "c"
		case "t", "list", "d", "diff", "compare":
			mode = "t"
		case "C", "directory":
			if f.Has {
				dest = chdir(dest, f.Val)
			}
		}
	}
	archive, hasArchive := o.Get("f", "file")
	pos := posOf(args)
	switch mode {
	case "c":
		if hasArchive && !archive.Is("-") {
			w.open(st, archive, "tar c")
		}
		if o.Has("remove-files") {
			for _, a := range o.Ops {
				w.write(dest, a, "tar --remove-files")
			}
		}
		return
	case "x":
	default:
		return
	}
	if o.Has("O", "to-stdout", "to-command") || dest.dir == "" {
		return
	}
	dir := dest.dir
	if top, ok := o.Get("one-top-level"); ok || o.Has("one-top-level") {
		if !ok {
			top = cmdline.Arg{Text: archiveStem(archive.Text)}
		}
		if s, ok := top.Lit(); ok && s != "" {
			dir = realpath.InDir(dir, s)
		} else {
			w.everything(dest, dir, "tar x", pos)
			return
		}
	}
	strip := 0
	if s, ok := o.Get("strip-components"); ok {
		strip, _ = strconv.Atoi(s.Text)
	}
	var names []string
	known := false
	switch {
	case o.Has("transform", "xform"):
	case hasArchive && !archive.Is("-"):
		names, known = w.readArchive(archive, st)
	default:
		if in, ok := stdinFile(redirs, w, st); ok {
			names, known = w.readArchive(in, st)
		}
	}
	if !known {
		if len(o.Ops) == 0 {
			w.everything(dest, dir, "tar x", pos)
		}
		for _, a := range o.Ops {
			s, ok := a.Lit()
			if !ok {
				w.everything(dest, dir, "tar x", pos)
				continue
			}
			if s, ok := stripComponents(strings.TrimLeft(s, "/"), strip); ok {
				w.everything(dest, realpath.InDir(dir, s), "tar x", a.Pos)
			} else {
				w.everything(dest, dir, "tar x", a.Pos)
			}
		}
		return
	}
	for _, n := range names {
		if !tarSelected(n, o.Ops) {
			continue
		}
		if !o.Has("P", "absolute-names") {
			n = strings.TrimLeft(n, "/")
		}
		n, ok := stripComponents(n, strip)
		if !ok || hasDotDot(n) {
			continue
		}
		w.write(dest, cmdline.Arg{Text: realpath.InDir(dir, n), Pos: pos}, "tar x")
	}
}

// tarSelected reports whether tar extracts the member name given the
// member operands ops: all without any; else those named, and what lies
// under a folder named. A pattern (--wildcards) or a word not known
// selects all.
func tarSelected(name string, ops []cmdline.Arg) bool {
	if len(ops) == 0 {
		return true
	}
	name = strings.TrimPrefix(strings.TrimLeft(name, "/"), "./")
	for _, a := range ops {
		s, ok := a.Lit()
		if !ok || strings.ContainsAny(s, "*?[") {
			return true
		}
		s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimLeft(s, "/"), "./"), "/")
		if name == s || strings.HasPrefix(name, s+"/") {
			return true
		}
	}
	return false
}

// stripComponents removes the first n components of a member's name, as
// tar --strip-components does; ok is false when nothing is left.
func stripComponents(name string, n int) (string, bool) {
	name = strings.TrimPrefix(name, "./")
	for ; n > 0; n-- {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return "", false
		}
		name = strings.TrimLeft(name[i:], "/")
	}
	return name, name != "" && name != "."
}

// hasDotDot reports whether a relative path has a .. component.
func hasDotDot(p string) bool {
	for c := range strings.SplitSeq(p, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// archiveStem is an archive's base name without its archive suffixes,
// the folder tar --one-top-level makes.
func archiveStem(name string) string {
	name = filepath.Base(name)
	for _, suf := range []string{".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst", ".tar.lz", ".tar.Z", ".tgz", ".tbz2", ".tbz", ".txz", ".taz", ".tar"} {
		if s, ok := strings.CutSuffix(name, suf); ok {
			return s
		}
	}
	return name
}

// stdinFile is the file a command reads as its standard input through
// < FILE, when that is what it reads.
func stdinFile(redirs []*syntax.Redirect, w *walker, st *shState) (cmdline.Arg, bool) {
	var in cmdline.Arg
	ok := false
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn:
			in, ok = cmdline.Arg{}, false
			if t := w.expandWord(nil, r.Word, st); len(t) == 1 {
				in, ok = t[0], true
			}
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.RdrInOut, syntax.DplIn:
			in, ok = cmdline.Arg{}, false
		}
	}
	return in, ok
}

// unzip writes the files of its archive into its folder (-d DIR): those
// the member patterns after the archive's name select, with -j their
// base names, leading slashes and .. components dropped as unzip drops
// them (unless -:). An archive lucid cannot read writes anything under
// the folder. -l, -t, -v, -z, -Z, -p and -c write nothing.
func (w *walker) unzip(args []cmdline.Arg, st *shState) {
	var archive cmdline.Arg
	hasArchive := false
	var patterns []cmdline.Arg
	dest := st
	junk, dotdot, exclude := false, false, false
	for i := 0; i < len(args); i++ {
		s := args[i].Text
		if strings.HasPrefix(s, "-") && len(s) > 1 {
			exclude = false
		letters:
			for j := 1; j < len(s); j++ {
				switch s[j] {
				case 'l', 't', 'v', 'z', 'Z', 'p', 'c', 'h':
					return
				case 'j':
					junk = true
				case ':':
					dotdot = true
				case 'x':
					exclude = true
				case 'd', 'P', 'O', 'I':
					v := args[i].From(j + 1)
					if j+1 == len(s) {
						if i+1 >= len(args) {
							return
						}
						i++
						v = args[i]
					}
					if s[j] == 'd' {
						dest = chdir(st, v)
					}
					break letters
				}
			}
			continue
		}
		switch {
		case exclude:
		case !hasArchive:
			archive, hasArchive = args[i], true
		default:
			patterns = append(patterns, args[i])
		}
	}
	if !hasArchive || dest.dir == "" {
		return
	}
	pos := posOf(args)
	names, ok := w.readArchive(archive, st)
	if !ok {
		if a, lit := archive.Lit(); lit && !strings.HasSuffix(a, ".zip") {
			names, ok = w.readArchive(cmdline.Arg{Text: a + ".zip"}, st) // unzip tries NAME.zip too
		}
	}
	if !ok {
		w.everything(dest, dest.dir, "unzip", pos)
		return
	}
	for _, n := range names {
		if !unzipSelected(n, patterns) {
			continue
		}
		if junk {
			n = n[strings.LastIndexByte(n, '/')+1:]
		}
		n = strings.TrimLeft(n, "/")
		if !dotdot {
			var kept []string
			for c := range strings.SplitSeq(n, "/") {
				if c != ".." {
					kept = append(kept, c)
				}
			}
			n = strings.Join(kept, "/")
		}
		if n == "" {
			continue
		}
		w.write(dest, cmdline.Arg{Text: realpath.InDir(dest.dir, n), Pos: pos}, "unzip")
	}
}

// unzipSelected reports whether unzip extracts the member name given its
// patterns: all without any; else those a pattern matches, * and ?
// matching / too as unzip's do. A class ([...]) or a word not known
// selects all.
func unzipSelected(name string, patterns []cmdline.Arg) bool {
	if len(patterns) == 0 {
		return true
	}
	for _, a := range patterns {
		s, ok := a.Lit()
		if !ok || strings.Contains(s, "[") || wildMatch(s, name) {
			return true
		}
	}
	return false
}

// wildMatch matches name against a pattern of * (any text, / too), ?
// (any one byte) and literal bytes.
func wildMatch(pattern, name string) bool {
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			for i := len(name); i >= 0; i-- {
				if wildMatch(pattern[1:], name[i:]) {
					return true
				}
			}
			return false
		case '?':
			if name == "" {
				return false
			}
		default:
			if name == "" || name[0] != pattern[0] {
				return false
			}
		}
		pattern, name = pattern[1:], name[1:]
	}
	return name == ""
}

// rsync writes into its destination, the last operand, when that is
// local: a file source to DEST (or DEST/NAME when DEST is a folder, ends
// in /, or takes several sources), a folder source DIR to anything under
// DEST/DIR (DIR/ or .: under DEST), and --delete removes only within
// those; -R keeps the source's path. A remote source may be either.
// --dry-run and --list-only write nothing; --log-file and --write-batch
// write their files, and --backup-dir what is backed up.
func (w *walker) rsync(args []cmdline.Arg, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "efTBM@", Long: []string{"rsh", "exclude", "include", "filter",
		"exclude-from", "include-from", "files-from", "backup-dir", "suffix", "chmod", "log-file",
		"log-file-format", "partial-dir", "temp-dir", "compare-dest", "copy-dest", "link-dest", "max-size",
		"min-size", "bwlimit", "timeout", "port", "password-file", "out-format", "rsync-path", "block-size",
		"remote-option", "usermap", "groupmap", "chown", "iconv", "info", "debug", "sockopts", "contimeout",
		"modify-window", "write-batch", "read-batch", "only-write-batch", "protocol", "checksum-choice",
		"compress-choice", "zc", "compress-level", "zl", "skip-compress", "max-delete", "stop-after",
		"stop-at", "outbuf", "early-input", "address", "checksum-seed", "max-alloc"}})
	if o.Informational() || o.Has("n", "dry-run", "list-only") {
		return
	}
	pos := posOf(args)
	if f, ok := o.Get("log-file"); ok {
		w.open(st, f, "rsync --log-file")
	}
	for _, name := range []string{"write-batch", "only-write-batch"} {
		if f, ok := o.Get(name); ok {
			w.open(st, f, "rsync --"+name)
			w.open(st, cmdline.Arg{Text: f.Text + ".sh", Pos: f.Pos}, "rsync --"+name)
		}
	}
	if len(o.Ops) < 2 {
		return
	}
	dst, srcs := o.Ops[len(o.Ops)-1], o.Ops[:len(o.Ops)-1]
	d, ok := dst.Lit()
	if !ok || rsyncRemote(d) {
		return
	}
	dp, ok := st.path(dst)
	if !ok {
		return
	}
	dp = filepath.Clean(dp)
	if b, ok := o.Get("backup-dir"); ok {
		if s, ok := b.Lit(); ok {
			w.everything(st, realpath.InDir(dp, s), "rsync --backup-dir", pos)
		}
	}
	into := strings.HasSuffix(d, "/") || len(srcs) > 1 || w.kindAt(st, dp) == realpath.Dir
	if o.Has("files-from") {
		w.everything(st, dp, "rsync", pos)
		return
	}
	for _, a := range srcs {
		s, ok := a.Lit()
		if !ok {
			continue
		}
		if rsyncRemote(s) {
			path := s[strings.IndexByte(s, ':')+1:]
			base := filepath.Base(strings.TrimLeft(path, ":"))
			switch {
			case path == "" || strings.HasSuffix(path, "/") || base == "." || base == "/":
				w.everything(st, dp, "rsync", a.Pos)
			default: // a file, or a folder: DEST/NAME, and what lies under it
				if !into {
					w.write(st, cmdline.Arg{Text: dp, Pos: a.Pos}, "rsync")
				}
				w.everything(st, dp+"/"+base, "rsync", a.Pos)
			}
			continue
		}
		sp, ok := st.path(a)
		if !ok {
			continue
		}
		kind := w.kindAt(st, sp)
		if kind == realpath.None {
			continue
		}
		contents := s == "." || strings.HasSuffix(s, "/") || strings.HasSuffix(s, "/.")
		target := dp + "/" + filepath.Base(filepath.Clean(sp))
		if o.Has("R", "relative") {
			rel := s
			if i := strings.Index(s, "/./"); i >= 0 {
				rel = s[i+3:]
			}
			target = realpath.InDir(dp, strings.TrimLeft(rel, "/"))
			contents = false
		}
		switch {
		case kind == realpath.Dir && contents:
			w.everything(st, dp, "rsync", a.Pos)
		case kind == realpath.Dir:
			w.everything(st, target, "rsync", a.Pos)
		case into || o.Has("R", "relative"):
			w.write(st, cmdline.Arg{Text: target, Pos: a.Pos}, "rsync")
		default:
			w.write(st, cmdline.Arg{Text: dp, Pos: a.Pos}, "rsync")
		}
	}
}

// rsyncRemote reports whether an rsync operand names another host:
// rsync://, or HOST: (HOST::MODULE) before any slash.
func rsyncRemote(s string) bool {
	if strings.HasPrefix(s, "rsync://") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	slash := strings.IndexByte(s, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}
