package installers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/gittest"
)

// newRepo returns a fresh git repository in a temporary folder.
func newRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	repo, err := gitstore.Find(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func writeSettings(t *testing.T, repo *gitstore.Repo, name, text string) {
	t.Helper()
	path := repo.Abs(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, repo *gitstore.Repo, name string) string {
	t.Helper()
	b, err := os.ReadFile(repo.Abs(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

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
				out = append(out, strings.Join([]string{ev, "[" + g.Matcher + "]", h.Command, json.Number(itoa(h.Timeout)).String()}, " "))
			}
		}
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

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
			repo := newRepo(t)
			writeSettings(t, repo, SettingsName, tc.text)
			if _, err := Install(repo, InstallOptions{StatusLine: true}); err != nil {
				t.Fatal(err)
			}
			after := readFile(t, repo, SettingsName)
			if got := len(registeredHooks(t, after)); got < len(ClaudeCode.Events) {
				t.Errorf("%d hooks registered, want %d:\n%s", got, len(ClaudeCode.Events), after)
			}
			if _, events, _ := ClaudeCode.Registered(repo); len(events) != len(ClaudeCode.Events) {
				t.Errorf("Registered sees %d events, want %d:\n%s", len(events), len(ClaudeCode.Events), after)
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
			changes, err := Install(repo, InstallOptions{StatusLine: true})
			if err != nil {
				t.Fatal(err)
			}
			if again := readFile(t, repo, SettingsName); again != after || len(changes) != 0 {
				t.Errorf("a second init changed %v:\n%s\nthen\n%s", changes, after, again)
			}
			if _, err := Uninstall(repo); err != nil {
				t.Fatal(err)
			}
			if tc.text == "{}\n" && !strings.HasPrefix(after, "{\n  \"hooks\": {\n") {
				t.Errorf("an empty object is not laid out like a new file:\n%s", after)
			}
			if tc.text == "{}\n" {
				if _, err := os.Stat(repo.Abs(SettingsName)); !os.IsNotExist(err) {
					t.Errorf("a settings file that held only lucid's hooks is still there: %v", err)
				}
				return
			}
			if got := readFile(t, repo, SettingsName); got != tc.text {
				t.Errorf("uninstall did not give the file back byte for byte:\n got %q\nwant %q", got, tc.text)
			}
		})
	}
}

// A file lucid creates is laid out with two spaces, one key a line.
func TestInstallCreatesIndentedSettings(t *testing.T) {
	repo := newRepo(t)
	changes, err := Install(repo, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 || changes[0].What != "created, with lucid's hooks for 10 events" {
		t.Errorf("changes = %v", changes)
	}
	text := readFile(t, repo, SettingsName)
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
	repo := newRepo(t)
	writeSettings(t, repo, SettingsName, `{
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
	if _, err := Install(repo, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	after := readFile(t, repo, SettingsName)
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
	if _, err := Uninstall(repo); err != nil {
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
	if got := readFile(t, repo, SettingsName); got != want {
		t.Errorf("after uninstall:\n%s\nwant\n%s", got, want)
	}
}

// A status line of the user's is theirs unless --force, and uninstall
// leaves it; lucid's own goes.
func TestStatusLine(t *testing.T) {
	repo := newRepo(t)
	mine := `{"statusLine": {"type": "command", "command": "my-line"}}`
	writeSettings(t, repo, SettingsName, mine)
	if _, err := Install(repo, InstallOptions{StatusLine: true}); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("err = %v, want a refusal naming --force", err)
	}
	if got := readFile(t, repo, SettingsName); got != mine {
		t.Errorf("a refused init changed the file: %s", got)
	}
	changes, err := Install(repo, InstallOptions{StatusLine: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(changes[0].What, `status line replaced (it was {"type":"command","command":"my-line"})`) {
		t.Errorf("changes = %v", changes)
	}
	if !strings.Contains(readFile(t, repo, SettingsName), `"statusLine": {"type": "command", "command": "`+StatusLineCommand+`"}`) {
		t.Errorf("status line not lucid's:\n%s", readFile(t, repo, SettingsName))
	}
	if _, err := Uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(repo.Abs(SettingsName)); !os.IsNotExist(err) {
		t.Errorf("settings with only lucid's status line and hooks left behind: %v", err)
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
		repo := newRepo(t)
		writeSettings(t, repo, SettingsName, tc.text)
		_, err := Install(repo, InstallOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.text, err, tc.want)
		}
		if got := readFile(t, repo, SettingsName); got != tc.text {
			t.Errorf("%q: a refused file was changed to %q", tc.text, got)
		}
	}
}

// Hooks in the local file keep init from registering them twice.
func TestInstallKeepsToOneFile(t *testing.T) {
	repo := newRepo(t)
	if _, err := Install(repo, InstallOptions{Local: true}); err != nil {
		t.Fatal(err)
	}
	changes, err := Install(repo, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(repo.Abs(SettingsName)); !os.IsNotExist(err) || len(changes) != 1 || !strings.Contains(changes[0].What, "already has lucid's hooks") {
		t.Errorf("changes = %v, settings.json: %v", changes, err)
	}
	name, events, err := ClaudeCode.Registered(repo)
	if err != nil || name != LocalSettingsName || len(events) != len(ClaudeCode.Events) {
		t.Errorf("Registered = %q %v %v", name, events, err)
	}
}

// doctor's check names what is missing.
func TestCheck(t *testing.T) {
	repo := newRepo(t)
	if fs := Check(repo); fs[0].OK || fs[1].OK {
		t.Errorf("nothing installed, yet %+v", fs)
	}
	if _, err := Install(repo, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if fs := Check(repo); !fs[0].OK || !fs[1].OK {
		t.Errorf("installed, yet %+v", fs)
	}
	text := readFile(t, repo, SettingsName)
	writeSettings(t, repo, SettingsName, strings.Replace(text, "exec lucid hook Stop\",\n            \"timeout\": 10", "exec lucid hook Stop\",\n            \"timeout\": 99", 1))
	fs := Check(repo)
	if fs[0].OK || !strings.Contains(fs[0].Detail, "lacks lucid's hooks for Stop") {
		t.Errorf("a changed Stop hook: %+v", fs[0])
	}
}
