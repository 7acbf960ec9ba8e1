package e2e

// The Gemini scenarios: the real `gemini` binary with lucid's own hooks
// (`lucid hook --client gemini EVENT` in .gemini/settings.json), against
// the scripted model. The five clients together are in five_test.go.

import (
	"path/filepath"
	"strings"
	"testing"

	gem "github.com/lucid-dev/lucid/internal/testkit/scripted/generatecontent"
)

// withGemini sets Gemini CLI up in e's repository (lucid already set up
// there): its user settings in e's HOME and lucid's hooks in the project's
// .gemini/settings.json, committed.
func withGemini(t *testing.T, e *env) *geminiWorld {
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
	e.run("lucid", "init", "--client", "gemini") // lucid's hooks in .gemini/settings.json, as a user gets them
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "gemini")
	return w
}

// newGeminiLucid is a repository with lucid set up for Gemini CLI alone.
func newGeminiLucid(t *testing.T) *geminiWorld {
	t.Helper()
	needGemini(t)
	e := newScratch(t, t.TempDir())
	e.run("lucid", "init")
	return withGemini(t, e)
}

// contexts are the texts of the hook contexts in a Gemini request.
func contexts(r *gem.Request) []string {
	var out []string
	for _, c := range gem.HookContexts(r.Generate.Contents) {
		out = append(out, c.Text)
	}
	return out
}

// A claimed file's write_file, replace and shell write are each denied,
// with the reason in the next request, and the file stays; the first
// request carries the digest; a tool call with nothing new adds nothing;
// an agent that edited and recorded nothing is asked once, at the end of
// its turn.
func TestGeminiGuardNewsAndGate(t *testing.T) {
	w := newGeminiLucid(t)
	w.env.run("lucid", "claim", "src/**", "--for", "rework auth") // a person's claim
	auth := w.path("src/auth.go")
	lead := &gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		gem.WriteFile(auth, "package auth\n"),
		gem.Replace(auth, "Login returns nil", "Login fails"),
		gem.Shell("sed -i s/Login/LogIn/ src/auth.go"),
		gem.WriteFile(w.path("docs/notes.md"), "notes\n"),
		gem.Say("Done."),
		gem.Say("Done, nothing to record."),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	w.gemini(srv, "[[gemini-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 6 {
		t.Fatalf("want 6 requests (the gate asks once), got %d\n%s", len(reqs), srv.Dump())
	}
	if first := contexts(reqs[0]); countIn(first, digestHeader) != 1 {
		t.Fatalf("the first request does not carry the digest once:\n%s", strings.Join(first, "\n---\n"))
	}
	for i := 1; i <= 3; i++ {
		reason, ok := reqs[i].Generate.LastResponse().Blocked()
		if !ok || !strings.Contains(reason, `lucid: src/auth.go is claimed by human for «rework auth»`) {
			t.Errorf("request %d: the tool was not denied with lucid's reason: %q", i+1, reqs[i].Generate.LastResponse().Output())
		}
	}
	if got := w.content("src/auth.go"); !strings.Contains(got, "// Login returns nil when the password matches.") {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	if n4, n5 := len(contexts(reqs[3])), len(contexts(reqs[4])); n5 != n4 {
		t.Errorf("the write with nothing new added hook context: %d contexts before, %d after", n4, n5)
	}
	if !strings.Contains(reqs[5].Generate.LastUserText(), "Before you stop: you edited files but recorded nothing") {
		t.Errorf("the last request is not the stop gate's question:\n%s", reqs[5].Generate.LastUserText())
	}
}
