package merge

import (
	"os"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/setup"
)

// checkAttr returns what git says of the log's merge attribute.
func (s *sandbox) checkAttr(dir string) string {
	s.t.Helper()
	out := s.git(dir, "check-attr", "merge", "--", ".lucid/log.jsonl")
	return strings.TrimSpace(out[strings.LastIndex(out, ": ")+2:])
}

// config returns git's value of key in dir, "" when it is not set.
func (s *sandbox) config(dir, key string) string {
	s.t.Helper()
	out, _ := s.try(dir, "config", "--get", key)
	return strings.TrimSpace(out)
}

func TestInstallCreates(t *testing.T) {
	s := newSandbox(t, true)
	s.git("", "init", "-q", "r")
	r := s.repo("r")
	changes, err := Install(r, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 || changes[0].Path != ".gitattributes" || changes[1].Path != ".git/config" {
		t.Errorf("changes: %+v", changes)
	}
	if got := s.checkAttr("r"); got != "lucid" {
		t.Errorf("check-attr says merge: %s", got)
	}
	if s.config("r", "merge.lucid.driver") != DriverCommand || s.config("r", "merge.lucid.name") != DriverName {
		t.Errorf("config: driver %q, name %q", s.config("r", "merge.lucid.driver"), s.config("r", "merge.lucid.name"))
	}
	if !ConfigInstalled(r) {
		t.Error("ConfigInstalled is false after Install")
	}
	attrs, conf := s.readFile("r/.gitattributes"), s.readFile("r/.git/config")
	// Again: nothing changes.
	if changes, err := Install(r, false); err != nil || len(changes) != 0 {
		t.Errorf("Install again: %v, %v", changes, err)
	}
	if s.readFile("r/.gitattributes") != attrs || s.readFile("r/.git/config") != conf {
		t.Error("Install again changed the files")
	}
	if n := strings.Count(attrs, AttrLine); n != 1 {
		t.Errorf(".gitattributes has the line %d times:\n%s", n, attrs)
	}
}

func TestInstallKeepsUsersAttributes(t *testing.T) {
	s := newSandbox(t, true)
	for _, c := range []struct{ name, before, after string }{
		{"crlf, no final newline", "*.png binary\r\n*.txt text", "*.png binary\r\n*.txt text\r\n" + AttrLine + "\r\n"},
		{"lf", "# mine\n*.png binary\n", "# mine\n*.png binary\n" + AttrLine + "\n"},
		{"empty", "", AttrLine + "\n"},
		{"the line, spaced", "*.png binary\n.lucid/log.jsonl\tmerge=lucid  \n", "*.png binary\n.lucid/log.jsonl\tmerge=lucid  \n"},
		{"a line that overrides it", "*.jsonl merge=union\n", "*.jsonl merge=union\n" + AttrLine + "\n"},
	} {
		dir := strings.ReplaceAll(c.name, " ", "-")
		s.git("", "init", "-q", dir)
		s.writeFile(dir+"/.gitattributes", c.before)
		os.Chmod(s.path(dir+"/.gitattributes"), 0o600)
		if _, err := Install(s.repo(dir), false); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := s.readFile(dir + "/.gitattributes"); got != c.after {
			t.Errorf("%s: .gitattributes is\n%q\nwant\n%q", c.name, got, c.after)
		}
		if fi, _ := os.Stat(s.path(dir + "/.gitattributes")); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: the file's mode became %v", c.name, fi.Mode())
		}
		if got := s.checkAttr(dir); got != "lucid" {
			t.Errorf("%s: check-attr says merge: %s", c.name, got)
		}
		// Uninstall gives back the file as it was.
		if _, err := Uninstall(s.repo(dir)); err != nil {
			t.Fatalf("%s: Uninstall: %v", c.name, err)
		}
		want := c.before
		if c.name == "crlf, no final newline" {
			want += "\r\n" // the newline Install added stays
		}
		if c.name != "the line, spaced" {
			if got := s.readFile(dir + "/.gitattributes"); got != want {
				t.Errorf("%s: after Uninstall .gitattributes is\n%q\nwant\n%q", c.name, got, want)
			}
		}
	}
}

