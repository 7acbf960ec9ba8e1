package e2e

// The Codex scenarios: the real `codex` binary with lucid's own hooks
// (`lucid hook --client codex EVENT` in .codex/hooks.json), beside the real
// `claude` where a scenario has both, in one repository, against the
// scripted models. Where a scenario has both clients, they run at the same
// time: a scripted step waits, inside the scripted server, for what the
// other agent does.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// newCodexLucid makes a repository with lucid set up for Claude Code (lucid
// init) and for Codex (lucid init --client codex), the shim first
// on PATH for both clients, and a CODEX_HOME of its own.
func newCodexLucid(t *testing.T, withClaude bool) *codexEnvT {
	t.Helper()
	return newCodexLucidIn(t, t.TempDir(), withClaude)
}

// newCodexLucidIn is newCodexLucid in the folder root.
func newCodexLucidIn(t *testing.T, root string, withClaude bool) *codexEnvT {
	t.Helper()
	bin := needCodex(t)
	if withClaude {
		needClaude(t)
	}
	e := &codexEnvT{env: *newScratch(t, root), bin: bin, codex: filepath.Join(root, "codex-home"), hookDir: filepath.Join(root, "hook"), lucid: true}
	for _, d := range []string{e.codex, e.hookDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Codex runs commands in a login shell, whose /etc/profile sets PATH
	// anew (seen: "lucid: command not found" with lucid first on Codex's
	// own PATH): a user puts lucid on PATH in ~/.profile, and so does the
	// suite.
	e.write(filepath.Join(e.home, ".profile"), "export PATH="+lucidDir+":$PATH\n")
	e.write(e.path("docs/m.md"), "moved\n")
	e.run("lucid", "init", "--client", "claude,codex") // lucid's hooks in .codex/hooks.json, as a user gets them
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "scratch")
	return e
}

// codexExec runs codex with lucid's hooks (the suite's own CODEX_HOME
// trusts the project; hook trust is bypassed: TestCodexHookTrust proves
// Codex's own way of trusting them).
func (e *codexEnvT) codexExec(srv *rs.Server, prompt string) codexRun {
	e.t.Helper()
	return e.exec(srv, prompt, "--dangerously-bypass-hook-trust")
}

// waitFor polls cond until it holds, inside a scripted step, so that one
// agent's model answers only after the other agent did something; false
// after a minute.
func waitFor(cond func() bool) bool {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// logHas reports whether an entry of the log holds text.
func (e *codexEnvT) logHas(text string) bool {
	out, err := e.output("lucid", "log", "--json")
	return err == nil && strings.Contains(out, text)
}

// countIn counts the texts that contain want.
func countIn(texts []string, want string) int {
	n := 0
	for _, s := range texts {
		if strings.Contains(s, want) {
			n++
		}
	}
	return n
}

// A new Codex session's first request carries the digest, with what is in
// the log; a tool call with nothing new adds no lucid text.
func TestCodexDigestThenNothingNew(t *testing.T) {
	e := newCodexLucid(t, false)
	e.run("lucid", "decision", "parse with the new API")
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.Exec("echo hi")),
		rs.Say("Done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Say hi.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	first := reqs[0].Responses.Developer()
	if countIn(first, digestHeader) != 1 || countIn(first, "parse with the new API") != 1 {
		t.Fatalf("the first request does not carry the digest once, with the decision:\n%s", strings.Join(first, "\n---\n"))
	}
	if n0, n1 := countIn(first, "lucid"), countIn(reqs[1].Responses.Developer(), "lucid"); n1 != n0 {
		t.Errorf("the tool call with nothing new added lucid text: %d developer messages name lucid after it, %d before\n%s",
			n1, n0, strings.Join(itemsOfRole(reqs[1].Responses.Tail(), "developer"), "\n---\n"))
	}
}

// A Claude Code lead claims src/** and keeps working; meanwhile a Codex
// agent's apply_patch on src/auth.go, its shell sed -i on it, and a patch
// that moves a file into src/ are all denied, each reason reaching the
// Codex model's next request, and the files stay as they were.
func TestCodexDeniedOnClaudeClaim(t *testing.T) {
	e := newCodexLucid(t, true)
	claimed, release := e.claudeHolds("src/**", "rework auth")

	patch := "*** Begin Patch\n*** Update File: src/auth.go\n@@\n-// Login returns nil when the password matches.\n+// Login checks.\n*** End Patch\n"
	move := "*** Begin Patch\n*** Update File: docs/m.md\n*** Move to: src/m.md\n@@\n-moved\n+moved in\n*** End Patch\n"
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(claimed)
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch(patch)}}
		},
		rs.Calls(rs.Exec("sed -i s/Login/LogIn/ src/auth.go")),
		rs.Calls(rs.ApplyPatch(move)),
		rs.Say("Codex done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Edit the auth code.")
	if err := release(); err != nil {
		t.Fatal(err)
	}

	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 Codex requests, got %d\n%s", len(reqs), srv.Dump())
	}
	for i, want := range []string{"src/auth.go is claimed by lead·", "src/auth.go is claimed by lead·", "src/m.md is claimed by lead·"} {
		out := lastOutput(reqs[i+1].Responses)
		if !strings.Contains(out, "Command blocked by PreToolUse hook: lucid: "+want) || !strings.Contains(out, `for «rework auth»`) ||
			!strings.Contains(out, `--for-claim 'src/**' "why you need it"`) {
			t.Errorf("request %d: the deny reason did not reach the model; the call's output:\n%s", i+2, out)
		}
	}
	if got := e.read("src/auth.go"); !strings.Contains(got, "// Login returns nil when the password matches.") || strings.Contains(got, "LogIn") {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	if _, err := os.Stat(e.path("src/m.md")); err == nil || e.read("docs/m.md") != "moved\n" {
		t.Errorf("the patch that moves docs/m.md into src/ was applied")
	}
}

