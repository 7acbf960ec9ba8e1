package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// A user's hook beside lucid's in the same event stays, and a Claude
// Code entry of lucid's in a Codex file (lucid hook E, no client) is not
// taken for the Codex one.
func TestClientKeepsTheUsersHooks(t *testing.T) {
	repo := installertest.NewRepo(t)
	user := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}]}}`
	installertest.WriteSettings(t, repo, HooksName, user)
	if _, err := Hooks.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	if got := installertest.Hooks(t, installertest.ReadFile(t, repo, HooksName))["PreToolUse"]; !strings.HasPrefix(got, "[Bash]  ./audit.sh 0;[Bash|apply_patch]") {
		t.Errorf("PreToolUse: %q", got)
	}
	if ch, err := (Client{}).Setup().Uninstall(repo); err != nil || installertest.ReadFile(t, repo, HooksName) != user {
		t.Errorf("uninstall: %v %v\n%s", ch, err, installertest.ReadFile(t, repo, HooksName))
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
		repo := installertest.NewRepo(t)
		home := t.TempDir()
		t.Setenv("CODEX_HOME", home)
		cfgPath := filepath.Join(home, "config.toml")
		if user != "" {
			if err := os.WriteFile(cfgPath, []byte(user), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Hooks.InstallHooks(repo); err != nil {
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
		if n := strings.Count(cfg, "[hooks.state."); n != len(Hooks.Events)+strings.Count(user, "[hooks.state.") {
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
	repo := installertest.NewRepo(t)
	t.Setenv("CODEX_HOME", t.TempDir())
	if _, err := Hooks.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	if _, err := TrustCodex(repo); err != nil {
		t.Fatal(err)
	}
	// The user puts a group of theirs before lucid's Stop: lucid's moves
	// to index 1, and its trust (keyed by index) no longer applies.
	doc := installertest.ReadFile(t, repo, HooksName)
	doc = strings.Replace(doc, `"Stop": [`, `"Stop": [{"hooks": [{"type": "command", "command": "mine"}]},`, 1)
	// And edits lucid's SessionEnd timeout by hand.
	doc = strings.Replace(doc, `SessionEnd",
            "timeout": 2`, `SessionEnd",
            "timeout": 5`, 1)
	installertest.WriteSettings(t, repo, HooksName, doc)
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
	cfg, _ := os.ReadFile(ConfigPath())
	if strings.Contains(string(cfg), ":stop:0:0") {
		t.Errorf("the stale trust of Stop at index 0 (now the user's hook) stays:\n%s", cfg)
	}
}

// A config that spells hook state another way is refused, not broken.
func TestTrustCodexRefusesOtherForms(t *testing.T) {
	for _, user := range []string{"[hooks]\nstate = {}\n", "hooks.state.x.trusted_hash = \"y\"\n"} {
		repo := installertest.NewRepo(t)
		home := t.TempDir()
		t.Setenv("CODEX_HOME", home)
		os.WriteFile(filepath.Join(home, "config.toml"), []byte(user), 0o600)
		Hooks.InstallHooks(repo)
		if _, err := TrustCodex(repo); err == nil || !strings.Contains(err.Error(), "lucid writes trust only as") {
			t.Errorf("%q: %v", user, err)
		}
		if b, _ := os.ReadFile(filepath.Join(home, "config.toml")); string(b) != user {
			t.Errorf("changed a config it refused: %q", b)
		}
	}
}

// A config.toml that is a link into the user's dotfiles is followed: the
// trust goes into the file it points to, and the link stays a link.
func TestTrustCodexFollowsTheUsersLink(t *testing.T) {
	repo := installertest.NewRepo(t)
	home, dots := t.TempDir(), t.TempDir()
	t.Setenv("CODEX_HOME", home)
	real := filepath.Join(dots, "codex.toml")
	user := "model = \"gpt-5.5\"\n"
	os.WriteFile(real, []byte(user), 0o600)
	if err := os.Symlink(real, filepath.Join(home, "config.toml")); err != nil {
		t.Fatal(err)
	}
	Hooks.InstallHooks(repo)
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
	main := installertest.NewRepo(t)
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

// lucid init, doctor and uninstall for Codex, through its Setup: the hooks
// and, with Trust, their trust; the checks; the advice while Codex does not
// trust the project; and no user settings.
func TestSetup(t *testing.T) {
	t.Setenv("CODEX_HOME", t.TempDir())
	repo := installertest.NewRepo(t)
	c := Client{}
	if c.Setup().ClientChecks != nil || c.Setup().DoctorFiles != nil {
		t.Error("checks or files of the client's own")
	}
	if c.Title() != "Codex CLI" || c.Setup().Hooks != Hooks {
		t.Errorf("title %q", c.Title())
	}
	ch, err := c.Setup().Install(repo, installers.Options{Trust: true})
	if err != nil || len(ch) != 2 || ch[0].Path != HooksName || ch[1].Path != ConfigPath() {
		t.Fatalf("install: %+v %v", ch, err)
	}
	fs := c.Setup().Check(repo)
	if len(fs) != 4 || !fs[0].OK || fs[1].OK || !fs[2].OK || fs[3].Check != "codex finds lucid" {
		t.Errorf("checks: %+v", fs)
	}
	if a := c.Setup().Advice(repo); !strings.Contains(a, "trusts the project") || !strings.Contains(a, "--trust-codex") {
		t.Errorf("advice: %q", a)
	}
	if h, _, why := c.Setup().User(); h != nil || !strings.Contains(why, "per repository") {
		t.Errorf("user hooks: %v %q", h, why)
	}
	ch, err = c.Setup().Uninstall(repo)
	if err != nil || len(ch) != 2 {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	if _, err := c.Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(ConfigPath()); strings.Contains(string(b), "trusted_hash") {
		t.Errorf("trust without --trust-codex:\n%s", b)
	}
}

// Codex's hooks and its agents' login shell must both find lucid.
func TestShellPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if f := checkShellPath(Hooks); f.OK || !strings.Contains(f.Detail, "every hook does nothing") {
		t.Errorf("no lucid on PATH: %+v", f)
	}
}

// A hook's identity is hashed as serde_json writes it: every escape of a
// JSON string, and no matcher for the events whose matcher Codex ignores;
// a key of config.toml is a TOML basic string.
func TestHashAndTOMLEscapes(t *testing.T) {
	odd := "a\"b\\c\nd\re\tf\bg\fh\x01i\xffj é"
	h1 := HookHash(Handler{Event: "Stop", Matcher: "x", Command: odd})
	h2 := HookHash(Handler{Event: "Stop", Matcher: "y", Command: odd})
	if h1 != h2 || !strings.HasPrefix(h1, "sha256:") {
		t.Errorf("Stop's matcher counts: %s %s", h1, h2)
	}
	if HookHash(Handler{Event: "PreToolUse", Matcher: "x", Command: odd}) == HookHash(Handler{Event: "PreToolUse", Matcher: "y", Command: odd}) {
		t.Error("PreToolUse's matcher is ignored")
	}
	if got := tomlString("a\"b\\c\x01\x7f"); got != `"a\"b\\c\u0001\u007F"` {
		t.Errorf("tomlString: %s", got)
	}
}

// config.toml's headers and values as Codex writes them and as people do:
// quoted, literal and bare keys, comments after a header or a value, and
// what is no header at all.
func TestTOMLHeadersAndValues(t *testing.T) {
	for line, want := range map[string]string{
		`[projects."/a/b"]`:                   "projects|/a/b",
		`[ hooks . state . 'x:y' ] # trusted`: "hooks|state|x:y",
		`[a.b-c_d]`:                           "a|b-c_d",
		`[a."b\"c"]`:                          `a|b"c`,
		`[a.`:                                 "",
		`[a."b]`:                              "",
		`[a.'b]`:                              "",
		`[a] x`:                               "",
		`[a b]`:                               "",
		`[]`:                                  "",
	} {
		keys, ok := tomlHeader(line)
		if got := strings.Join(keys, "|"); ok != (want != "") || ok && got != want {
			t.Errorf("%s: %q %v, want %q", line, got, ok, want)
		}
	}
	c := &codexConfig{doc: []byte("[t]\nplain = 'lit' # note\n\"q\" = \"s\\u0041\"\nbare = 3\n")}
	tb, _ := c.table("t")
	for key, want := range map[string]string{"plain": "lit", "q": "sA", "bare": "3", "none": ""} {
		if v, _, _, ok := c.value(tb, key); v != want || ok != (want != "") {
			t.Errorf("%s = %q %v, want %q", key, v, ok, want)
		}
	}
}