func TestInstallForeignDriver(t *testing.T) {
	s := newSandbox(t, true)
	s.git("", "init", "-q", "r")
	r := s.repo("r")
	s.git("r", "config", "merge.lucid.driver", "my-merge %A %B")
	conf := s.readFile("r/.git/config")
	_, err := Install(r, false)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `"my-merge %A %B"`) ||
		!strings.Contains(err.Error(), "--force") || !strings.Contains(err.Error(), ".git/config") {
		t.Fatalf("Install over a driver of the user's: %v", err)
	}
	if _, err := os.Stat(s.path("r/.gitattributes")); err == nil || s.readFile("r/.git/config") != conf {
		t.Error("Install changed something while refusing")
	}
	s.writeFile("r/.gitattributes", AttrLine+"\n") // a clone of a repository that uses lucid
	if _, err := InstallConfig(r); err == nil || s.readFile("r/.git/config") != conf {
		t.Errorf("InstallConfig over a driver of the user's: %v", err)
	}
	// Uninstall leaves it alone too.
	if _, err := Uninstall(r); err != nil || s.config("r", "merge.lucid.driver") != "my-merge %A %B" {
		t.Errorf("Uninstall: %v; driver now %q", err, s.config("r", "merge.lucid.driver"))
	}
	// With force, it is replaced.
	if _, err := Install(r, true); err != nil {
		t.Fatal(err)
	}
	if got := s.config("r", "merge.lucid.driver"); got != DriverCommand {
		t.Errorf("after --force the driver is %q", got)
	}

	// A driver in the user's global config is the user's too.
	s.git("", "init", "-q", "g")
	s.git("g", "config", "--global", "merge.lucid.driver", "global-merge %A")
	if _, err := Install(s.repo("g"), false); err == nil || !strings.Contains(err.Error(), ".gitconfig") {
		t.Errorf("Install under a global driver: %v", err)
	}
	s.git("g", "config", "--global", "--unset", "merge.lucid.driver")

	// An older form of lucid's own is brought up to date.
	s.git("", "init", "-q", "old")
	s.git("old", "config", "merge.lucid.driver", "lucid merge-driver %O %A %B")
	if _, err := Install(s.repo("old"), false); err != nil {
		t.Fatal(err)
	}
	if got := s.config("old", "merge.lucid.driver"); got != DriverCommand {
		t.Errorf("an older lucid driver became %q", got)
	}
	// One that runs more than lucid is not lucid's.
	s.git("old", "config", "merge.lucid.driver", "lucid merge-driver %O %A %B; echo more")
	if _, err := Install(s.repo("old"), false); err == nil {
		t.Error("Install took a driver that runs another command for lucid's")
	}
}

func TestInstallWorktreeConfigOverride(t *testing.T) {
	s := newSandbox(t, true)
	s.git("", "init", "-q", "r")
	s.git("r", "config", "extensions.worktreeConfig", "true")
	s.git("r", "config", "--worktree", "merge.lucid.driver", "mine %A")
	// The per-work-tree value would win over the common one: force cannot
	// fix that from the common config, and says what to do.
	_, err := Install(s.repo("r"), true)
	if err == nil || !strings.Contains(err.Error(), "config.worktree") || !strings.Contains(err.Error(), "--unset") {
		t.Errorf("Install under a per-work-tree driver: %v", err)
	}
}

