package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

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
		ch, err := Trust(repo)
		if err != nil || len(ch) != 1 {
			t.Fatalf("Trust: %v %v", ch, err)
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
		if ch, err := Trust(repo); err != nil || len(ch) != 0 {
			t.Errorf("a second --trust-codex changed %v (%v)", ch, err)
		}
		if _, err := Untrust(repo); err != nil {
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
	if _, err := Trust(repo); err != nil {
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
	if _, err := Trust(repo); err != nil {
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
		if _, err := Trust(repo); err == nil || !strings.Contains(err.Error(), "lucid writes trust only as") {
			t.Errorf("%q: %v", user, err)
		}
		if b, _ := os.ReadFile(filepath.Join(home, "config.toml")); string(b) != user {
			t.Errorf("changed a config it refused: %q", b)
		}
	}
}

// Trusting lucid's Codex plugin in Codex leaves an empty [hooks.state]
// header before the plugin's tables (as Codex 0.169.0 wrote it): lucid's
// trust goes beside them, and theirs stays.
func TestTrustCodexBesideCodexsOwnTrust(t *testing.T) {
	repo := installertest.NewRepo(t)
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	user := "[plugins.\"lucid@lucid\"]\nenabled = true\n\n[hooks.state]\n\n[hooks.state.\"lucid@lucid:hooks/hooks.json:stop:0:0\"]\n" +
		"trusted_hash = \"sha256:aa\"\ntrusted_content_hash = \"sha256:bb\"\n"
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(user), 0o600)
	Hooks.InstallHooks(repo)
	if _, err := Trust(repo); err != nil {
		t.Fatal(err)
	}
	if f := checkCodexTrust(repo); !f.OK {
		t.Errorf("doctor after --trust-codex: %s", f.Detail)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "config.toml")); !strings.HasPrefix(string(b), user) {
		t.Errorf("Codex's own trust did not stay as it was:\n%s", b)
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
	if _, err := Trust(repo); err != nil {
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
	Untrust(repo)
	if b, _ := os.ReadFile(real); string(b) != user {
		t.Errorf("uninstall left %q", b)
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