// A Codex agent records a fact with the lucid command line through its
// shell: the entry is signed with its own id (from Codex's environment), a
// Claude Code lead at work beside it hears it at its next tool call, and
// the lead's fact reaches the Codex agent's next request, once.
func TestCodexFactsMeetClaude(t *testing.T) {
	e := newCodexLucid(t, true)
	const codexFact, claudeFact = "codex: Login delegates to check", "claude: the tests live in src/auth_test.go"
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "echo starting", "description": "start"}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return e.logHas(codexFact) })
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo looking", "description": "look"}}}}
		},
		api.Call("Bash", map[string]any{"command": "lucid fact '" + claudeFact + "'", "description": "record"}),
		api.Say("Claude done."),
	}}
	csrv := api.New(claudeLead)
	defer csrv.Close()
	claudeErr := make(chan error, 1)
	go func() {
		_, err := e.claudeRun(csrv, "[[claude-lead]] Look around.")
		claudeErr <- err
	}()
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			// Start once the Claude lead has had its digest, so the
			// fact reaches it as news.
			waitFor(func() bool { return len(csrv.Requests()) >= 2 })
			return rs.Reply{Calls: []rs.Call{rs.Exec(fmt.Sprintf("lucid fact %q -e src/auth.go:5", codexFact))}}
		},
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(func() bool { return e.logHas(claudeFact) })
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo next")}}
		},
		rs.Calls(rs.Exec("echo again")),
		rs.Say("Codex done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Find out how login works.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 Codex requests, got %d\n%s", len(reqs), srv.Dump())
	}
	session := reqs[0].Thread
	var signed bool
	for _, en := range e.log() {
		if en.Text == codexFact {
			signed = en.Agent == session
			if !signed {
				t.Errorf("the Codex agent's fact is signed %q, want its session %q", en.Agent, session)
			}
		}
	}
	if !signed {
		t.Fatalf("the Codex agent's fact is not in the log")
	}
	if log := e.run("lucid", "log"); !strings.Contains(log, "«"+codexFact+"» (codex·") {
		t.Errorf("lucid log does not label the fact codex·…:\n%s", log)
	}
	// The Claude lead: the fact came with its tool call after Codex wrote it.
	claudeReqs := csrv.Conversation("lead")
	last := claudeReqs[len(claudeReqs)-1]
	var heard int
	for _, c := range api.HookContexts(last.Messages.Messages) {
		heard += strings.Count(c.Text, codexFact)
	}
	if heard != 1 {
		t.Errorf("the Claude lead heard the Codex fact %d times, want once\n%s", heard, csrv.Dump())
	}
	// The Codex agent: the lead's fact in a developer message, once, by
	// the end (developer messages stay in every later request).
	if n := countIn(reqs[3].Responses.Developer(), claudeFact); n != 1 {
		t.Errorf("the Codex agent was told the Claude fact %d times, want once\n%s", n, strings.Join(reqs[3].Responses.Developer(), "\n---\n"))
	}
}

// A Codex subagent is named by its own id (the root session/its thread),
// and its claims end at its SubagentStop.
func TestCodexSubagentClaims(t *testing.T) {
	e := newCodexLucid(t, false)
	var during string
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.Spawn("[[codex-sub]] write the docs")),
		rs.WaitSpawned(60000),
		rs.Say("Lead done."),
	}}
	sub := &rs.Script{Name: "sub", Marker: "[[codex-sub]]", Steps: []rs.Step{
		rs.Calls(rs.Exec("lucid claim 'docs/**' --for 'sub docs'")),
		func(*rs.ResponsesRequest) rs.Reply {
			during, _ = e.output("lucid", "claims", "--json")
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo x > docs/s.md")}}
		},
		rs.Say("Sub done."),
	}}
	srv := rs.New(lead, sub)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Have a subagent write the docs.")
	leadReqs, subReqs := srv.Conversation("lead"), srv.Conversation("sub")
	if len(subReqs) < 2 {
		t.Fatalf("the subagent did not run\n%s", srv.Dump())
	}
	owner := leadReqs[0].Thread + "/" + subReqs[0].Thread
	if !strings.Contains(during, `"owner": "`+owner+`"`) {
		t.Errorf("while the subagent worked, its claim's owner was not %s:\n%s", owner, during)
	}
	if out := e.run("lucid", "claims"); strings.Contains(out, "sub docs") {
		t.Errorf("the subagent's claim outlived its SubagentStop:\n%s", out)
	}
	if !containsText(subReqs[0].Responses.Developer(), digestHeader) {
		t.Errorf("the subagent's first request has no digest")
	}
}

// A Codex agent that edited a file and recorded nothing is asked once at
// its Stop; its claims end with its turn.
func TestCodexStopGateOnce(t *testing.T) {
	e := newCodexLucid(t, false)
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.Exec("lucid claim 'notes/**' --for 'notes'")),
		rs.Calls(rs.ApplyPatch("*** Begin Patch\n*** Add File: notes/n.md\n+a note\n*** End Patch\n")),
		rs.Say("Done."),
		rs.Say("Done, and nothing worth recording."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Write a note.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 requests (the gate asks once), got %d\n%s", len(reqs), srv.Dump())
	}
	if !strings.Contains(reqs[3].Responses.AllText(), "Before you stop: you edited files but recorded nothing") {
		t.Errorf("the request after the first Stop does not carry the question\n%s", srv.Dump())
	}
	if out := e.run("lucid", "claims"); strings.Contains(out, "notes") {
		t.Errorf("the Codex agent's claim outlived its turn:\n%s", out)
	}
}
