package e2e

// lucid's Gemini CLI extension (gemini-extension.json and hooks/hooks.json
// at the repository's top), installed the way its users install
// extensions: the real `gemini extensions install` or `link` of this
// repository's folder, into the scratch HOME.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	gem "github.com/lucid-dev/lucid/internal/testkit/scripted/generatecontent"
)

// geminiExtensionWorld is a Gemini world on e's repository with lucid's
// extension installed (verb "install", a copy, or "link") and no project
// hooks of Gemini's unless e has them.
func geminiExtensionWorld(t *testing.T, e *env, verb string) *geminiWorld {
	t.Helper()
	needGemini(t)
	root := t.TempDir()
	w := &geminiWorld{env: e, root: root, hookLog: filepath.Join(root, "hooks.jsonl"),
		hookCtl: filepath.Join(root, "hookctl.json"), netLog: filepath.Join(root, "net.log"),
		netJS: filepath.Join(root, "netlog.cjs"), trustByEnv: true, lucid: true}
	w.write(filepath.Join(e.home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}
`)
	w.write(w.netJS, netlogJS)
	// Installing from a local folder asks whether to trust it, on stdin.
	cmd := exec.Command(geminiBin, "extensions", verb, repoTop(t), "--consent")
	cmd.Dir, cmd.Env = e.home, w.environ()
	cmd.Stdin = strings.NewReader("y\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `Extension "lucid"`) {
		t.Fatalf("gemini extensions %s %s: %v\n%s", verb, repoTop(t), err, out)
	}
	t.Logf("gemini extensions %s: %s", verb, strings.TrimSpace(string(out[strings.LastIndex(string(out), "Extension"):])))
	return w
}

// With the extension alone (no project hooks), a session gets the digest
// and a write into another agent's claim is denied, with the reason in
// the next request.
func TestGeminiExtensionGuards(t *testing.T) {
	needGemini(t)
	e := bareRepo(t)
	w := geminiExtensionWorld(t, e, "install")
	if _, err := os.Stat(filepath.Join(e.home, ".gemini", "extensions", "lucid", "hooks", "hooks.json")); err != nil {
		t.Fatalf("gemini extensions install did not copy the hooks: %v", err)
	}
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	before := e.read("src/auth.go")
	lead := &gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		gem.WriteFile(w.path("src/auth.go"), "package auth // mine\n"),
		gem.Say("Done."),
		gem.Say("Done, nothing to record."),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	w.gemini(srv, "[[gemini-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) < 2 {
		t.Fatalf("the lead sent %d requests\n%s", len(reqs), srv.Dump())
	}
	if first := contexts(reqs[0]); countIn(first, digestHeader) != 1 {
		t.Errorf("the first request does not carry the digest once:\n%s", strings.Join(first, "\n---\n"))
	}
	if reason, ok := reqs[1].Generate.LastResponse().Blocked(); !ok || !strings.Contains(reason, "src/auth.go is claimed by") {
		t.Errorf("the write was not denied with lucid's reason: %q", reqs[1].Generate.LastResponse().Output())
	}
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed although the write was denied:\n%s", got)
	}
}

// Where a teammate ran lucid init --client gemini, the project's entries
// and the extension's are both registered, with one name and command:
// Gemini runs each once, so each event runs lucid once, and the model
// reads one digest and one denial.
func TestGeminiExtensionBesideProjectHooks(t *testing.T) {
	needGemini(t)
	e := newScratch(t, t.TempDir())
	e.run("lucid", "init", "--client", "gemini")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "gemini")
	w := geminiExtensionWorld(t, e, "link")
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	lead := &gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		gem.WriteFile(w.path("src/auth.go"), "package auth // mine\n"),
		gem.WriteFile(w.path("notes.md"), "mine\n"),
		gem.Say("Done."),
		gem.Say("Done, nothing to record."),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	w.gemini(srv, "[[gemini-lead]] Edit the auth code and take notes.")
	reqs := srv.Conversation("lead")
	if len(reqs) < 3 {
		t.Fatalf("the lead sent %d requests\n%s", len(reqs), srv.Dump())
	}
	if first := contexts(reqs[0]); countIn(first, digestHeader) != 1 {
		t.Errorf("the first request does not carry the digest once:\n%s", strings.Join(first, "\n---\n"))
	}
	if reason, ok := reqs[1].Generate.LastResponse().Blocked(); !ok || strings.Count(reason, "src/auth.go is claimed by") != 1 {
		t.Errorf("the write was not denied once with lucid's reason: %q", reqs[1].Generate.LastResponse().Output())
	}
	ran := map[string]int{}
	for _, c := range e.calls() {
		if len(c.Args) == 4 && c.Args[0] == "hook" && c.Args[1] == "--client" && c.Args[2] == "gemini" {
			ran[c.Args[3]]++
		}
	}
	// Two write_file calls: BeforeTool and AfterTool match each once.
	for ev, want := range map[string]int{"SessionStart": 1, "BeforeTool": 2} {
		if ran[ev] != want {
			t.Errorf("lucid hook --client gemini %s ran %d times, want %d (all: %v)", ev, ran[ev], want, ran)
		}
	}
}

// Without lucid on PATH the extension blocks nothing: the write goes
// ahead, and the person is told once, on stderr at the session's start,
// how to install lucid; the model is not.
func TestGeminiExtensionWithoutLucid(t *testing.T) {
	needGemini(t)
	e := bareRepo(t)
	w := geminiExtensionWorld(t, e, "link")
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	lead := &gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		gem.WriteFile(w.path("src/auth.go"), "package auth // mine\n"),
		gem.Say("Done."),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	// The client's PATH is this process's, without lucid's folders.
	w.lucid = false
	t.Setenv("PATH", withoutLucid(t))
	res := w.gemini(srv, "[[gemini-lead]] Edit the auth code.")
	if got := e.read("src/auth.go"); got != "package auth // mine\n" {
		t.Errorf("the write did not go ahead without lucid:\n%s", got)
	}
	// Gemini 0.61.0 writes a SessionStart systemMessage twice on stderr
	// when headless, bare and as "Hook system message: ": one hook run
	// is one line of the second kind.
	const say = "no lucid binary is on PATH"
	if n := strings.Count(res.stderr, "Hook system message: "+installers.PluginMissing); n != 1 {
		t.Errorf("gemini showed the hook's message %d times on stderr, want once:\n%s", n, clip(res.stderr, 4000))
	}
	for _, r := range srv.Conversation("lead") {
		if strings.Contains(r.Generate.AllText(), say) {
			t.Errorf("the model was told of the missing binary, meant for the person:\n%s", clip(r.Generate.AllText(), 3000))
			break
		}
	}
}