// Doctor's checks of Codex name a config.toml it cannot read, and where
// lucid is on the hooks' PATH, what a login shell finds.
func TestCodexChecksOfBadConfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	repo := installertest.NewRepo(t)
	if err := os.Mkdir(filepath.Join(home, "config.toml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if f := checkCodexProject(repo); f.OK || !strings.Contains(f.Fix, "fix "+ConfigPath()) {
		t.Errorf("project trust: %+v", f)
	}
	if f := checkCodexTrust(repo); f.OK || !strings.Contains(f.Fix, "fix "+ConfigPath()) {
		t.Errorf("hook trust: %+v", f)
	}
	if _, err := TrustCodex(repo); err == nil {
		t.Error("trust written through a config.toml that is a folder")
	}
	if _, err := (Client{}).Setup().Install(repo, installers.Options{Trust: true}); err == nil {
		t.Error("install trusted through a config.toml that is a folder")
	}
	if _, err := (Client{}).Setup().Uninstall(repo); err == nil {
		t.Error("uninstall untrusted through a config.toml that is a folder")
	}
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "lucid"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("SHELL", "/bin/sh")
	if f := checkShellPath(Hooks); f.Check != "codex finds lucid" || f.Detail == "" {
		t.Errorf("lucid on PATH: %+v", f)
	}
}

