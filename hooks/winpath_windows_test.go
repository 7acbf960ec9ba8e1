//go:build windows

package hooks

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// On Windows every spelling of one file that a payload or a Git Bash line
// carries is one path to the guard (guard/winpath): a claim denies each.

// gitBash is the absolute Windows path p as Git Bash spells it: /c/Users/me.
func gitBash(p string) string {
	return "/" + strings.ToLower(p[:1]) + filepath.ToSlash(p[2:])
}

// spellingsOf are the ways a payload can name the absolute path p.
func spellingsOf(p string) []string {
	lower := strings.ToLower(p[:1]) + p[1:]
	return []string{
		p,
		lower,
		filepath.ToSlash(p),
		filepath.ToSlash(lower),
		`\\?\` + p,
		`\\?\` + lower,
		p + `\`,
		gitBash(p),
		"/cygdrive" + gitBash(p),
	}
}

func TestAbsGivesOnePath(t *testing.T) {
	const top = `C:\Users\me\repo`
	want := top + `\src\a.go`
	for _, cwd := range spellingsOf(top) {
		c := &call{in: client.Input{Cwd: nativeDir(cwd)}}
		paths := append(spellingsOf(want), `src\a.go`, `src/a.go`, `.\src\a.go`, `src\..\src\a.go`, `C:src\a.go`, `c:src/a.go`, `\Users\me\repo\src\a.go`)
		for _, p := range paths {
			if got := c.abs(p); got != want {
				t.Errorf("cwd %#q: abs(%#q) = %#q, want %#q", cwd, p, got, want)
			}
		}
	}
	c := &call{in: client.Input{Cwd: `\\srv\share\repo`}}
	for _, p := range []string{`\\?\UNC\srv\share\repo\src\a.go`, `//srv/share/repo/src/a.go`, `src\a.go`} {
		if got := c.abs(p); got != `\\srv\share\repo\src\a.go` {
			t.Errorf("abs(%#q) = %#q, want \\\\srv\\share\\repo\\src\\a.go", p, got)
		}
	}
}

// A claim on src/** denies an edit tool's write and a shell line's,
// whichever spelling of the file or of the session's folder they use.
func TestWindowsSpellingsAreDenied(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	if filepath.VolumeName(top) != top[:2] {
		t.Skipf("the test's folder %s is on no drive letter", top)
	}
	gittest.WriteFile(t, top, "src/a.go", "package src\n")
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: top})
	do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: subID, AgentType: "general-purpose", Cwd: top})
	claim(t, repo, sub, top, "refactor auth", "src/**")
	denied := func(a answer) bool { return a.out != nil && strings.Contains(a.out.Deny, "is claimed by") }

	target := filepath.Join(top, "src", "a.go")
	for _, p := range spellingsOf(target) {
		if a := do(t, c, "PreToolUse", edit(lead, "", top, p)); !denied(a) {
			t.Errorf("edit of %s: %+v, want a denial", p, a.out)
		}
	}
	for _, cwd := range spellingsOf(top) {
		for _, p := range []string{`src\a.go`, "src/a.go"} {
			if a := do(t, c, "PreToolUse", edit(lead, "", cwd, p)); !denied(a) {
				t.Errorf("edit of %s from %s: %+v, want a denial", p, cwd, a.out)
			}
		}
		if a := do(t, c, "PreToolUse", bash(lead, "", cwd, "echo x > src/a.go")); !denied(a) {
			t.Errorf("echo x > src/a.go from %s: %+v, want a denial", cwd, a.out)
		}
	}
	for _, p := range []string{gitBash(target), filepath.ToSlash(target), "'" + target + "'", "'" + strings.ToLower(target[:1]) + target[1:] + "'"} {
		line := "echo x > " + p
		if a := do(t, c, "PreToolUse", bash(lead, "", top, line)); !denied(a) {
			t.Errorf("%s: %+v, want a denial", line, a.out)
		}
	}
	if a := do(t, c, "PreToolUse", edit(lead, "", top, gitBash(filepath.Join(top, "README.md")))); a.out != nil && a.out.Deny != "" {
		t.Errorf("an edit of an unclaimed file, as Git Bash spells it: %s", a.out.Deny)
	}
}
