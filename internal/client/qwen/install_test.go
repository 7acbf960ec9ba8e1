package qwen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// qwenEnv gives the test a Qwen home of its own and no system settings.
func qwenEnv(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), ".qwen")
	os.MkdirAll(home, 0o755)
	t.Setenv("QWEN_HOME", home)
	t.Setenv("QWEN_CODE_TRUSTED_FOLDERS_PATH", "")
	sys := t.TempDir()
	t.Setenv("QWEN_CODE_SYSTEM_SETTINGS_PATH", filepath.Join(sys, "settings.json"))
	t.Setenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH", filepath.Join(sys, "system-defaults.json"))
	return home
}

// lucid's entries as Qwen reads them: Claude Code's shape, each named, the
// timeout in seconds (Qwen reads a value under 1000 as seconds, and a
// timed-out PreToolUse lets the tool run), the command fail-open.
func TestEntries(t *testing.T) {
	qwenEnv(t)
	repo := installertest.NewRepo(t)
	if _, err := Hooks.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Type, Command, Name string
				Timeout             float64
			}
		}
	}
	if err := json.Unmarshal([]byte(installertest.ReadFile(t, repo, SettingsName)), &s); err != nil {
		t.Fatal(err)
	}
	pre := s.Hooks["PreToolUse"]
	if len(s.Hooks) != len(events) || len(pre) != 1 || len(pre[0].Hooks) != 1 {
		t.Fatalf("hooks: %+v", s.Hooks)
	}
	h := pre[0].Hooks[0]
	if h.Type != "command" || h.Name != "lucid-PreToolUse" || h.Timeout != 10 ||
		h.Command != "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client qwen PreToolUse" {
		t.Errorf("PreToolUse: %+v", h)
	}
	if pre[0].Matcher != "^(write_file|edit|replace|notebook_edit|run_shell_command|monitor)$" {
		t.Errorf("PreToolUse matcher %q", pre[0].Matcher)
	}
	if s.Hooks["SessionStart"][0].Hooks[0].Timeout != 15 || s.Hooks["SessionEnd"][0].Hooks[0].Timeout != 2 {
		t.Errorf("timeouts: %+v", s.Hooks)
	}
}

// Qwen's folder trust, decided as 0.24.4 decides it: off unless the
// system's or the user's settings turn it on; then the deepest rule
// covering the folder, DO_NOT_TRUST where two are as deep.
func TestQwenTrust(t *testing.T) {
	home := qwenEnv(t)
	repo := installertest.NewRepo(t)
	top := repo.Top
	folders := filepath.Join(home, "trustedFolders.json")
	on := `{"security": {"folderTrust": {"enabled": true}}}`
	for _, tc := range []struct {
		user, system, rules string
		ok                  bool
		detail              string
	}{
		{"", "", "", true, "folder trust is off"},
		{`{"security": {"folderTrust": {"enabled": false}}}`, "", "", true, "folder trust is off"},
		{on, "", "", false, "no rule in"},
		{on, `{"security": {"folderTrust": {"enabled": false}}}`, "", true, "folder trust is off"},
		{"", on, "", false, "no rule in"},
		{on, "", `{"` + top + `": "TRUST_FOLDER"}`, true, "TRUST_FOLDER"},
		{on, "", `{"` + top + `/sub": "TRUST_PARENT"}`, true, "TRUST_PARENT"},
		{on, "", `{"` + filepath.Dir(top) + `": "TRUST_FOLDER", "` + top + `": "DO_NOT_TRUST"}`, false, "DO_NOT_TRUST"},
		{on, "", `{"` + filepath.Dir(top) + `": "DO_NOT_TRUST", "` + top + `": "TRUST_FOLDER"}`, true, "TRUST_FOLDER"},
		{on, "", `{"` + top + `": "TRUST_FOLDER", "` + top + `/x": "TRUST_PARENT", "` + top + `/": "DO_NOT_TRUST"}`, false, "DO_NOT_TRUST"},
		{on, "", "// mine\n{\"" + top + "\": \"TRUST_FOLDER\"}", true, "TRUST_FOLDER"},
	} {
		os.WriteFile(userSettings(), []byte(tc.user), 0o644)
		os.WriteFile(systemSettings(), []byte(tc.system), 0o644)
		os.WriteFile(folders, []byte(tc.rules), 0o644)
		f := checkQwenTrust(repo)
		if f.OK != tc.ok || !strings.Contains(f.Detail, tc.detail) || !f.OK && !strings.Contains(f.Fix, `"TRUST_FOLDER" to `+folders) {
			t.Errorf("user %q system %q rules %q: ok=%v %q (fix %q), want ok=%v with %q", tc.user, tc.system, tc.rules, f.OK, f.Detail, f.Fix, tc.ok, tc.detail)
		}
	}
	t.Setenv("QWEN_CODE_TRUSTED_FOLDERS_PATH", filepath.Join(home, "elsewhere.json"))
	os.WriteFile(userSettings(), []byte(on), 0o644)
	if f := checkQwenTrust(repo); f.OK || !strings.Contains(f.Detail, "elsewhere.json") {
		t.Errorf("QWEN_CODE_TRUSTED_FOLDERS_PATH: %+v", f)
	}
	os.WriteFile(userSettings(), []byte("{oops"), 0o644)
	if f := checkQwenTrust(repo); f.OK || f.Fix != "fix "+userSettings() {
		t.Errorf("user settings not JSON: %+v", f)
	}
}

