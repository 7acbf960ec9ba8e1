package installers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// A client's hooks go into its shared settings beside the user's, are
// registered, set up and checked there, and come out again leaving the
// user's bytes; a file that held only lucid's goes, with the folders it
// leaves empty.
func TestInstallCheckUninstall(t *testing.T) {
	repo := installertest.NewRepo(t)
	c := testClient
	if _, found := c.Detected(repo); found || c.SetUp(repo) {
		t.Error("detected or set up in an empty repository")
	}
	if f := c.CheckHooks(repo, "hooks", "none", "fix"); f.OK || f.Detail != "none" || f.Fix != "fix" {
		t.Errorf("nothing installed: %+v", f)
	}
	user := "{\n  \"model\": \"x\"\n}\n"
	installertest.WriteSettings(t, repo, c.Settings, user)
	if dir, found := c.Detected(repo); !found || dir != filepath.Dir(c.Settings) {
		t.Errorf("the settings' folder is not detected: %q", dir)
	}
	ch, err := c.InstallHooks(repo)
	if err != nil || len(ch) != 1 || !strings.Contains(ch[0].What, "lucid's hooks registered for 10 events") {
		t.Fatalf("install: %+v %v", ch, err)
	}
	if name, events, err := c.Registered(repo); name != c.Settings || len(events) != len(c.Events) || err != nil {
		t.Errorf("registered: %q %v %v", name, events, err)
	}
	if f := c.CheckHooks(repo, "hooks", "none", "fix"); !f.OK || !c.SetUp(repo) {
		t.Errorf("installed: %+v", f)
	}
	text := installertest.ReadFile(t, repo, c.Settings)
	i := strings.Index(text, "hook Stop\"")
	j := i + strings.Index(text[i:], `"timeout": 10`)
	installertest.WriteSettings(t, repo, c.Settings, text[:j]+`"timeout": 99`+text[j+len(`"timeout": 10`):])
	if f := c.CheckHooks(repo, "hooks", "none", "fix"); f.OK || !strings.Contains(f.Detail, "lacks lucid's hooks for Stop") || f.Fix != "run `lucid init` to register them again" {
		t.Errorf("a changed Stop hook: %+v\n%s", f, installertest.ReadFile(t, repo, c.Settings))
	}
	entries, path, err := c.Entries(repo, c.Settings)
	if err != nil || path != repo.Abs(c.Settings) || len(entries) != len(c.Events) {
		t.Fatalf("entries: %d %q %v", len(entries), path, err)
	}
	for _, e := range entries {
		if e.Exact != (e.Event != "Stop") || !strings.Contains(string(e.Raw), "lucid hook "+e.Event) {
			t.Errorf("entry %+v", e)
		}
	}
	if ch, err := c.UninstallHooks(repo); err != nil || len(ch) != 1 || installertest.ReadFile(t, repo, c.Settings) != user {
		t.Errorf("uninstall: %+v %v\n%s", ch, err, installertest.ReadFile(t, repo, c.Settings))
	}
	// A file of lucid's making goes with its folder; the user's stays.
	installertest.WriteSettings(t, repo, c.Settings, "{}")
	c.InstallHooks(repo)
	if ch, err := c.UninstallHooks(repo); err != nil || len(ch) != 1 || installertest.ReadFile(t, repo, c.Settings) != "{}" {
		t.Errorf("uninstall from the user's empty file: %+v %v", ch, err)
	}
	os.RemoveAll(repo.Abs(filepath.Dir(c.Settings)))
	c.InstallHooks(repo)
	if ch, err := c.UninstallHooks(repo); err != nil || len(ch) != 1 || !strings.Contains(ch[0].What, "removed") {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	if _, err := os.Stat(repo.Abs(filepath.Dir(c.Settings))); !os.IsNotExist(err) {
		t.Errorf("the folder lucid emptied stays (%v)", err)
	}
	installertest.WriteSettings(t, repo, c.Settings, "{\n  \"a\": 1,\n  oops\n}")
	if _, err := c.InstallHooks(repo); err == nil || !strings.Contains(err.Error(), c.Settings+":3: not valid JSON") {
		t.Errorf("bad JSON: %v", err)
	}
	if !c.SetUp(repo) {
		t.Error("a file lucid cannot read is not left for doctor to name")
	}
}

// The user's settings: installed once, set up, removed; a file of the
// user's home is read through the user's link.
func TestUserSettings(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte(`{"theme": "dark"}`), 0o644)
	path := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, path); err != nil {
		t.Skip(err)
	}
	p := path
	if b, err := ReadHomeFile(&p); err != nil || p != real || string(b) != `{"theme": "dark"}` {
		t.Errorf("ReadHomeFile: %q %q %v", b, p, err)
	}
	path = filepath.Join(dir, "user.json")
	os.WriteFile(path, []byte(`{"theme": "dark"}`), 0o644)
	if UserSetUp(testClient, path) {
		t.Error("set up before install")
	}
	if ch, err := InstallUser(testClient, path); err != nil || len(ch) != 1 || !UserSetUp(testClient, path) {
		t.Errorf("install: %+v %v", ch, err)
	}
	if ch, err := UninstallUser(testClient, path); err != nil || len(ch) != 1 {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"theme": "dark"}` {
		t.Errorf("after uninstall: %s", b)
	}
	if _, err := UninstallUser(testClient, filepath.Join(dir, "missing.json")); err != nil {
		t.Error(err)
	}
}

func TestPluginMissingQuotes(t *testing.T) {
	if strings.ContainsAny(PluginMissing, `'"\$`+"`") {
		t.Errorf("PluginMissing holds a quote, a backslash, a backtick or a dollar: %s", PluginMissing)
	}
}
