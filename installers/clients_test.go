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

// clientHooks reads a settings file as the client does, as plain JSON:
// "EVENT [MATCHER] NAME COMMAND TIMEOUT" for each hook.
func clientHooks(t *testing.T, text string) map[string]string {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Name    string `json:"name"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("not valid JSON after init: %v\n%s", err, text)
	}
	out := map[string]string{}
	for ev, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				out[ev] += strings.Join([]string{"[" + g.Matcher + "]", h.Name, h.Command, itoa(h.Timeout)}, " ") + ";"
			}
		}
	}
	return out
}

// Codex's and Gemini's files keep every byte of the user's through init
// and uninstall, whatever their layout, and a second init changes none.
func TestClientRoundTripKeepsTheUsersBytes(t *testing.T) {
	cases := []struct{ name, text, keep string }{
		{"indented", "{\n  \"model\": {\"name\": \"x\"},\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}\n    ]\n  }\n}\n", `      {"hooks": [{"type": "command", "command": "mine"}]}`},
		{"tabs", "{\n\t\"model\": {\"name\": \"x\"}\n}", "\t\"model\": {\"name\": \"x\"}"},
		{"crlf", "{\r\n  \"model\": {\"name\": \"x\"},\r\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]}\r\n}\r\n", "  \"model\": {\"name\": \"x\"},\r"},
		{"compact one line", `{"model": {"name": "x"}}`, `"model": {"name": "x"}`},
		{"minified", `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"mine"}]}]}}`, `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"mine"}]}`},
		{"empty object", "{}\n", ""},
	}
	for _, c := range []*Client{Codex, Gemini} {
		for _, tc := range cases {
			t.Run(c.ID+"/"+tc.name, func(t *testing.T) {
				repo := newRepo(t)
				writeSettings(t, repo, c.Settings, tc.text)
				if _, err := c.InstallHooks(repo); err != nil {
					t.Fatal(err)
				}
				after := readFile(t, repo, c.Settings)
				if _, events, _ := c.Registered(repo); len(events) != len(c.Events) {
					t.Errorf("%d events registered, want %d:\n%s", len(events), len(c.Events), after)
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
				if ch, err := c.InstallHooks(repo); err != nil || len(ch) != 0 || readFile(t, repo, c.Settings) != after {
					t.Errorf("a second init changed %v (%v)", ch, err)
				}
				if _, err := c.UninstallHooks(repo); err != nil {
					t.Fatal(err)
				}
				if tc.text == "{}\n" {
					// A file that held nothing but lucid's hooks goes.
					if _, err := os.Stat(repo.Abs(c.Settings)); !os.IsNotExist(err) {
						t.Errorf("an empty settings file stays after uninstall (%v)", err)
					}
					return
				}
				if got := readFile(t, repo, c.Settings); got != tc.text {
					t.Errorf("uninstall did not give the bytes back:\n got %q\nwant %q", got, tc.text)
				}
			})
		}
	}
}

// What each client reads: Codex timeouts in seconds, Gemini's in
// milliseconds and named; the tool events' matchers; the command names
// the client.
func TestClientEntries(t *testing.T) {
	repo := newRepo(t)
	for _, c := range []*Client{Codex, Gemini} {
		if _, err := c.InstallHooks(repo); err != nil {
			t.Fatal(err)
		}
	}
	codex := clientHooks(t, readFile(t, repo, CodexHooksName))
	gemini := clientHooks(t, readFile(t, repo, GeminiSettingsName))
	for ev, want := range map[string]string{
		"PreToolUse":   "[Bash|apply_patch]  command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client codex PreToolUse 10;",
		"PostToolUse":  "[Bash|apply_patch|.*wait_agent]  command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client codex PostToolUse 10;",
		"SessionStart": "[]  command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client codex SessionStart 15;",
		"SessionEnd":   "[]  command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client codex SessionEnd 2;",
	} {
		if codex[ev] != want {
			t.Errorf("codex %s: %q, want %q", ev, codex[ev], want)
		}
	}
	for ev, want := range map[string]string{
		"BeforeTool":  "[^(write_file|replace|run_shell_command)$] lucid-BeforeTool command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client gemini BeforeTool 10000;",
		"BeforeAgent": "[] lucid-BeforeAgent command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client gemini BeforeAgent 10000;",
		"SessionEnd":  "[] lucid-SessionEnd command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client gemini SessionEnd 2000;",
	} {
		if gemini[ev] != want {
			t.Errorf("gemini %s: %q, want %q", ev, gemini[ev], want)
		}
	}
	if len(codex) != 9 || len(gemini) != 6 {
		t.Errorf("codex has %d events, gemini %d; want 9 and 6", len(codex), len(gemini))
	}
}

// A user's hook beside lucid's in the same event stays, and a Claude
// Code entry of lucid's in a Codex file (lucid hook E, no client) is not
// taken for the Codex one.
func TestClientKeepsTheUsersHooks(t *testing.T) {
	repo := newRepo(t)
	user := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}]}}`
	writeSettings(t, repo, CodexHooksName, user)
	if _, err := Codex.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	if got := clientHooks(t, readFile(t, repo, CodexHooksName))["PreToolUse"]; !strings.HasPrefix(got, "[Bash]  ./audit.sh 0;[Bash|apply_patch]") {
		t.Errorf("PreToolUse: %q", got)
	}
	if ch, err := UninstallAll(repo); err != nil || readFile(t, repo, CodexHooksName) != user {
		t.Errorf("uninstall: %v %v\n%s", ch, err, readFile(t, repo, CodexHooksName))
	}
}