// disableAllHooks stops every hook: the system's setting wins, then the
// project's, then the user's.
func TestQwenHooksEnabled(t *testing.T) {
	qwenEnv(t)
	repo := installertest.NewRepo(t)
	for _, tc := range []struct {
		system, project, user string
		ok                    bool
		where                 string
	}{
		{"", "", "", true, ""},
		{"", "", `{"disableAllHooks": true}`, false, userSettings()},
		{"", `{"disableAllHooks": false}`, `{"disableAllHooks": true}`, true, ""},
		{"", `{"disableAllHooks": true}`, "", false, repo.Abs(SettingsName)},
		{`{"disableAllHooks": true}`, `{"disableAllHooks": false}`, "", false, systemSettings()},
	} {
		os.WriteFile(systemSettings(), []byte(tc.system), 0o644)
		installertest.WriteSettings(t, repo, SettingsName, tc.project)
		os.WriteFile(userSettings(), []byte(tc.user), 0o644)
		f := checkQwenEnabled(repo)
		if f.OK != tc.ok || !tc.ok && !strings.HasPrefix(f.Detail, tc.where+" sets disableAllHooks") {
			t.Errorf("system %q project %q user %q: %+v", tc.system, tc.project, tc.user, f)
		}
	}
}

// lucid init, doctor and uninstall for Qwen, through its Setup: the hooks
// (byte-exact away again), the checks, the advice on the start folder, and
// the user's settings lucid init --user writes.
func TestSetup(t *testing.T) {
	home := qwenEnv(t)
	repo := installertest.NewRepo(t)
	c := Client{}
	if c.Setup().ClientChecks != nil || c.Setup().DoctorFiles != nil || c.Title() != "Qwen Code" || c.Setup().Hooks != Hooks || c.Name() != "qwen" {
		t.Error("the client's names, or checks or files of its own")
	}
	mine := "{\n  \"model\": {\"name\": \"qwen3-coder\"},\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"x\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]}\n}\n"
	installertest.WriteSettings(t, repo, SettingsName, mine)
	ch, err := c.Setup().Install(repo, installers.Options{})
	if err != nil || len(ch) != 1 || ch[0].Path != SettingsName {
		t.Fatalf("install: %+v %v", ch, err)
	}
	if ch, err := c.Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 0 {
		t.Errorf("install again: %+v %v", ch, err)
	}
	fs := c.Setup().Check(repo)
	if len(fs) != 5 || !fs[0].OK || !fs[1].OK || !strings.Contains(fs[1].Detail, "only in a session started in "+repo.Top) || !fs[2].OK || !fs[3].OK {
		t.Errorf("checks: %+v", fs)
	}
	if a := c.Setup().Advice(repo); !strings.Contains(a, "start qwen in "+repo.Top) || !strings.Contains(a, "lucid init --user --client qwen") {
		t.Errorf("advice: %q", a)
	}
	os.WriteFile(userSettings(), []byte(`{"security": {"folderTrust": {"enabled": true}}}`), 0o644)
	if a := c.Setup().Advice(repo); !strings.Contains(a, "skips project hooks here without a word") {
		t.Errorf("advice, folder trust on: %q", a)
	}
	h, path, why := c.Setup().User()
	if h != Hooks || path != filepath.Join(home, "settings.json") || why != "" {
		t.Errorf("user hooks: %v %q %q", h, path, why)
	}
	os.Remove(path)
	if _, err := installers.InstallUser(h, path); err != nil {
		t.Fatal(err)
	}
	if f := checkStartFolder(repo); !f.OK || !strings.Contains(f.Detail, "sessions started in any folder are guarded") {
		t.Errorf("start folder with user hooks: %+v", f)
	}
	if ch, err := c.Setup().Uninstall(repo); err != nil || len(ch) != 1 {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	if got := installertest.ReadFile(t, repo, SettingsName); got != mine {
		t.Errorf("after uninstall:\n%s\nwant\n%s", got, mine)
	}
	installers.UninstallUser(h, path)
	if _, err := os.Stat(path); err == nil {
		t.Error("user settings that held only lucid's hooks are still there")
	}
}

