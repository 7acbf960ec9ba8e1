// Package winpath makes the spellings of one Windows path one string. A
// hook's payload on Windows names a file as C:\Users\me\a.go, c:/users/me/a.go,
// \\?\C:\Users\me\a.go or through a share as \\srv\share\a.go and
// \\?\UNC\srv\share\a.go, and the Git Bash that runs Claude Code's shell
// spells it /c/Users/me/a.go: a claim must deny each of them.
//
// Its functions work on strings alone, never on runtime.GOOS or
// path/filepath, so that their tests run on every platform; the hooks and
// the shell analysis call them only on Windows. They leave the case of a
// name as written but for the drive letter: how a repository compares
// names is gitstore.Names' to say.
package winpath

import "strings"

// Clean is p in one canonical Windows form: backslashes, an upper-case
// drive letter, the \\?\ (and \\.\) prefix dropped before a drive
// letter, \\?\UNC\srv\share made \\srv\share, . and .. taken (a .. above
// a root stays at the root, as Windows takes it), and no trailing
// separator but a drive's root's (C:\, since C: alone is the drive's
// current folder). A drive-relative path (C:foo) or a relative one stays
// relative: Abs places those. Clean("") is ".", as filepath.Clean's.
func Clean(p string) string {
	p = strings.ReplaceAll(p, "/", `\`)
	vol, rest, rooted := split(p)
	// A UNC or device volume is a root of its own: its names follow it
	// each after a separator, and a .. there stays there.
	share := len(vol) > 2
	var names []string
	up := 0 // the leading ".." of a relative path, kept
	for rest != "" {
		var c string
		c, rest, _ = strings.Cut(rest, `\`)
		switch {
		case c == "" || c == ".":
		case c == ".." && len(names) > up:
			names = names[:len(names)-1]
		case c == ".." && (rooted || share):
			// The root's parent is the root.
		case c == "..":
			names = append(names, c)
			up++
		default:
			names = append(names, c)
		}
	}
	var b strings.Builder
	b.Grow(len(p))
	b.WriteString(vol)
	if rooted && !share {
		b.WriteByte('\\')
	}
	for i, c := range names {
		if i > 0 || share {
			b.WriteByte('\\')
		}
		b.WriteString(c)
	}
	if b.Len() == 0 {
		return "."
	}
	if vol == "" && !rooted && len(names[0]) >= 2 && isLetter(names[0][0]) && names[0][1] == ':' {
		// a:\x, the name a: then x, is no drive: .\ keeps it a name.
		return `.\` + b.String()
	}
	return b.String()
}

// split splits the backslashed path p into its volume (C:, \\srv\share,
// \\?\Volume{...}; none for a path on the current drive), whether a root
// follows it, and the rest, without that root. A UNC or device volume is
// always rooted: such a path has no current folder to be relative to.
func split(p string) (vol, rest string, rooted bool) {
	if strings.HasPrefix(p, `\\\`) {
		// \\\srv is \\srv: one spelling for what starts a UNC path.
		p = `\\` + strings.TrimLeft(p, `\`)
	}
	if len(p) >= 4 && p[0] == '\\' && p[1] == '\\' && (p[2] == '?' || p[2] == '.') && p[3] == '\\' {
		// A device path: \\?\ asks Windows to take the rest as written,
		// \\.\ names a device.
		tail := p[4:]
		if len(tail) >= 2 && isLetter(tail[0]) && tail[1] == ':' {
			return drive(tail[0]), strings.TrimLeft(tail[2:], `\`), true
		}
		if len(tail) >= 3 && strings.EqualFold(tail[:3], "UNC") && (len(tail) == 3 || tail[3] == '\\') {
			// Read again as \\srv\share: a server named ? or . makes it a
			// device path once more.
			return split(`\\` + strings.TrimLeft(tail[3:], `\`))
		}
		name, rest, _ := strings.Cut(tail, `\`)
		return p[:4] + name, strings.TrimLeft(rest, `\`), true
	}
	if len(p) >= 2 && p[0] == '\\' && p[1] == '\\' {
		return unc(p[1:])
	}
	if len(p) >= 2 && isLetter(p[0]) && p[1] == ':' {
		rest = p[2:]
		rooted = rest != "" && rest[0] == '\\'
		return drive(p[0]), strings.TrimLeft(rest, `\`), rooted
	}
	rooted = p != "" && p[0] == '\\'
	return "", strings.TrimLeft(p, `\`), rooted
}

// unc splits \srv\share\rest (the part of \\srv\share\rest after its
// first backslash) into the volume \\srv\share and the rest. A server
// without a share is the volume \\srv; no server at all, \\.
func unc(p string) (vol, rest string, rooted bool) {
	p = strings.TrimLeft(p, `\`)
	srv, p, _ := strings.Cut(p, `\`)
	p = strings.TrimLeft(p, `\`)
	share, p, _ := strings.Cut(p, `\`)
	vol = `\\` + srv
	if share != "" {
		vol += `\` + share
	}
	return vol, strings.TrimLeft(p, `\`), false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// drive is the volume of the drive letter c, upper-case.
func drive(c byte) string {
	if 'a' <= c && c <= 'z' {
		c -= 'a' - 'A'
	}
	return string([]byte{c, ':'})
}

// IsAbs reports whether p names the same file from whatever folder and
// drive it is read: a drive with its root (C:\x), or a UNC or device path.
// \x (the current drive's root) and C:x (drive C's current folder) are
// not.
func IsAbs(p string) bool {
	vol, _, rooted := split(strings.ReplaceAll(p, "/", `\`))
	return vol != "" && (rooted || len(vol) > 2)
}

// Abs is p, cleaned, as a program whose current folder is the absolute
// folder cwd reads it: a relative path below cwd, \x at the root of cwd's
// volume, and C:x below cwd when cwd is on drive C, else below C:\ (the
// per-drive current folders Windows keeps are the process's own, which a
// hook cannot see; a process that never visited the drive has its root).
// With cwd not absolute, p is only cleaned.
func Abs(cwd, p string) string {
	if IsAbs(p) || !IsAbs(cwd) {
		return Clean(p)
	}
	cwd = Clean(cwd)
	p = strings.ReplaceAll(p, "/", `\`)
	vol, rest, rooted := split(p)
	cvol, _, _ := split(cwd)
	switch {
	case vol == "" && rooted:
		return Clean(cvol + `\` + rest)
	case vol == "":
		return Clean(cwd + `\` + rest)
	case strings.EqualFold(vol, cvol): // C:x with cwd on C:
		return Clean(cwd + `\` + rest)
	}
	return Clean(vol + `\` + rest)
}

// FromGitBash is the Windows path of the Git Bash (MSYS2) path p, which
// names drive C as /c: /c/Users/me is C:\Users\me, cleaned. Cygwin's
// /cygdrive/c/Users/me is too. It reports false for any other path: a
// first element of more than one letter (/cc/x, /usr/bin, whose Windows
// folder depends on where Git is installed), //srv/share (a UNC path to
// Git Bash) and WSL's /mnt/c (a folder of Git's own install under Git
// Bash; lucid in WSL is a Linux program, to which /mnt/c is a plain path).
func FromGitBash(p string) (string, bool) {
	if len(p) < 2 || p[0] != '/' {
		return "", false
	}
	rest := p[1:]
	if r, ok := strings.CutPrefix(rest, "cygdrive/"); ok {
		rest = r
	}
	if rest == "" || !isLetter(rest[0]) || len(rest) > 1 && rest[1] != '/' {
		return "", false
	}
	return Clean(drive(rest[0]) + `\` + rest[1:]), true
}
