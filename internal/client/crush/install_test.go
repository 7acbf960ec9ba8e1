package crush

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// lucid's entry as Crush reads it: the event's list holds the hook itself,
// named, with its anchored matcher (Crush tests it unanchored), the
// timeout in seconds (a timed-out hook lets the tool run), the command
// fail-open.
func TestEntries(t *testing.T) {
	repo := installertest.NewRepo(t)
	if _, err := Hooks.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Name, Matcher, Command string
			Timeout                float64
		}
	}
	if err := json.Unmarshal([]byte(installertest.ReadFile(t, repo, SettingsName)), &s); err != nil {
		t.Fatal(err)
	}
	pre := s.Hooks["PreToolUse"]
	if len(s.Hooks) != 1 || len(pre) != 1 {
		t.Fatalf("hooks: %+v", s.Hooks)
	}
	h := pre[0]
	if h.Name != "lucid-PreToolUse" || h.Timeout != 10 || h.Matcher != "^(write|edit|multiedit|download|lsp_replace_symbol|bash|agent)$" ||
		h.Command != "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client crush PreToolUse" {
		t.Errorf("PreToolUse: %+v", h)
	}
}

// lucid init writes its entry beside the user's own settings and hooks,
// changes nothing the second time, refuses a file it cannot read, and
// lucid uninstall gives the file back byte for byte; a file lucid created
// goes with its entry. doctor finds the hook.
func TestSetup(t *testing.T) {
	repo := installertest.NewRepo(t)
	c := Client{}
	if ch, err := c.Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 1 || !strings.HasPrefix(ch[0].What, "created") {
		t.Fatalf("install in a repository without crush.json: %+v %v", ch, err)
	}
	if fs := c.Setup().Check(repo); len(fs) != 2 || !fs[0].OK {
		t.Errorf("checks: %+v", fs)
	}
	if ch, err := c.Setup().Uninstall(repo); err != nil || len(ch) != 1 || !strings.HasPrefix(ch[0].What, "removed") {
		t.Errorf("uninstall of a file lucid created: %+v %v", ch, err)
	}
	if _, err := os.Stat(repo.Abs(SettingsName)); err == nil {
		t.Error("crush.json that held only lucid's hook is still there")
	}

	mine := `{
  "$schema": "https://charm.land/crush.json",
  "options": {"debug": false},
  "hooks": {
    "PreToolUse": [
      {"name": "no-rm", "matcher": "^bash$", "command": "./hooks/no-rm.sh", "timeout": 5}
    ]
  }
}
`
	installertest.WriteSettings(t, repo, SettingsName, mine)
	if ch, err := c.Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 1 {
		t.Fatalf("install: %+v %v", ch, err)
	}
	got := installertest.ReadFile(t, repo, SettingsName)
	if !strings.Contains(got, `"./hooks/no-rm.sh"`) || !strings.Contains(got, "exec lucid hook --client crush PreToolUse") {
		t.Errorf("after install:\n%s", got)
	}
	if ch, err := c.Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 0 {
		t.Errorf("install again: %+v %v", ch, err)
	}
	if !Hooks.SetUp(repo) {
		t.Error("SetUp does not find lucid's hook")
	}
	if ch, err := c.Setup().Uninstall(repo); err != nil || len(ch) != 1 {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	if got := installertest.ReadFile(t, repo, SettingsName); got != mine {
		t.Errorf("after uninstall:\n%s\nwant\n%s", got, mine)
	}

	for _, bad := range []string{`{"hooks": {"PreToolUse": {}}}`, `{"hooks": [1]}`, "{// a comment\n}"} {
		installertest.WriteSettings(t, repo, SettingsName, bad)
		if _, err := c.Setup().Install(repo, installers.Options{}); err == nil {
			t.Errorf("install over %q: no error", bad)
		}
		if got := installertest.ReadFile(t, repo, SettingsName); got != bad {
			t.Errorf("install changed %q to %q", bad, got)
		}
	}
}

// Crush's user config: $CRUSH_GLOBAL_CONFIG/crush.json, else
// $XDG_CONFIG_HOME/crush/crush.json, else ~/.config/crush/crush.json;
// lucid init --user writes lucid's entry there, and takes it away again.
func TestUserSettings(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("CRUSH_GLOBAL_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	if got := userSettings(); got != filepath.Join(home, ".config", "crush", "crush.json") {
		t.Errorf("default: %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "/x")
	if got := userSettings(); got != filepath.Join("/x", "crush", "crush.json") {
		t.Errorf("XDG_CONFIG_HOME: %q", got)
	}
	dir := t.TempDir()
	t.Setenv("CRUSH_GLOBAL_CONFIG", dir)
	h, path, why := Client{}.Setup().User()
	if h != Hooks || path != filepath.Join(dir, "crush.json") || why != "" {
		t.Fatalf("user hooks: %v %q %q", h, path, why)
	}
	mine := `{"models": {"large": {"model": "m", "provider": "p"}}}`
	os.WriteFile(path, []byte(mine), 0o644)
	if _, err := installers.InstallUser(h, path); err != nil || !installers.UserSetUp(h, path) {
		t.Fatalf("install --user: %v", err)
	}
	if _, err := installers.UninstallUser(h, path); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != mine {
		t.Errorf("after uninstall --user: %s", b)
	}
}