// --trust-codex writes a trusted_hash for each of lucid's entries, the
// hash Codex computes for it, keeps every byte of the user's config, and
// uninstall gives the file back; an entry changed by hand or moved is
// reported by doctor and not trusted again as it stands.
func TestTrustCodex(t *testing.T) {
	for _, user := range []string{
		"",
		"model = \"gpt-5.5\"\n",
		"model = \"gpt-5.5\" # mine\n\n[projects.\"/somewhere\"]\ntrust_level = \"trusted\"\n\n[hooks.state.\"/other/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:00\"\n",
		"instructions = \"\"\"\n[not a table]\n\"\"\"\n[tui]\nnotifications = true",
	} {
		repo := newRepo(t)
		home := t.TempDir()
		t.Setenv("CODEX_HOME", home)
		cfgPath := filepath.Join(home, "config.toml")
		if user != "" {
			if err := os.WriteFile(cfgPath, []byte(user), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Codex.InstallHooks(repo); err != nil {
			t.Fatal(err)
		}
		if f := checkCodexTrust(repo); f.OK {
			t.Errorf("trusted before --trust-codex: %s", f.Detail)
		}
		ch, err := TrustCodex(repo)
		if err != nil || len(ch) != 1 {
			t.Fatalf("TrustCodex: %v %v", ch, err)
		}
		b, _ := os.ReadFile(cfgPath)
		cfg := string(b)
		if !strings.HasPrefix(cfg, user) {
			t.Errorf("the user's config changed:\n%s", cfg)
		}
		if n := strings.Count(cfg, "[hooks.state."); n != len(Codex.Events)+strings.Count(user, "[hooks.state.") {
			t.Errorf("%d trust tables:\n%s", n, cfg)
		}
		entries, _ := codexEntries(repo)
		c, _ := readCodexConfig(cfgPath)
		for _, e := range entries {
			if h, ok := c.trust(e.key); !ok || h != e.hash {
				t.Errorf("%s: trusted %q, the entry hashes to %q", e.key, h, e.hash)
			}
		}
		if f := checkCodexTrust(repo); !f.OK {
			t.Errorf("doctor after --trust-codex: %s", f.Detail)
		}
		if ch, err := TrustCodex(repo); err != nil || len(ch) != 0 {
			t.Errorf("a second --trust-codex changed %v (%v)", ch, err)
		}
		if _, err := UntrustCodex(repo); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(cfgPath); string(b) != user && !(user == "" && len(b) == 0) {
			t.Errorf("uninstall did not give config.toml back:\n got %q\nwant %q", b, user)
		}
	}
}

func TestTrustCodexChangedAndMoved(t *testing.T) {
	repo := newRepo(t)
	t.Setenv("CODEX_HOME", t.TempDir())
	if _, err := Codex.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	if _, err := TrustCodex(repo); err != nil {
		t.Fatal(err)
	}
	// The user puts a group of theirs before lucid's Stop: lucid's moves
	// to index 1, and its trust (keyed by index) no longer applies.
	doc := readFile(t, repo, CodexHooksName)
	doc = strings.Replace(doc, `"Stop": [`, `"Stop": [{"hooks": [{"type": "command", "command": "mine"}]},`, 1)
	// And edits lucid's SessionEnd timeout by hand.
	doc = strings.Replace(doc, `SessionEnd",
            "timeout": 2`, `SessionEnd",
            "timeout": 5`, 1)
	writeSettings(t, repo, CodexHooksName, doc)
	f := checkCodexTrust(repo)
	if f.OK || !strings.Contains(f.Detail, "not trusted: Stop") || !strings.Contains(f.Detail, "changed since they were trusted: SessionEnd") {
		t.Errorf("doctor: %s", f.Detail)
	}
	if _, err := TrustCodex(repo); err != nil {
		t.Fatal(err)
	}
	f = checkCodexTrust(repo)
	if f.OK || strings.Contains(f.Detail, "Stop") || !strings.Contains(f.Detail, "SessionEnd") {
		t.Errorf("after trusting again, doctor: %s (the moved Stop is lucid's: trusted; the edited SessionEnd is not)", f.Detail)
	}
	cfg, _ := os.ReadFile(CodexConfigPath())
	if strings.Contains(string(cfg), ":stop:0:0") {
		t.Errorf("the stale trust of Stop at index 0 (now the user's hook) stays:\n%s", cfg)
	}
}

// A config that spells hook state another way is refused, not broken.
func TestTrustCodexRefusesOtherForms(t *testing.T) {
	for _, user := range []string{"[hooks]\nstate = {}\n", "hooks.state.x.trusted_hash = \"y\"\n"} {
		repo := newRepo(t)
		home := t.TempDir()
		t.Setenv("CODEX_HOME", home)
		os.WriteFile(filepath.Join(home, "config.toml"), []byte(user), 0o600)
		Codex.InstallHooks(repo)
		if _, err := TrustCodex(repo); err == nil || !strings.Contains(err.Error(), "lucid writes trust only as") {
			t.Errorf("%q: %v", user, err)
		}
		if b, _ := os.ReadFile(filepath.Join(home, "config.toml")); string(b) != user {
			t.Errorf("changed a config it refused: %q", b)
		}
	}
}

// Gemini's trust, decided as 0.61.0 decides it.
func TestGeminiTrust(t *testing.T) {
	repo := newRepo(t)
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
	repo := newRepo(t)
	home := t.TempDir()
	t.Setenv("GEMINI_CLI_HOME", home)
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	Gemini.InstallHooks(repo)
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

// A config.toml that is a link into the user's dotfiles is followed: the
// trust goes into the file it points to, and the link stays a link.
func TestTrustCodexFollowsTheUsersLink(t *testing.T) {
	repo := newRepo(t)
	home, dots := t.TempDir(), t.TempDir()
	t.Setenv("CODEX_HOME", home)
	real := filepath.Join(dots, "codex.toml")
	user := "model = \"gpt-5.5\"\n"
	os.WriteFile(real, []byte(user), 0o600)
	if err := os.Symlink(real, filepath.Join(home, "config.toml")); err != nil {
		t.Fatal(err)
	}
	Codex.InstallHooks(repo)
	if _, err := TrustCodex(repo); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(home, "config.toml")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("config.toml is no longer a link (%v)", err)
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "[hooks.state.") {
		t.Errorf("the trust did not reach the linked file:\n%s", b)
	}
	if f := checkCodexTrust(repo); !f.OK {
		t.Errorf("doctor: %s", f.Detail)
	}
	UntrustCodex(repo)
	if b, _ := os.ReadFile(real); string(b) != user {
		t.Errorf("uninstall left %q", b)
	}
}

// Codex keys a linked work tree's trust by the main checkout's root.
func TestCodexProjectTrustOfALinkedWorkTree(t *testing.T) {
	main := newRepo(t)
	gittest.CommitAll(t, main.Top, "x")
	gittest.Run(t, main.Top, "worktree", "add", "-q", filepath.Join(main.Top, "..", "wt"))
	wt, err := gitstore.Find(filepath.Join(main.Top, "..", "wt"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	if f := checkCodexProject(wt); f.OK {
		t.Errorf("trusted with no config: %s", f.Detail)
	}
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[projects."+tomlString(main.Top)+"]\ntrust_level = \"trusted\"\n"), 0o600)
	if f := checkCodexProject(wt); !f.OK {
		t.Errorf("the main checkout is trusted, yet: %s", f.Detail)
	}
}

// Codex names an event in its trust keys and hashes in snake case, as its
// hooks/list shows them (0.169.0).
func TestCodexEventKey(t *testing.T) {
	for event, want := range map[string]string{
		"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "PreModelRequest": "pre_model_request",
		"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request", "PostToolUse": "post_tool_use",
		"PreCompact": "pre_compact", "PostCompact": "post_compact", "SubagentStart": "subagent_start",
		"SubagentStop": "subagent_stop", "Stop": "stop", "SessionEnd": "session_end", "Interrupt": "interrupt",
	} {
		if got := codexEventKey(event); got != want {
			t.Errorf("codexEventKey(%q) = %q, want %q", event, got, want)
		}
	}
}