func TestUninstall(t *testing.T) {
	s := newSandbox(t, true)
	s.git("", "init", "-q", "r")
	r := s.repo("r")
	before := s.readFile("r/.git/config")
	if _, err := Install(r, false); err != nil {
		t.Fatal(err)
	}
	changes, err := Uninstall(r)
	if err != nil || len(changes) != 2 {
		t.Fatalf("Uninstall: %+v, %v", changes, err)
	}
	// lucid created .gitattributes, and nothing else is in it: it goes.
	if _, err := os.Stat(s.path("r/.gitattributes")); !os.IsNotExist(err) {
		t.Errorf(".gitattributes is still there: %v", err)
	}
	if got := s.readFile("r/.git/config"); got != before {
		t.Errorf("config after Uninstall:\n%s\nwant:\n%s", got, before)
	}
	if changes, err := Uninstall(r); err != nil || len(changes) != 0 {
		t.Errorf("Uninstall again: %v, %v", changes, err)
	}

	// A section with a key of the user's keeps it; a .gitattributes that
	// lucid created but the user added to stays, with the user's lines.
	if _, err := Install(r, false); err != nil {
		t.Fatal(err)
	}
	s.git("r", "config", "merge.lucid.recursive", "binary")
	s.appendFile("r/.gitattributes", "*.png binary\n")
	if _, err := Uninstall(r); err != nil {
		t.Fatal(err)
	}
	if got := s.readFile("r/.gitattributes"); got != "*.png binary\n" {
		t.Errorf(".gitattributes after Uninstall: %q", got)
	}
	if s.config("r", "merge.lucid.recursive") != "binary" || s.config("r", "merge.lucid.driver") != "" || s.config("r", "merge.lucid.name") != "" {
		t.Errorf("config after Uninstall:\n%s", s.readFile("r/.git/config"))
	}

	// A .gitattributes that the user made stays, even emptied.
	s.git("", "init", "-q", "u")
	s.writeFile("u/.gitattributes", "")
	if _, err := Install(s.repo("u"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(s.repo("u")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(s.path("u/.gitattributes")); err != nil || len(got) != 0 {
		t.Errorf("the user's .gitattributes after Uninstall: %q, %v", got, err)
	}
}

func TestFreshCloneHeals(t *testing.T) {
	s := newSandbox(t, true)
	c := newClock()
	s.newRepo("origin")
	s.appendEntries("origin", c, "base")
	s.git("", "clone", "-q", "origin", "clone")
	clone := s.repo("clone")
	// The attribute came with the clone; the driver's config did not.
	if got := s.checkAttr("clone"); got != "lucid" {
		t.Errorf("check-attr in the clone: %s", got)
	}
	if ConfigInstalled(clone) {
		t.Fatal("ConfigInstalled in a fresh clone")
	}
	wrote, err := InstallConfig(clone)
	if err != nil || !wrote {
		t.Fatalf("InstallConfig: %v, %v", wrote, err)
	}
	if !ConfigInstalled(clone) {
		t.Error("ConfigInstalled is false after InstallConfig")
	}
	if wrote, err := InstallConfig(clone); err != nil || wrote {
		t.Errorf("InstallConfig again: %v, %v", wrote, err)
	}
	if st := s.git("clone", "status", "--porcelain"); st != "" {
		t.Errorf("InstallConfig changed the work tree:\n%s", st)
	}
	// A repository whose .gitattributes does not ask for the driver (lucid
	// uninstall took it out, or it was never there) gets no config.
	s.git("", "init", "-q", "plain")
	if wrote, err := InstallConfig(s.repo("plain")); err != nil || wrote || s.config("plain", "merge.lucid.driver") != "" {
		t.Errorf("InstallConfig without the attribute: %v, %v", wrote, err)
	}
	// And merges in the clone now go through the driver.
	s.mergeDiverged("clone", c)
	wantTexts(t, s.logTexts("clone"), "base", "ours", "theirs")
	s.wantRuns(1)
}

func TestCheck(t *testing.T) {
	s := newSandbox(t, true)
	s.newRepo("r")
	r := s.repo("r")
	byName := func() map[string]setup.Finding {
		m := map[string]setup.Finding{}
		for _, f := range Check(r) {
			if !f.OK && f.Fix == "" {
				t.Errorf("%s failed without a fix: %s", f.Check, f.Detail)
			}
			m[f.Check] = f
		}
		return m
	}
	for name, f := range byName() {
		if !f.OK {
			t.Errorf("healthy set-up: %s fails: %s", name, f.Detail)
		}
	}
	if len(byName()) != 3 {
		t.Errorf("want three checks, have %v", byName())
	}

	// lucid not on the PATH that git runs the driver with.
	s.env = gitEnv(t, false)
	t.Setenv("PATH", origPath)
	if f := byName()["merge driver runs"]; f.OK || !strings.Contains(f.Fix, "PATH") || !strings.Contains(f.Detail, "lucid: not found") {
		t.Errorf("without lucid on PATH: %+v", f)
	}
	t.Setenv("PATH", testBin+string(os.PathListSeparator)+origPath)

	// An attribute overridden by a later line.
	s.writeFile("r/.gitattributes", s.readFile("r/.gitattributes")+"*.jsonl merge=union\n")
	if f := byName()["merge attribute"]; f.OK || !strings.Contains(f.Detail, "merge: union") || !strings.Contains(f.Fix, "overrides") {
		t.Errorf("an overridden attribute: %+v", f)
	}
	s.git("r", "rm", "-qf", ".gitattributes") // from the index too, which git also reads
	if f := byName()["merge attribute"]; f.OK || !strings.Contains(f.Fix, "lucid init") {
		t.Errorf("no attribute: %+v", f)
	}

	// A driver of the user's; then none.
	s.git("r", "config", "merge.lucid.driver", "cat %A")
	got := byName()
	if f := got["merge driver config"]; f.OK || !strings.Contains(f.Fix, "--force") {
		t.Errorf("a driver of the user's: %+v", f)
	}
	if _, ran := got["merge driver runs"]; ran {
		t.Error("Check ran a driver that is not lucid's")
	}
	s.git("r", "config", "--unset", "merge.lucid.driver")
	if f := byName()["merge driver config"]; f.OK || !strings.Contains(f.Fix, "lucid init") {
		t.Errorf("no driver: %+v", f)
	}
}
