package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// registeredHooks reads a settings file as Claude Code does, as plain
// JSON, and returns "EVENT [MATCHER] COMMAND TIMEOUT" for each hook.
func registeredHooks(t *testing.T, text string) []string {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("not valid JSON after init: %v\n%s", err, text)
	}
	var out []string
	for ev, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				out = append(out, strings.Join([]string{ev, "[" + g.Matcher + "]", h.Command, json.Number(strconv.Itoa(h.Timeout)).String()}, " "))
			}
		}
	}
	return out
}

// The user's bytes survive init and uninstall exactly, whatever their
// layout; init registers every event; a second init changes nothing; and
// what init inserts follows the file's layout.
func TestRoundTripKeepsTheUsersBytes(t *testing.T) {
	cases := []struct {
		name, text string
		// a line init must leave as it is (the user's one-line member)
		keep string
	}{
		{"indented", "{\n  \"permissions\": {\"allow\": [\"Bash(npm test:*)\", \"Read\"]},\n  \"model\": \"opus\"\n}\n", `  "permissions": {"allow": ["Bash(npm test:*)", "Read"]},`},
		{"four spaces with hooks", "{\n    \"hooks\": {\n        \"Stop\": [\n            {\"hooks\": [{\"type\": \"command\", \"command\": \"my-stop\"}]}\n        ]\n    }\n}\n", `            {"hooks": [{"type": "command", "command": "my-stop"}]}`},
		{"tabs", "{\n\t\"permissions\": {\"allow\": [\"Read\"]},\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"Bash\",\n\t\t\t\t\"hooks\": [{\"type\": \"command\", \"command\": \"./check.sh && echo ok\"}]\n\t\t\t}\n\t\t]\n\t}\n}", "\t\"permissions\": {\"allow\": [\"Read\"]},"},
		{"crlf", "{\r\n  \"permissions\": {\"allow\": [\"Read\"]},\r\n  \"hooks\": {\r\n    \"Stop\": [\r\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"my-stop\"}]}\r\n    ]\r\n  }\r\n}\r\n", "  \"permissions\": {\"allow\": [\"Read\"]},\r"},
		{"compact one line", `{"permissions": {"allow": ["Read"]}, "model": "opus"}`, `{"permissions": {"allow": ["Read"]}, "model": "opus"`},
		{"minified", `{"permissions":{"allow":["Read"]},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"my-stop"}]}]}}`, `{"permissions":{"allow":["Read"]},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"my-stop"}]}`},
		{"empty object", "{}\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := installertest.NewRepo(t)
			installertest.WriteSettings(t, repo, SettingsName, tc.text)
			if _, err := install(repo, installers.Options{StatusLine: true}); err != nil {
				t.Fatal(err)
			}
			after := installertest.ReadFile(t, repo, SettingsName)
			if got := len(registeredHooks(t, after)); got < len(Hooks.Events) {
				t.Errorf("%d hooks registered, want %d:\n%s", got, len(Hooks.Events), after)
			}
			if _, events, _ := Hooks.Registered(repo); len(events) != len(Hooks.Events) {
				t.Errorf("Registered sees %d events, want %d:\n%s", len(events), len(Hooks.Events), after)
			}
			if tc.keep != "" && !strings.Contains(after, tc.keep) {
				t.Errorf("init changed the user's %q:\n%s", tc.keep, after)
			}
			if strings.Contains(tc.text, "\r\n") && strings.Count(after, "\n") != strings.Count(after, "\r\n") {
				t.Errorf("a CRLF file got bare LFs:\n%q", after)
			}
			if !strings.Contains(tc.text, "\n") && strings.Contains(after, "\n") {
				t.Errorf("a one-line file got line breaks:\n%s", after)
			}
			if strings.Contains(tc.text, "\t\"") && strings.Contains(after, "\n  \"") {
				t.Errorf("a tab-indented file got space indentation:\n%s", after)
			}
			changes, err := install(repo, installers.Options{StatusLine: true})
			if err != nil {
				t.Fatal(err)
			}
			if again := installertest.ReadFile(t, repo, SettingsName); again != after || len(changes) != 0 {
				t.Errorf("a second init changed %v:\n%s\nthen\n%s", changes, after, again)
			}
			if _, err := uninstall(repo); err != nil {
				t.Fatal(err)
			}
			if tc.text == "{}\n" && !strings.HasPrefix(after, "{\n  \"hooks\": {\n") {
				t.Errorf("an empty object is not laid out like a new file:\n%s", after)
			}
			if tc.text == "{}\n" {
				// The user's file, though it held nothing, is the user's.
				if got := installertest.ReadFile(t, repo, SettingsName); got != "{}\n" {
					t.Errorf("the user's empty settings after uninstall: %q", got)
				}
				return
			}
			if got := installertest.ReadFile(t, repo, SettingsName); got != tc.text {
				t.Errorf("uninstall did not give the file back byte for byte:\n got %q\nwant %q", got, tc.text)
			}
		})
	}
}

