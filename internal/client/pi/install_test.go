package pi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// lucid's extension: written whole, kept on a second run, refused over a
// file that is not lucid's; uninstall leaves the tree as it found it, the
// folders it created included, and the user's own .pi/ kept.
func TestInstallUninstall(t *testing.T) {
	for _, c := range []interface {
		Setup() *installers.Setup
	}{Client{}, Omp{}} {
		s := c.Setup()
		repo := installertest.NewRepo(t)
		if ch, err := s.Install(repo, installers.Options{}); err != nil || len(ch) != 1 {
			t.Fatalf("install: %v %v", ch, err)
		}
		if got := installertest.ReadFile(t, repo, s.Hooks.Settings); got != string(Extension) {
			t.Error("the extension written is not lucid's")
		}
		if ch, err := s.Install(repo, installers.Options{}); err != nil || len(ch) != 0 {
			t.Errorf("second install: %v %v", ch, err)
		}
		if _, err := s.Uninstall(repo); err != nil {
			t.Fatal(err)
		}
		top := strings.SplitN(s.Hooks.Settings, "/", 2)[0]
		if _, err := os.Stat(repo.Abs(top)); !os.IsNotExist(err) {
			t.Errorf("%s stays after uninstall (%v)", top, err)
		}
		installertest.WriteSettings(t, repo, top+"/settings.json", "{}\n")
		if dir, found := s.Hooks.Detected(repo); !found || dir != top {
			t.Errorf("%s not detected: %q", top, dir)
		}
		s.Install(repo, installers.Options{})
		s.Uninstall(repo)
		if _, err := os.Stat(repo.Abs(top + "/extensions")); !os.IsNotExist(err) {
			t.Errorf("the extensions folder lucid made stays (%v)", err)
		}
		mine := "export default function (pi) {}\n"
		installertest.WriteSettings(t, repo, s.Hooks.Settings, mine)
		if _, err := s.Install(repo, installers.Options{}); err == nil || !strings.Contains(err.Error(), "not lucid's") {
			t.Errorf("install over the user's extension: %v", err)
		}
		s.Uninstall(repo)
		if installertest.ReadFile(t, repo, s.Hooks.Settings) != mine {
			t.Error("the user's extension changed")
		}
	}
}

// --user writes the extension into the user's agent folder (Pi's own
// PI_CODING_AGENT_DIR where set) and uninstall --user leaves the folder as
// it was, the folders lucid made gone.
func TestUser(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PI_CODING_AGENT_DIR", "")
	s := Client{}.Setup()
	if ch, err := s.UserWrite(); err != nil || len(ch) != 1 {
		t.Fatalf("user install: %v %v", ch, err)
	}
	b, err := os.ReadFile(filepath.Join(home, ".pi", "agent", "extensions", "lucid.js"))
	if err != nil || string(b) != string(Extension) {
		t.Fatalf("the user's extension: %v", err)
	}
	if ch, err := s.UserWrite(); err != nil || len(ch) != 0 {
		t.Errorf("second user install: %v %v", ch, err)
	}
	if _, err := s.UserRemove(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(home); len(ents) != 0 {
		t.Errorf("HOME after uninstall --user holds %v", ents)
	}
	dir := filepath.Join(home, "elsewhere")
	t.Setenv("PI_CODING_AGENT_DIR", dir)
	os.MkdirAll(dir, 0o755)
	s.UserWrite()
	if _, err := os.Stat(filepath.Join(dir, "extensions", "lucid.js")); err != nil {
		t.Error("PI_CODING_AGENT_DIR not followed")
	}
	s.UserRemove()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the agent folder after uninstall --user holds %v", ents)
	}
}

// doctor loads the extension as Pi does: a throw at load, or no default
// export, and it fails, since either stops Pi.
func TestCheckLoads(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on PATH to load the extension with")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "lucid.js")
	os.WriteFile(path, Extension, 0o644)
	if f := piPlace.checkLoads(path, "x"); !f.OK {
		t.Fatalf("lucid's extension: %+v", f)
	}
	os.WriteFile(path, []byte("throw new Error('x')\n"), 0o644)
	if f := piPlace.checkLoads(path, "x"); f.OK || !strings.Contains(f.Detail, "does not load") {
		t.Errorf("a throw at load: %+v", f)
	}
	os.WriteFile(path, []byte("export const X = () => {}\n"), 0o644)
	if f := piPlace.checkLoads(path, "x"); f.OK || !strings.Contains(f.Detail, "no default export") {
		t.Errorf("no default export: %+v", f)
	}
}

// The extension never throws at load, whatever Pi's API object lacks or
// does, and a tool call with no lucid to ask goes on.
func TestExtensionFailsOpen(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH to run the extension with")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "lucid.mjs")
	os.WriteFile(path, Extension, 0o644)
	const script = `const m = await import(process.argv[1]);
for (const api of [undefined, null, {}, { on() { throw new Error("no"); } }]) m.default(api);
const h = {};
m.default({ on: (n, f) => { h[n] = f; }, sendMessage() {} });
const ctx = { cwd: process.cwd(), sessionManager: { getSessionId: () => "s1", getSessionFile: () => "", getHeader: () => ({}) } };
await h.session_start({ reason: "startup" }, ctx);
const r = await h.tool_call({ toolName: "write", toolCallId: "c", input: { path: "a" } }, ctx);
if (r !== undefined) { console.log("tool_call answered " + JSON.stringify(r)); process.exit(1); }
const b = await h.before_agent_start({ systemPrompt: "base" }, ctx);
if (b !== undefined) { console.log("before_agent_start answered " + JSON.stringify(b)); process.exit(1); }
await h.message_end({ message: { role: "assistant", stopReason: "stop" } }, ctx);
await h.session_shutdown({}, { get sessionManager() { throw new Error("stale"); } });
console.log("ok");`
	cmd := exec.Command(node, "--input-type=module", "-e", script, path)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LUCID_PI_BIN="+filepath.Join(dir, "no-such-lucid"))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("%v\n%s", err, out)
	}
}