// setTrust changes a hash in place and adds one to a table that lacks it;
// removeTrust takes the hash alone out of a table that holds more.
func TestSetAndRemoveTrustInPlace(t *testing.T) {
	c := &codexConfig{doc: []byte("model = \"x\"\n\n[hooks.state.\"k\"]\ntrusted_hash = \"sha256:old\"\n\n[hooks.state.\"j\"]\nenabled = true\n")}
	if err := c.setTrust("k", "sha256:new"); err != nil {
		t.Fatal(err)
	}
	if err := c.setTrust("j", "sha256:j"); err != nil {
		t.Fatal(err)
	}
	want := "model = \"x\"\n\n[hooks.state.\"k\"]\ntrusted_hash = \"sha256:new\"\n\n[hooks.state.\"j\"]\ntrusted_hash = \"sha256:j\"\nenabled = true\n"
	if string(c.doc) != want {
		t.Fatalf("set:\n%s\nwant\n%s", c.doc, want)
	}
	if h, ok := c.trust("k"); !ok || h != "sha256:new" {
		t.Errorf("trust k: %q %v", h, ok)
	}
	if !c.removeTrust(func(key, _ string) bool { return key == "j" }) {
		t.Fatal("nothing removed")
	}
	want = "model = \"x\"\n\n[hooks.state.\"k\"]\ntrusted_hash = \"sha256:new\"\n\n[hooks.state.\"j\"]\nenabled = true\n"
	if string(c.doc) != want {
		t.Errorf("remove:\n%s\nwant\n%s", c.doc, want)
	}
	if !c.removeTrust(func(key, _ string) bool { return key == "k" }) || string(c.doc) != "model = \"x\"\n\n[hooks.state.\"j\"]\nenabled = true\n" {
		t.Errorf("remove a table of its own:\n%q", c.doc)
	}
}

// Once Codex trusts the project and every one of lucid's hooks, lucid init
// has nothing to add; a hook's own timeout and status message count in its
// hash.
func TestAdviceWhenTrusted(t *testing.T) {
	t.Setenv("CODEX_HOME", t.TempDir())
	repo := installertest.NewRepo(t)
	os.WriteFile(ConfigPath(), []byte("[projects."+tomlString(repo.Top)+"]\ntrust_level = \"trusted\"\n"), 0o600)
	if _, err := (Client{}).Setup().Install(repo, installers.Options{Trust: true}); err != nil {
		t.Fatal(err)
	}
	if a := (Client{}).Setup().Advice(repo); a != "" {
		t.Errorf("advice once trusted: %q", a)
	}
	ten := 10
	plain := HookHash(Handler{Event: "PreToolUse", Command: "c", Timeout: &ten})
	if plain == HookHash(Handler{Event: "PreToolUse", Command: "c", Timeout: &ten, StatusMessage: "m"}) || plain == HookHash(Handler{Event: "PreToolUse", Command: "c"}) {
		t.Error("the timeout or the status message does not count")
	}
}
