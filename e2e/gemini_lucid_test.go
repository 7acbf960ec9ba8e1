package e2e

// The Gemini scenarios, and the three clients in one repository: the real
// `gemini` binary with lucid's own hooks (`lucid hook --client gemini
// EVENT` in .gemini/settings.json), beside the real `claude` and `codex`,
// against the scripted models.

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gem "github.com/lucid-dev/lucid/internal/scripted/generatecontent"
	api "github.com/lucid-dev/lucid/internal/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/scripted/responses"
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
		if !ok || !strings.Contains(reason, `lucid: src/auth.go is claimed by human for "rework auth"`) {
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

// A Claude Code lead, a Codex agent and a Gemini agent work in one
// repository at the same time. The lead claims src/**; both others are
// denied there and write elsewhere; each one's fact reaches the other two
// exactly once, signed with its own id; lucid claims and lucid log say
// which client each agent runs in.
func TestThreeClients(t *testing.T) {
	e := newCodexLucid(t, true)
	g := withGemini(t, &e.env)
	const claudeFact, codexFact, geminiFact = "claude: auth uses bcrypt", "codex: docs are in docs/", "gemini: login is rate limited"
	othersDone := make(chan struct{})
	claimsSeen := make(chan struct{})
	var claimsDuring string

	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "lucid claim 'src/**' --for 'rework auth' && lucid fact '" + claudeFact + "'", "description": "claim"}),
		func(*api.MessagesRequest) api.Reply {
			select { // the claim holds while the others work
			case <-othersDone:
			case <-time.After(4 * time.Minute):
			}
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo reading", "description": "read"}}}}
		},
		api.Say("Claude done."),
	}}
	csrv := api.New(claudeLead)
	defer csrv.Close()
	claudeErr := make(chan error, 1)
	go func() {
		_, err := e.claudeRun(csrv, "[[claude-lead]] Claim the auth code.")
		claudeErr <- err
	}()

	codexLead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(func() bool { return e.logHas(claudeFact) })
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-package auth\n+package auth2\n*** End Patch\n")}}
		},
		rs.Calls(rs.Exec(fmt.Sprintf("lucid claim docs/codex.md --for 'codex docs' && lucid fact %q && echo codex > docs/codex.md", codexFact))),
		func(*rs.ResponsesRequest) rs.Reply {
			select { // Gemini looks at the claims while Codex still holds its own
			case <-claimsSeen:
			case <-time.After(4 * time.Minute):
			}
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo next")}}
		},
		rs.Say("Codex done."),
	}}
	rsrv := rs.New(codexLead)
	defer rsrv.Close()
	e.config(rsrv, "")
	codexErr := make(chan error, 1)
	go func() {
		_, err := e.execRun(rsrv, "[[codex-lead]] Edit the auth code.", "--dangerously-bypass-hook-trust")
		codexErr <- err
	}()

	geminiLead := &gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		func(*gem.GenerateRequest) gem.Reply {
			waitFor(func() bool { return e.logHas(codexFact) })
			return gem.Reply{Calls: []gem.Call{{Name: "write_file", Args: map[string]any{"file_path": e.path("src/auth.go"), "content": "package gemini\n"}}}}
		},
		gem.Shell(fmt.Sprintf("lucid claim docs/gemini.md --for 'gemini docs' && lucid fact %q", geminiFact)),
		func(*gem.GenerateRequest) gem.Reply {
			claimsDuring, _ = e.output("lucid", "claims")
			close(claimsSeen)
			return gem.Reply{Calls: []gem.Call{{Name: "write_file", Args: map[string]any{"file_path": e.path("docs/gemini.md"), "content": "gemini\n"}}}}
		},
		gem.Say("Gemini done."),
	}}
	gsrv := gem.New(geminiLead)
	defer gsrv.Close()
	g.gemini(gsrv, "[[gemini-lead]] Edit the auth code.")
	if err := <-codexErr; err != nil {
		t.Fatal(err)
	}
	close(othersDone)
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}

	// Denied on the lead's file, allowed elsewhere.
	if got := e.read("src/auth.go"); !strings.HasPrefix(got, "package auth\n") {
		t.Errorf("src/auth.go changed under the lead's claim:\n%s", got)
	}
	if e.read("docs/codex.md") != "codex\n" || e.read("docs/gemini.md") != "gemini\n" {
		t.Errorf("the writes outside the claim did not go through")
	}
	codexReqs, geminiReqs, claudeReqs := rsrv.Conversation("lead"), gsrv.Conversation("lead"), csrv.Conversation("lead")
	if out := lastOutput(codexReqs[1].Responses); !strings.Contains(out, "lucid: src/auth.go is claimed by lead·") {
		t.Errorf("Codex's patch of src/auth.go was not denied with lucid's reason:\n%s", out)
	}
	if reason, ok := geminiReqs[1].Generate.LastResponse().Blocked(); !ok || !strings.Contains(reason, "lucid: src/auth.go is claimed by lead·") {
		t.Errorf("Gemini's write of src/auth.go was not denied with lucid's reason: %q", reason)
	}

	// Which client each agent runs in, in lucid claims and lucid log.
	for _, want := range []string{"src/**: lead·", "docs/codex.md: codex·", "docs/gemini.md: gemini·"} {
		if !strings.Contains(claimsDuring, want) {
			t.Errorf("lucid claims, while all three worked, lacks %q:\n%s", want, claimsDuring)
		}
	}
	log := e.run("lucid", "log")
	for _, want := range []string{claudeFact + " (lead·", codexFact + " (codex·", geminiFact + " (gemini·"} {
		if !strings.Contains(log, want) {
			t.Errorf("lucid log lacks %q:\n%s", want, log)
		}
	}
	// Signed with each one's own id.
	signers := map[string]string{}
	for _, en := range e.log() {
		signers[en.Text] = en.Agent
	}
	if signers[codexFact] != codexReqs[0].Thread {
		t.Errorf("the Codex fact is signed %q, want its session %q", signers[codexFact], codexReqs[0].Thread)
	}
	geminiSession := ""
	for _, c := range e.env.calls() {
		if len(c.Args) >= 4 && c.Args[0] == "hook" && c.Args[1] == "--client" && c.Args[2] == "gemini" {
			geminiSession, _ = c.Payload["session_id"].(string)
		}
	}
	if geminiSession == "" || signers[geminiFact] != geminiSession {
		t.Errorf("the Gemini fact is signed %q, want its session %q", signers[geminiFact], geminiSession)
	}

	// Each fact reaches the other two exactly once.
	var claudeHeard []string
	for _, c := range api.HookContexts(claudeReqs[len(claudeReqs)-1].Messages.Messages) {
		claudeHeard = append(claudeHeard, c.Text)
	}
	codexHeard := codexReqs[len(codexReqs)-1].Responses.Developer()
	geminiHeard := contexts(geminiReqs[len(geminiReqs)-1])
	for _, c := range []struct {
		who   string
		heard []string
		facts []string
	}{
		{"the Claude lead", claudeHeard, []string{codexFact, geminiFact}},
		{"the Codex agent", codexHeard, []string{claudeFact, geminiFact}},
		{"the Gemini agent", geminiHeard, []string{claudeFact, codexFact}},
	} {
		for _, f := range c.facts {
			if n := strings.Count(strings.Join(c.heard, "\n"), f); n != 1 {
				t.Errorf("%s was told %q %d times, want once:\n%s", c.who, f, n, strings.Join(c.heard, "\n---\n"))
			}
		}
	}
}
