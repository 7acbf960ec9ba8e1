package winpath

import "testing"

// one is the canonical form every spelling of the claimed file takes.
const one = `C:\Users\me\repo\src\a.go`

// cleanCases are Clean's table, which winpath_windows_test.go holds to
// path/filepath's reading on Windows too.
var cleanCases = []struct{ in, want string }{
	// One file, every spelling a payload can carry.
	{`C:\Users\me\repo\src\a.go`, one},
	{`c:\Users\me\repo\src\a.go`, one},
	{`C:/Users/me/repo/src/a.go`, one},
	{`c:/Users/me/repo/src/a.go`, one},
	{`C:\Users/me\repo/src\a.go`, one},
	{`\\?\C:\Users\me\repo\src\a.go`, one},
	{`\\?\c:\Users\me\repo\src\a.go`, one},
	{`//?/C:/Users/me/repo/src/a.go`, one},
	{`\\.\C:\Users\me\repo\src\a.go`, one},
	{`C:\Users\me\repo\src\a.go\`, one},
	{`C:\Users\me\repo\src\a.go\\`, one},
	{`C:\\Users\\me\\repo\\src\\a.go`, one},
	{`C:\Users\me\.\repo\src\.\a.go`, one},
	{`C:\Users\me\repo\lib\..\src\a.go`, one},
	{`C:\Users\me\repo\src\x\y\..\..\a.go`, one},
	// The rest of a name keeps its case: whether A.GO is a.go is
	// the file system's to say (gitstore.Names).
	{`c:\USERS\me\repo\src\A.go`, `C:\USERS\me\repo\src\A.go`},

	// Shares.
	{`\\srv\share\repo\src\a.go`, `\\srv\share\repo\src\a.go`},
	{`//srv/share/repo/src/a.go`, `\\srv\share\repo\src\a.go`},
	{`\\?\UNC\srv\share\repo\src\a.go`, `\\srv\share\repo\src\a.go`},
	{`\\?\unc\srv\share\repo\src\a.go`, `\\srv\share\repo\src\a.go`},
	{`//?/UNC/srv/share/repo/src/a.go`, `\\srv\share\repo\src\a.go`},
	{`\\srv\share\repo\src\a.go\`, `\\srv\share\repo\src\a.go`},
	{`\\srv\share`, `\\srv\share`},
	{`\\srv\share\`, `\\srv\share`},
	{`\\?\UNC\srv\share`, `\\srv\share`},
	{`\\?\UNC\srv\share\`, `\\srv\share`},
	{`\\srv\share\..\..\x`, `\\srv\share\x`}, // the share is the root
	{`\\srv\share\.`, `\\srv\share`},
	{`\\srv`, `\\srv`},
	{`\\srv\`, `\\srv`},
	{`\\srv\\\share\x`, `\\srv\share\x`},

	// Roots and hostile ends.
	{`C:\`, `C:\`},
	{`c:/`, `C:\`},
	{`C:\\\`, `C:\`},
	{`C:\..`, `C:\`},
	{`C:\..\..\Users\me`, `C:\Users\me`}, // .. above the root stays there
	{`C:\Users\..\..\..`, `C:\`},
	{`\\?\C:`, `C:\`}, // no current folder in \\?\: the drive's root
	{`\\?\C:\`, `C:\`},
	{`\\?\`, `\\?\`},
	{`\\?\Volume{0b1c}\x\..\y`, `\\?\Volume{0b1c}\y`},
	{`\\?\Volume{0b1c}`, `\\?\Volume{0b1c}`},
	{`\\`, `\\`},
	{`\`, `\`},
	{`/`, `\`},
	{``, `.`},
	{`.`, `.`},
	{`C:`, `C:`},       // drive C's current folder, not its root
	{`c:`, `C:`},       //
	{`C:foo`, `C:foo`}, // drive-relative: Abs places it
	{`c:foo\..\bar`, `C:bar`},
	{`C:..\x`, `C:..\x`},
	{`C:foo\..`, `C:`},
	{`\Users\me`, `\Users\me`}, // the current drive's root: Abs places it
	{`\..\Users`, `\Users`},
	{`src\a.go`, `src\a.go`},
	{`./src/a.go`, `src\a.go`},
	{`src\..\..\a.go`, `..\a.go`},
	{`..\..\a`, `..\..\a`},
	{`a\..`, `.`},
	{`1:\x`, `1:\x`}, // not a drive letter: a relative name
	{`CC:\x`, `CC:\x`},
	{`.\a:`, `.\a:`}, // the name a:, which the .\ keeps from being a drive
	{`x\..\a:\y`, `.\a:\y`},
	{`a:b\c`, `A:b\c`},
}

func TestClean(t *testing.T) {
	for _, c := range cleanCases {
		got := Clean(c.in)
		if got != c.want {
			t.Errorf("Clean(%#q) = %#q, want %#q", c.in, got, c.want)
		}
		if again := Clean(got); again != got {
			t.Errorf("Clean(Clean(%#q)) = %#q, not %#q", c.in, again, got)
		}
	}
}

func TestIsAbs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{`C:\x`, true}, {`c:/x`, true}, {`C:\`, true}, {`\\srv\share\x`, true}, {`//srv/share`, true},
		{`\\?\C:\x`, true}, {`\\?\UNC\srv\share\x`, true}, {`\\?\C:`, true},
		{`C:`, false}, {`C:x`, false}, {`\x`, false}, {`/x`, false}, {`/c/Users`, false},
		{`x`, false}, {``, false}, {`..\x`, false},
	} {
		if got := IsAbs(c.in); got != c.want {
			t.Errorf("IsAbs(%#q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestAbs(t *testing.T) {
	const cwd = `C:\Users\me\repo`
	for _, c := range []struct{ cwd, in, want string }{
		{cwd, `src\a.go`, one},
		{cwd, `src/a.go`, one},
		{cwd, `.\src\a.go`, one},
		{cwd, `..\repo\src\a.go`, one},
		{cwd, `c:\users\me\repo\src\a.go`, `C:\users\me\repo\src\a.go`},
		{cwd, `\\?\C:\Users\me\repo\src\a.go`, one},
		{cwd, `C:src\a.go`, one}, // drive-relative, on cwd's drive
		{cwd, `c:src\a.go`, one},
		{cwd, `D:src\a.go`, `D:\src\a.go`}, // another drive: its root
		{cwd, `\Users\me\repo\src\a.go`, one},
		{cwd, `/Users/me/repo/src/a.go`, one},
		{`c:/Users/me/repo/`, `src\a.go`, one}, // cwd cleaned too
		{`\\?\C:\Users\me\repo`, `src\a.go`, one},
		{`\\srv\share\repo`, `src\a.go`, `\\srv\share\repo\src\a.go`},
		{`\\srv\share\repo`, `\x`, `\\srv\share\x`},
		{`\\srv\share\repo`, `..\..\..\x`, `\\srv\share\x`},
		{`\\srv\share\repo`, `C:x`, `C:\x`},
		{cwd, `..\..\..\..\x`, `C:\x`},
		{cwd, ``, cwd},
		{cwd, `.`, cwd},
		{``, `src\a.go`, `src\a.go`}, // no cwd: only cleaned
		{`repo`, `src\a.go`, `src\a.go`},
		{`C:repo`, `src\a.go`, `src\a.go`},
	} {
		if got := Abs(c.cwd, c.in); got != c.want {
			t.Errorf("Abs(%#q, %#q) = %#q, want %#q", c.cwd, c.in, got, c.want)
		}
	}
}

func TestFromGitBash(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // "": not a Git Bash drive path
	}{
		{`/c/Users/me/repo/src/a.go`, one},
		{`/C/Users/me/repo/src/a.go`, one},
		{`/c/Users/me/repo/src/a.go/`, one},
		{`/c//Users/me/./repo/lib/../src/a.go`, one},
		{`/cygdrive/c/Users/me/repo/src/a.go`, one},
		{`/c`, `C:\`},
		{`/c/`, `C:\`},
		{`/c/..`, `C:\`},
		{`/d/x`, `D:\x`},
		{`/cygdrive/d`, `D:\`},
		{`/c/Users\me`, `C:\Users\me`},
		{`/cc/x`, ""},    // not a drive letter
		{`/usr/bin`, ""}, // Git's own folders: where depends on its install
		{`/tmp/x`, ""},
		{`/mnt/c/Users`, ""}, // WSL's, not Git Bash's
		{`/cygdrive`, ""},
		{`/cygdrive/`, ""},
		{`/cygdrive/cc/x`, ""},
		{`//c/x`, ""}, // //c is a UNC host to Git Bash
		{`//srv/share`, ""},
		{`/1/x`, ""},
		{`/c:/x`, ""},
		{`/`, ""},
		{``, ""},
		{`c/x`, ""},
		{`C:/x`, ""}, // a Windows path already
		{`\c\x`, ""},
	} {
		got, ok := FromGitBash(c.in)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("FromGitBash(%#q) = %#q, %v; want %#q", c.in, got, ok, c.want)
		}
	}
}

// FuzzClean holds Clean to its promises on any input: no panic, a fixed
// point, and FromGitBash and Abs give what Clean leaves alone.
func FuzzClean(f *testing.F) {
	for _, s := range []string{one, `\\?\UNC\srv\share\x`, `//srv/share`, `C:`, `C:foo`, `\\?\`, `/c`, `/cc/x`, `..\..`, `\\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		c := Clean(p)
		if Clean(c) != c {
			t.Errorf("Clean(%#q) = %#q, which Clean makes %#q", p, c, Clean(c))
		}
		if w, ok := FromGitBash(p); ok && (Clean(w) != w || !IsAbs(w)) {
			t.Errorf("FromGitBash(%#q) = %#q, not clean and absolute", p, w)
		}
		if a := Abs(`C:\cwd`, p); Clean(a) != a {
			t.Errorf("Abs(C:\\cwd, %#q) = %#q, not clean", p, a)
		}
	})
}
