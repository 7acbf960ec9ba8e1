package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// Gemini's trust, decided as 0.61.0 decides it.
func TestGeminiTrust(t *testing.T) {
	repo := installertest.NewRepo(t)
	home := t.TempDir()
	t.Setenv("GEMINI_CLI_HOME", home)
	for _, k := range []string{"GEMINI_CLI_TRUST_WORKSPACE", "GEMINI_RESTRICTED_MODE", "GEMINI_CLI_TRUSTED_FOLDERS_PATH"} {
		t.Setenv(k, "")
	}
	folders := filepath.Join(home, ".gemini", "trustedFolders.json")
	os.MkdirAll(filepath.Dir(folders), 0o755)
	top := repo.Top
	for _, tc := range []struct {
		env, rules, settings string
		ok                   bool
		detail               string
	}{
		{"", "", "", false, "no rule in"},
		{"true", "", "", true, "GEMINI_CLI_TRUST_WORKSPACE=true"},
		{"false", `{"` + top + `": "TRUST_FOLDER"}`, "", false, "GEMINI_CLI_TRUST_WORKSPACE=false"},
		{"", `{"` + top + `": "TRUST_FOLDER"}`, "", true, "TRUST_FOLDER"},
		{"", `{"` + filepath.Dir(top) + `": "TRUST_FOLDER", "` + top + `": "DO_NOT_TRUST"}`, "", false, "DO_NOT_TRUST"},
		{"", `{"` + filepath.Dir(top) + `": "DO_NOT_TRUST", "` + top + `/sub": "TRUST_PARENT"}`, "", true, "TRUST_PARENT"},
		{"", "// mine\n{\"" + top + "\": \"TRUST_FOLDER\"}", "", true, "TRUST_FOLDER"},
		{"", "", `{"security": {"folderTrust": {"enabled": false}}}`, true, "folder trust off"},
	} {
		t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", tc.env)
		os.WriteFile(folders, []byte(tc.rules), 0o644)
		os.WriteFile(geminiUserSettings(), []byte(tc.settings), 0o644)
		if tc.rules == "" {
			os.Remove(folders)
		}
		f := checkGeminiTrust(repo)
		if f.OK != tc.ok || !strings.Contains(f.Detail, tc.detail) || !f.OK && f.Fix == "" {
			t.Errorf("env %q rules %q settings %q: ok=%v %q (fix %q), want ok=%v with %q", tc.env, tc.rules, tc.settings, f.OK, f.Detail, f.Fix, tc.ok, tc.detail)
		}
	}
}

func TestGeminiHooksEnabled(t *testing.T) {
	repo := installertest.NewRepo(t)
	home := t.TempDir()
	t.Setenv("GEMINI_CLI_HOME", home)
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	Hooks.InstallHooks(repo)
	for _, tc := range []struct {
		user string
		ok   bool
		want string
	}{
		{"", true, "hooks on"},
		{`{"hooksConfig": {"enabled": false}}`, false, "hooksConfig.enabled to false"},
		{`{"hooksConfig": {"disabled": ["lucid-BeforeTool", "other"]}}`, false, "names lucid-BeforeTool:"},
		{`{"hooksConfig": {"disabled": ["command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client gemini BeforeTool"]}}`, true, "hooks on"},
	} {
		os.WriteFile(geminiUserSettings(), []byte(tc.user), 0o644)
		if f := checkGeminiEnabled(repo); f.OK != tc.ok || !strings.Contains(f.Detail, tc.want) {
			t.Errorf("%s: ok=%v %q, want ok=%v %q", tc.user, f.OK, f.Detail, tc.ok, tc.want)
		}
	}
}

// lucid init, doctor and uninstall for Gemini, through its Setup: the
// hooks, the checks of trust and hooksConfig, the advice, and the user's
// settings lucid init --user writes.
func TestSetup(t *testing.T) {
	home := t.TempDir()
	t.Setenv("GEMINI_CLI_HOME", home)
	t.Setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", "")
	t.Setenv("GEMINI_RESTRICTED_MODE", "")
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "")
	repo := installertest.NewRepo(t)
	c := Client{}
	if c.Setup().ClientChecks != nil || c.Setup().DoctorFiles != nil {
		t.Error("checks or files of the client's own")
	}
	if c.Title() != "Gemini CLI" || c.Setup().Hooks != Hooks {
		t.Errorf("title %q", c.Title())
	}
	ch, err := c.Setup().Install(repo, installers.Options{Trust: true})
	if err != nil || len(ch) != 1 || ch[0].Path != SettingsName {
		t.Fatalf("install: %+v %v", ch, err)
	}
	fs := c.Setup().Check(repo)
	if len(fs) != 3 || !fs[0].OK || fs[1].OK || !fs[2].OK {
		t.Errorf("checks: %+v", fs)
	}
	if a := c.Setup().Advice(repo); !strings.Contains(a, "lucid-BeforeTool") || !strings.Contains(a, "It does not trust this one yet") {
		t.Errorf("advice: %q", a)
	}
	h, path, why := c.Setup().User()
	if h != Hooks || path != filepath.Join(home, ".gemini", "settings.json") || why != "" {
		t.Errorf("user hooks: %v %q %q", h, path, why)
	}
	if ch, err := c.Setup().Uninstall(repo); err != nil || len(ch) != 1 {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
}

// Gemini's home is $GEMINI_CLI_HOME, else the user's, and its trusted
// folders' file may be named by GEMINI_CLI_TRUSTED_FOLDERS_PATH.
func TestHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("GEMINI_CLI_HOME", "")
	t.Setenv("HOME", home)
	if geminiHome() != home {
		t.Errorf("home %q", geminiHome())
	}
	t.Setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", "/x/trusted.json")
	if geminiTrustedFolders() != "/x/trusted.json" {
		t.Errorf("trusted folders %q", geminiTrustedFolders())
	}
}

// Gemini's files that are not JSON, or hold only comments, as doctor
// reads them: named with a fix, or read as empty.
func TestChecksOfBadFiles(t *testing.T) {
	home := t.TempDir()
	t.Setenv("GEMINI_CLI_HOME", home)
	t.Setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", "")
	t.Setenv("GEMINI_RESTRICTED_MODE", "")
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "")
	repo := installertest.NewRepo(t)
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	os.WriteFile(geminiTrustedFolders(), []byte("// nothing yet\n"), 0o644)
	if f := checkGeminiTrust(repo); f.OK || !strings.Contains(f.Detail, "no rule in") {
		t.Errorf("comments only: %+v", f)
	}
	os.WriteFile(geminiTrustedFolders(), []byte("{oops"), 0o644)
	if f := checkGeminiTrust(repo); f.OK || f.Fix != "fix "+geminiTrustedFolders() {
		t.Errorf("trusted folders not JSON: %+v", f)
	}
	os.WriteFile(geminiUserSettings(), []byte("[1]"), 0o644)
	if f := checkGeminiTrust(repo); f.OK || f.Fix != "fix "+geminiUserSettings() {
		t.Errorf("user settings not an object: %+v", f)
	}
	if f := checkGeminiEnabled(repo); f.OK || f.Fix != "fix "+geminiUserSettings() {
		t.Errorf("hooksConfig of bad user settings: %+v", f)
	}
}
