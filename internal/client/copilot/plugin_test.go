package copilot

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
)

// The Copilot plugin's hooks/hooks.json registers the hooks lucid init
// --client copilot writes, run with --user so that they stand aside beside
// the project's, so that a change to the hook table reaches the plugin:
// this test fails while they differ. (The plugin's file is the
// project's, with "version": 1; the user form compared here has none.)
func TestPluginMatchesLucidInit(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "hooks.json")
	if _, err := installers.InstallUser(PluginHooks, settings); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "plugins", "copilot", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g, w struct{ Hooks json.RawMessage }
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact(t, g.Hooks), compact(t, w.Hooks)) {
		t.Errorf("plugins/copilot/hooks/hooks.json differs from lucid init's (but for --user):\n%s\nwant:\n%s", got, want)
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// The plugin's hooks stand aside where the repository registers lucid's
// own, which Copilot runs too: its hook file, or Claude Code's project
// settings; not for a hook file or settings of someone else's.
func TestPluginStandsAside(t *testing.T) {
	for _, tc := range []struct {
		name, file, body string
		aside            bool
	}{
		{"nothing", "", "", false},
		{"lucid's hook file", HooksName, `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"` + HookCommand("preToolUse") + `"}]}}`, true},
		{"another hook file of that name", HooksName, `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./check.sh"}]}}`, false},
		{"Claude Code's project hooks", ".claude/settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"lucid hook PreToolUse"}]}]}}`, true},
		{"Claude Code's local hooks", ".claude/settings.local.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"lucid hook Stop"}]}]}}`, true},
		{"Claude Code settings without lucid", ".claude/settings.json", `{"permissions":{"allow":["Bash(lucid log:*)"]}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.file != "" {
				p := filepath.Join(dir, filepath.FromSlash(tc.file))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// There before the client started.
			was := readLoadedHooks
			readLoadedHooks = func(path string) ([]byte, error) { return os.ReadFile(path) }
			defer func() { readLoadedHooks = was }()
			t.Setenv("COPILOT_PROJECT_DIR", dir)
			t.Setenv("COPILOT_HOME", t.TempDir())
			t.Setenv("COPILOT_ALLOW_ALL", "")
			// Untrusted, Copilot skips the repository's hooks: the
			// plugin's are all that runs.
			if (Client{}).UserHookStandsAside(PreToolUse) {
				t.Error("the plugin's hook stands aside in a folder Copilot does not trust")
			}
			if err := os.WriteFile(filepath.Join(os.Getenv("COPILOT_HOME"), "config.json"), []byte("// written by Copilot\n{\"trustedFolders\": [\""+filepath.Dir(dir)+"\"]}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := (Client{}).UserHookStandsAside(PreToolUse); got != tc.aside {
				t.Errorf("in a trusted folder, the plugin's hook stands aside: %v, want %v", got, tc.aside)
			}
			os.Remove(filepath.Join(os.Getenv("COPILOT_HOME"), "config.json"))
			t.Setenv("COPILOT_ALLOW_ALL", "true")
			if got := (Client{}).UserHookStandsAside(PreToolUse); got != tc.aside {
				t.Errorf("with COPILOT_ALLOW_ALL, the plugin's hook stands aside: %v, want %v", got, tc.aside)
			}
		})
	}
}

// A registration written after Copilot started (by an agent that wants the
// plugin out of its way) is one Copilot has not loaded: the plugin's hooks
// go on.
func TestPluginIgnoresHooksWrittenSinceTheStart(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, filepath.FromSlash(HooksName))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"`+HookCommand("preToolUse")+`"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COPILOT_PROJECT_DIR", dir)
	t.Setenv("COPILOT_ALLOW_ALL", "true")
	if (Client{}).UserHookStandsAside(PreToolUse) {
		t.Error("the plugin's hook stands aside for a hook file written after Copilot started")
	}
}
