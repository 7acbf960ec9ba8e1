package codex

import (
	"os"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
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