// A .qwen/settings.json that lucid creates carries Qwen's "$version", so
// that Qwen does not rewrite the committed file at its first run; it goes
// again with lucid's hooks. A file of the user's gets no "$version" from
// lucid.
func TestSettingsVersion(t *testing.T) {
	qwenEnv(t)
	repo := installertest.NewRepo(t)
	c := Client{}
	if _, err := c.Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal([]byte(installertest.ReadFile(t, repo, SettingsName)), &v); err != nil || string(v["$version"]) != "4" || len(v) != 2 {
		t.Errorf("a created file: %v %v", v, err)
	}
	if ch, err := c.Setup().Uninstall(repo); err != nil || len(ch) != 1 || !strings.HasPrefix(ch[0].What, "removed") {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	if _, err := os.Stat(repo.Abs(".qwen")); err == nil {
		t.Error(".qwen/ is still there")
	}
	mine := `{"model": {"name": "m"}}`
	installertest.WriteSettings(t, repo, SettingsName, mine)
	c.Setup().Install(repo, installers.Options{})
	if strings.Contains(installertest.ReadFile(t, repo, SettingsName), "$version") {
		t.Error("lucid added $version to the user's file")
	}
	c.Setup().Uninstall(repo)
	if got := installertest.ReadFile(t, repo, SettingsName); got != mine {
		t.Errorf("after uninstall: %s", got)
	}
	// A file of lucid's making, "$version" and all, goes.
	os.Remove(repo.Abs(SettingsName))
	c.Setup().Install(repo, installers.Options{})
	if ch, err := c.Setup().Uninstall(repo); err != nil || len(ch) != 1 || !strings.HasPrefix(ch[0].What, "removed") {
		t.Errorf("uninstall of lucid's and $version: %+v %v", ch, err)
	}
}

// Qwen's folder is $QWEN_HOME, else ~/.qwen; its trusted folders' file may
// be named by QWEN_CODE_TRUSTED_FOLDERS_PATH; doctor finds lucid on PATH.
func TestPaths(t *testing.T) {
	t.Setenv("QWEN_HOME", "")
	home := t.TempDir()
	t.Setenv("HOME", home)
	if qwenDir() != filepath.Join(home, ".qwen") || userSettings() != filepath.Join(home, ".qwen", "settings.json") {
		t.Errorf("qwen dir %q", qwenDir())
	}
	t.Setenv("QWEN_CODE_TRUSTED_FOLDERS_PATH", "/x/trusted.json")
	if trustedFolders() != "/x/trusted.json" {
		t.Errorf("trusted folders %q", trustedFolders())
	}
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	if f := installers.CheckLucidOnPath(Hooks.ID, "Qwen Code"); f.OK || f.Fix == "" {
		t.Errorf("no lucid on PATH: %+v", f)
	}
	os.WriteFile(filepath.Join(bin, "lucid"), []byte("#!/bin/sh\n"), 0o755)
	if f := installers.CheckLucidOnPath(Hooks.ID, "Qwen Code"); !f.OK || !strings.HasPrefix(f.Detail, filepath.Join(bin, "lucid")) {
		t.Errorf("lucid on PATH: %+v", f)
	}
}