// A file lucid creates is laid out with two spaces, one key a line.
func TestInstallCreatesIndentedSettings(t *testing.T) {
	repo := installertest.NewRepo(t)
	changes, err := install(repo, installers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 || changes[0].What != "created, with lucid's hooks for 10 events" {
		t.Errorf("changes = %v", changes)
	}
	text := installertest.ReadFile(t, repo, SettingsName)
	if !strings.HasPrefix(text, "{\n  \"hooks\": {\n    \"SessionStart\": [\n") || !strings.HasSuffix(text, "\n}\n") {
		t.Errorf("new settings laid out as:\n%s", text)
	}
	if !strings.Contains(text, `"command": "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook SessionEnd",`+"\n"+`            "timeout": 2`) {
		t.Errorf("SessionEnd's hook is not lucid's with a 2 s timeout:\n%s", text)
	}
}

// A hook of an older lucid is replaced, a user's hook in the same group
// stays, and uninstall takes only lucid's out of that group.
func TestInstallReplacesAnOlderLucidBesideTheUsersHook(t *testing.T) {
	repo := installertest.NewRepo(t)
	installertest.WriteSettings(t, repo, SettingsName, `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {"type": "command", "command": "./mine.sh"},
          {"type": "command", "command": "lucid hook PreToolUse", "timeout": 60}
        ]
      }
    ]
  }
}
`)
	if _, err := install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	after := installertest.ReadFile(t, repo, SettingsName)
	n := 0
	for _, h := range registeredHooks(t, after) {
		if strings.HasPrefix(h, "PreToolUse ") && strings.Contains(h, "lucid hook") {
			n++
			if h != "PreToolUse ["+writeTools+"] "+HookCommand("PreToolUse")+" 10" {
				t.Errorf("PreToolUse hook = %q", h)
			}
		}
	}
	if n != 1 || !strings.Contains(after, `{"type": "command", "command": "./mine.sh"}`) {
		t.Errorf("want one lucid PreToolUse hook and the user's kept as written:\n%s", after)
	}
	if _, err := uninstall(repo); err != nil {
		t.Fatal(err)
	}
	want := `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {"type": "command", "command": "./mine.sh"}
        ]
      }
    ]
  }
}
`
	if got := installertest.ReadFile(t, repo, SettingsName); got != want {
		t.Errorf("after uninstall:\n%s\nwant\n%s", got, want)
	}
}

// A status line of the user's is theirs unless --force, and uninstall
// leaves it; lucid's own goes.
func TestStatusLine(t *testing.T) {
	repo := installertest.NewRepo(t)
	mine := `{"statusLine": {"type": "command", "command": "my-line"}}`
	installertest.WriteSettings(t, repo, SettingsName, mine)
	if _, err := install(repo, installers.Options{StatusLine: true}); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("err = %v, want a refusal naming --force", err)
	}
	if got := installertest.ReadFile(t, repo, SettingsName); got != mine {
		t.Errorf("a refused init changed the file: %s", got)
	}
	changes, err := install(repo, installers.Options{StatusLine: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(changes[0].What, `status line replaced (it was {"type":"command","command":"my-line"})`) {
		t.Errorf("changes = %v", changes)
	}
	if !strings.Contains(installertest.ReadFile(t, repo, SettingsName), `"statusLine": {"type": "command", "command": "`+StatusLineCommand+`"}`) {
		t.Errorf("status line not lucid's:\n%s", installertest.ReadFile(t, repo, SettingsName))
	}
	if _, err := uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if got := installertest.ReadFile(t, repo, SettingsName); strings.Contains(got, "lucid") {
		t.Errorf("lucid's status line or hooks left behind in the user's file:\n%s", got)
	}
}

// Settings that are not JSON, or whose hooks are not in Claude Code's
// shape, are refused with the line and what to do, and left alone.
func TestInstallRefusesBadSettings(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"{\n  \"a\": 1,\n  \"b\": \n}\n", ".claude/settings.json:4: not valid JSON"},
		{"[1, 2]", "not valid JSON (not a JSON object)"},
		{`{"hooks": []}`, `"hooks" is not a JSON object: fix it`},
		{`{"hooks": {"Stop": {}}}`, `"hooks"."Stop" is not a list of matcher groups`},
	} {
		repo := installertest.NewRepo(t)
		installertest.WriteSettings(t, repo, SettingsName, tc.text)
		_, err := install(repo, installers.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.text, err, tc.want)
		}
		if got := installertest.ReadFile(t, repo, SettingsName); got != tc.text {
			t.Errorf("%q: a refused file was changed to %q", tc.text, got)
		}
	}
}

