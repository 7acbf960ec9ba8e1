package clients

import (
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// The identities lucid-view reads (identity.All) are the registry's
// clients, in its order: the same names and titles, and the same shells
// and processes told apart.
func TestIdentities(t *testing.T) {
	ids := identity.All()
	if len(ids) != len(All()) {
		t.Fatalf("%d identities for %d clients", len(ids), len(All()))
	}
	env := func(k string) string { return map[string]string{"LUCID_OPENCODE_AGENT": "ses_a", "CLAUDECODE": "1"}[k] }
	for i, c := range All() {
		id := ids[i]
		if id.Name() != c.Name() || client.TitleOf(id) != c.Title() {
			t.Errorf("identity %d is %s (%s), the registry's %s (%s)", i, id.Name(), client.TitleOf(id), c.Name(), c.Title())
		}
		if r, ok := id.(client.ProcessReader); !ok || !r.ClientProcess(c.Name(), nil) || !c.(client.ProcessReader).ClientProcess(c.Name(), nil) {
			t.Errorf("%s: its program not told as its own", c.Name())
		}
		if r, ok := c.(client.ShellReader); ok {
			want, wantOK := r.AgentShell(env)
			got, gotOK := id.(client.ShellReader).AgentShell(env)
			if got != want || gotOK != wantOK {
				t.Errorf("%s: identity's shell %+v %v, the adapter's %+v %v", c.Name(), got, gotOK, want, wantOK)
			}
		}
	}
}

// The registry lists each client once, by the name lucid hook --client
// takes, the default first.
func TestRegistry(t *testing.T) {
	names := Names()
	if len(names) != len(All()) || len(Adapters()) != len(names) || Default().Name() != names[0] {
		t.Fatalf("names %v, default %q", names, Default().Name())
	}
	for i, n := range names {
		c, ok := ByName(n)
		if !ok || c.Name() != n || c.Title() == "" || Adapters()[i].Name() != n || slices.Index(names, n) != i {
			t.Errorf("%s: %+v %v", n, c, ok)
		}
	}
	if _, ok := ByName("nobody"); ok {
		t.Error("an unknown client found")
	}
	if len(Files()) == 0 {
		t.Error("no client files for doctor")
	}
}

// lucid doctor checks the default client unless another is set up without
// it; the sentence of names; the flags that name a client.
func TestDoctorAndHelp(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	repo := installertest.NewRepo(t)
	setUp, after := Doctor(repo)
	if len(setUp) == 0 || setUp[0].OK || len(after) != 0 {
		t.Errorf("nothing set up: %+v %+v", setUp, after)
	}
	other := All()[1]
	if _, err := other.Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	setUp, _ = Doctor(repo)
	if !setUp[0].OK || !strings.Contains(setUp[0].Detail, "not set up for "+Default().Title()) {
		t.Errorf("another client alone: %+v", setUp[0])
	}
	if _, err := Default().Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, after = Doctor(repo); len(after) == 0 {
		t.Error("no checks of the default client itself")
	}
	if Known([]string{"a", "b", "c"}) != "a, b and c" || Known([]string{"a"}) != "a" {
		t.Error(Known([]string{"a", "b", "c"}))
	}
	for _, f := range []string{"local", "statusline", "user"} {
		if InitUsage(f) == "" {
			t.Errorf("no usage for --%s", f)
		}
	}
	for _, tr := range Trusts() {
		if !slices.Contains(All(), tr.Client) || tr.Usage == "" || !strings.Contains(tr.Misuse, "--client "+tr.Client.Name()+" --"+tr.Flag) {
			t.Errorf("trust flag --%s: %+v", tr.Flag, tr)
		}
	}
	if aside, ok := UserHookStandsAside(Default(), "NoSuchEvent"); aside || !ok {
		t.Errorf("the default client's user hook for no event: aside %v, registered outside the project %v", aside, ok)
	}
	if !slices.Contains(UserHookClients(), Default().Name()) {
		t.Errorf("lucid hook --user is not the default client's: %v", UserHookClients())
	}
}

// The files of the clients besides the default one (Codex's and
// Gemini's) keep every byte of the user's through init and uninstall,
// whatever their layout, and a second init changes none.
func TestClientRoundTripKeepsTheUsersBytes(t *testing.T) {
	cases := []struct{ name, text, keep string }{
		{"indented", "{\n  \"model\": {\"name\": \"x\"},\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}\n    ]\n  }\n}\n", `      {"hooks": [{"type": "command", "command": "mine"}]}`},
		{"tabs", "{\n\t\"model\": {\"name\": \"x\"}\n}", "\t\"model\": {\"name\": \"x\"}"},
		{"crlf", "{\r\n  \"model\": {\"name\": \"x\"},\r\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]}\r\n}\r\n", "  \"model\": {\"name\": \"x\"},\r"},
		{"compact one line", `{"model": {"name": "x"}}`, `"model": {"name": "x"}`},
		{"minified", `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"mine"}]}]}}`, `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"mine"}]}`},
		{"empty object", "{}\n", ""},
	}
	for _, cl := range All()[1:] {
		c := cl.Setup().Hooks
		if c.Own != nil {
			continue // a file of lucid's own, no settings of the user's
		}
		for _, tc := range cases {
			t.Run(c.ID+"/"+tc.name, func(t *testing.T) {
				repo := installertest.NewRepo(t)
				installertest.WriteSettings(t, repo, c.Settings, tc.text)
				if _, err := c.InstallHooks(repo); err != nil {
					t.Fatal(err)
				}
				after := installertest.ReadFile(t, repo, c.Settings)
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
				if ch, err := c.InstallHooks(repo); err != nil || len(ch) != 0 || installertest.ReadFile(t, repo, c.Settings) != after {
					t.Errorf("a second init changed %v (%v)", ch, err)
				}
				if _, err := c.UninstallHooks(repo); err != nil {
					t.Fatal(err)
				}
				if got := installertest.ReadFile(t, repo, c.Settings); got != tc.text {
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
	repo := installertest.NewRepo(t)
	for _, name := range []string{"codex", "gemini"} {
		c, _ := ByName(name)
		if _, err := c.Setup().Hooks.InstallHooks(repo); err != nil {
			t.Fatal(err)
		}
	}
	codex := installertest.Hooks(t, installertest.ReadFile(t, repo, ".codex/hooks.json"))
	gemini := installertest.Hooks(t, installertest.ReadFile(t, repo, ".gemini/settings.json"))
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