// Hooks in the local file keep init from registering them twice.
func TestInstallKeepsToOneFile(t *testing.T) {
	repo := installertest.NewRepo(t)
	if _, err := install(repo, installers.Options{Local: true}); err != nil {
		t.Fatal(err)
	}
	changes, err := install(repo, installers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(repo.Abs(SettingsName)); !os.IsNotExist(err) || len(changes) != 1 || !strings.Contains(changes[0].What, "already has lucid's hooks") {
		t.Errorf("changes = %v, settings.json: %v", changes, err)
	}
	name, events, err := Hooks.Registered(repo)
	if err != nil || name != LocalSettingsName || len(events) != len(Hooks.Events) {
		t.Errorf("Registered = %q %v %v", name, events, err)
	}
}

// doctor's check names what is missing.
func TestCheck(t *testing.T) {
	repo := installertest.NewRepo(t)
	if fs := (Client{}).Setup().Check(repo); fs[0].OK || fs[1].OK {
		t.Errorf("nothing installed, yet %+v", fs)
	}
	if _, err := install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if fs := (Client{}).Setup().Check(repo); !fs[0].OK || !fs[1].OK {
		t.Errorf("installed, yet %+v", fs)
	}
	text := installertest.ReadFile(t, repo, SettingsName)
	installertest.WriteSettings(t, repo, SettingsName, strings.Replace(text, "exec lucid hook Stop\",\n            \"timeout\": 10", "exec lucid hook Stop\",\n            \"timeout\": 99", 1))
	fs := (Client{}).Setup().Check(repo)
	if fs[0].OK || !strings.Contains(fs[0].Detail, "lacks lucid's hooks for Stop") {
		t.Errorf("a changed Stop hook: %+v", fs[0])
	}
}

// lucid init, doctor and uninstall for Claude Code, through its Setup.
func TestSetup(t *testing.T) {
	noUserSettings(t)
	repo := installertest.NewRepo(t)
	c := Client{}
	if len(c.Setup().DoctorFiles) != 3 {
		t.Errorf("doctor files: %v", c.Setup().DoctorFiles)
	}
	if c.Title() != "Claude Code" || c.Setup().Hooks != Hooks || c.Setup().Advice != nil {
		t.Errorf("title %q", c.Title())
	}
	ch, err := c.Setup().Install(repo, installers.Options{StatusLine: true})
	if err != nil || len(ch) != 2 {
		t.Fatalf("install: %+v %v", ch, err)
	}
	if fs := c.Setup().Check(repo); len(fs) != 2 || !fs[0].OK || !fs[1].OK {
		t.Errorf("checks: %+v", fs)
	}
	if h, path, why := c.Setup().User(); h != userHooks || path != UserSettings() || why != "" {
		t.Errorf("user hooks: %v %q %q", h, path, why)
	}
	if ch, err := c.Setup().Uninstall(repo); err != nil || len(ch) != 2 {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
}

// Uninstall keeps a /lucid:dream the user changed and a settings file
// lucid cannot read stops it; the user's folder of Claude Code is
// $CLAUDE_CONFIG_DIR, else ~/.claude; a user hook outside any project
// folder asks the working folder.
func TestUninstallKeepsAndRefuses(t *testing.T) {
	noUserSettings(t)
	repo := installertest.NewRepo(t)
	if _, err := install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	installertest.WriteSettings(t, repo, DreamCommandName, "mine\n")
	ch, err := uninstall(repo)
	if err != nil || len(ch) != 2 || ch[1].What != "kept: you changed it" {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	installertest.WriteSettings(t, repo, SettingsName, "{oops")
	if _, err := uninstall(repo); err == nil {
		t.Error("uninstall went through a settings file that is not JSON")
	}
	if _, err := install(repo, installers.Options{}); err == nil {
		t.Error("install went through a settings file that is not JSON")
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "/cfg")
	if ConfigDir() != "/cfg" || UserSettings() != filepath.Join("/cfg", "settings.json") {
		t.Errorf("%q %q", ConfigDir(), UserSettings())
	}
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Chdir(repo.Top)
	if (Client{}).UserHookStandsAside("PreToolUse") {
		t.Error("stands aside where the working folder registers nothing")
	}
	if isLucidStatusLine([]byte("not json")) || !isLucidStatusLine([]byte(`{"command": "/usr/bin/lucid statusline"}`)) {
		t.Error("isLucidStatusLine")
	}
}

// What install and uninstall cannot write or read stops them with its
// error; with no home folder, Claude Code's user settings are nowhere.
func TestInstallStopsAtWhatItCannotWrite(t *testing.T) {
	noUserSettings(t)
	repo := installertest.NewRepo(t)
	installertest.WriteSettings(t, repo, ".claude/commands", "a file where a folder goes")
	if _, err := install(repo, installers.Options{}); err == nil {
		t.Error("install wrote /lucid:dream under a file")
	}
	os.Remove(repo.Abs(".claude/commands"))
	os.MkdirAll(repo.Abs(DreamCommandName), 0o755)
	if _, err := uninstall(repo); err == nil {
		t.Error("uninstall read a /lucid:dream that is a folder")
	}
	installertest.WriteSettings(t, repo, LocalSettingsName, "{oops")
	if _, err := uninstall(repo); err == nil {
		t.Error("uninstall went through a personal settings file that is not JSON")
	}
	t.Setenv("HOME", "")
	if ConfigDir() != "" || UserSettings() != "" {
		t.Errorf("no home: %q %q", ConfigDir(), UserSettings())
	}
}
