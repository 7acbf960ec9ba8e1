package e2e

// The six clients in one repository at once: the real `claude`, `codex`,
// `gemini`, `copilot`, `qwen` and `opencode`, each with lucid's own hooks
// (opencode: its plugin) as `lucid init` writes them, each against a
// scripted model of its own API.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
	gem "github.com/lucid-dev/lucid/internal/testkit/scripted/generatecontent"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// A Claude Code lead, and a Codex, a Gemini, a GitHub Copilot, a Qwen
// Code and an opencode agent work in one repository at the same time. The
// lead claims src/**; the five others, whose runs overlap, are each denied
// there with lucid's reason, and each claims and writes a file of its own
// elsewhere; each one's fact reaches the five others exactly once, signed
// with its own session's id; lucid claims and lucid log say which client
// each agent runs in.
func TestSixClients(t *testing.T) {
	needGemini(t) // each absent client skips the test before any set-up
	needCopilot(t)
	needQwen(t)
	needOpencode(t)
	e := newCodexLucid(t, true)
	g := withGemini(t, &e.env)
	cp := withCopilot(t, &e.env)
	q := withQwen(t, &e.env)
	e.run("lucid", "init", "--client", "opencode") // withOpencode commits it
	o := withOpencode(t, &e.env)
	before := e.read("src/auth.go")
	auth := e.path("src/auth.go")
	const (
		claudeFact   = "claude: auth uses bcrypt"
		codexFact    = "codex: docs are in docs/"
		geminiFact   = "gemini: login is rate limited"
		copilotFact  = "copilot: tokens expire in an hour"
		qwenFact     = "qwen: sessions live in redis"
		opencodeFact = "opencode: the API keeps v1 routes"
	)
	facts := []string{claudeFact, codexFact, geminiFact, copilotFact, qwenFact, opencodeFact}
	logHolds := func(texts ...string) bool {
		out, err := e.output("lucid", "log", "--json")
		for _, s := range texts {
			if err != nil || !strings.Contains(out, s) {
				return false
			}
		}
		return true
	}

	// One watcher of the log, for every script's waits: claimed once the
	// lead's claim and fact are in; allIn once every agent's are, and
	// lucid claims was taken then, while each still holds its claim (an
	// agent's claims end with its turn, and no agent goes past its wait
	// on allIn before that). Each wait is bounded.
	claimed, allIn, othersDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var claimsDuring string
	go func() {
		defer close(allIn)
		waitFor(func() bool { return logHolds(claudeFact) })
		close(claimed)
		for end := time.Now().Add(2 * time.Minute); !logHolds(facts...) && time.Now().Before(end); {
			time.Sleep(100 * time.Millisecond)
		}
		claimsDuring, _ = e.output("lucid", "claims")
	}()
	wait := func(ch chan struct{}) {
		select {
		case <-ch:
		case <-time.After(4 * time.Minute):
		}
	}

	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "lucid claim 'src/**' --for 'rework auth' && lucid fact '" + claudeFact + "'", "description": "claim"}),
		func(*api.MessagesRequest) api.Reply {
			wait(othersDone) // the claim holds while the others work
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo reading", "description": "read"}}}}
		},
		api.Say("Claude done."),
	}}
	csrv := api.New(claudeLead)
	defer csrv.Close()
	var claudeRes result
	claudeErr := make(chan error, 1)
	go func() {
		var err error
		claudeRes, err = e.claudeRun(csrv, "[[claude-lead]] Claim the auth code.")
		claudeErr <- err
	}()

	// Each of the five: denied on the lead's file, then its claim and
	// fact, then (every fact in) its own file and a last tool call, whose
	// hooks bring the facts that came since.
	codexLead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			wait(claimed)
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-package auth\n+package auth2\n*** End Patch\n")}}
		},
		rs.Calls(rs.Exec(fmt.Sprintf("lucid claim docs/codex.md --for 'codex docs' && lucid fact %q", codexFact))),
		func(*rs.ResponsesRequest) rs.Reply {
			wait(allIn)
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo codex > docs/codex.md")}}
		},
		rs.Say("Codex done."),
	}}
	rsrv := rs.New(codexLead)
	defer rsrv.Close()
	e.config(rsrv, "")

	geminiLead := &gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		func(*gem.GenerateRequest) gem.Reply {
			wait(claimed)
			return gem.Reply{Calls: []gem.Call{{Name: "write_file", Args: map[string]any{"file_path": auth, "content": "package gemini\n"}}}}
		},
		gem.Shell(fmt.Sprintf("lucid claim docs/gemini.md --for 'gemini docs' && lucid fact %q", geminiFact)),
		func(*gem.GenerateRequest) gem.Reply {
			wait(allIn)
			return gem.Reply{Calls: []gem.Call{{Name: "write_file", Args: map[string]any{"file_path": e.path("docs/gemini.md"), "content": "gemini\n"}}}}
		},
		gem.Say("Gemini done."),
	}}
	gsrv := gem.New(geminiLead)
	defer gsrv.Close()

	copilotLead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.Edit(auth, "Login returns nil", "Login fails")(nil)
		},
		cc.Bash(fmt.Sprintf("lucid claim docs/copilot.md --for 'copilot docs' && lucid fact %q", copilotFact)),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.Create(e.path("docs/copilot.md"), "copilot\n")(nil)
		},
		cc.Say("Copilot done."),
	}}
	cpsrv := cc.New(copilotLead)
	defer cpsrv.Close()

	qwenLead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.WriteFile(auth, "package qwen\n")(nil)
		},
		cc.Shell(fmt.Sprintf("lucid claim docs/qwen.md --for 'qwen docs' && lucid fact %q", qwenFact)),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.WriteFile(e.path("docs/qwen.md"), "qwen\n")(nil)
		},
		cc.Say("Qwen done."),
	}}
	qsrv := cc.New(qwenLead)
	defer qsrv.Close()

	// opencode's plugin throws lucid's reason, which the model reads as
	// the tool's result; its bash signs lucid from the plugin's shell.env.
	opencodeLead := &cc.Script{Name: "lead", Marker: "[[opencode-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.CallTool("write", map[string]any{"filePath": auth, "content": "package opencode\n"})(nil)
		},
		cc.CallTool("bash", map[string]any{"command": fmt.Sprintf("lucid claim docs/opencode.md --for 'opencode docs' && lucid fact %q", opencodeFact), "description": "claim"}),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.CallTool("write", map[string]any{"filePath": e.path("docs/opencode.md"), "content": "opencode\n"})(nil)
		},
		cc.Say("opencode done."),
	}}
	osrv := cc.New(opencodeLead)
	defer osrv.Close()

	runs := []func() error{
		func() error {
			_, err := e.execRun(rsrv, "[[codex-lead]] Edit the auth code.", "--dangerously-bypass-hook-trust")
			return err
		},
		func() error { _, err := g.geminiRun(gsrv, "[[gemini-lead]] Edit the auth code."); return err },
		func() error { _, err := cp.copilotRun(cpsrv, "[[copilot-lead]] Edit the auth code."); return err },
		func() error { _, err := q.qwenRun(qsrv, "[[qwen-lead]] Edit the auth code."); return err },
		func() error { _, err := o.opencodeRun(osrv, "[[opencode-lead]] Edit the auth code."); return err },
	}
	errs := make(chan error, len(runs))
	for _, r := range runs {
		go func() { errs <- r() }()
	}
	var failed []error
	for range runs {
		if err := <-errs; err != nil {
			failed = append(failed, err)
		}
	}
	close(othersDone)
	if err := <-claudeErr; err != nil {
		failed = append(failed, err)
	}
	<-allIn
	for _, err := range failed {
		t.Error(err)
	}
	if len(failed) > 0 {
		t.FailNow()
	}

	claudeReqs, codexReqs, geminiReqs := csrv.Conversation("lead"), rsrv.Conversation("lead"), gsrv.Conversation("lead")
	copilotReqs, qwenReqs, opencodeReqs := cpsrv.Conversation("lead"), qsrv.Conversation("lead"), osrv.Conversation("lead")
	for _, c := range []struct {
		who       string
		got, want int
	}{{"Claude", len(claudeReqs), 3}, {"Codex", len(codexReqs), 4}, {"Gemini", len(geminiReqs), 4}, {"Copilot", len(copilotReqs), 4}, {"Qwen", len(qwenReqs), 4}, {"opencode", len(opencodeReqs), 4}} {
		if c.got != c.want {
			t.Fatalf("want %d %s requests, got %d\nClaude:\n%s\nCodex:\n%s\nGemini:\n%s\nCopilot:\n%s\nQwen:\n%s\nopencode:\n%s", c.want, c.who, c.got,
				csrv.Dump(), rsrv.Dump(), gsrv.Dump(), cpsrv.Dump(), qsrv.Dump(), osrv.Dump())
		}
	}

	// Denied on the lead's file, with lucid's reason in what the model
	// read next; allowed elsewhere.
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the lead's claim:\n%s", got)
	}
	for _, c := range []string{"codex", "gemini", "copilot", "qwen", "opencode"} {
		if got := e.read("docs/" + c + ".md"); got != c+"\n" {
			t.Errorf("%s's write outside the claim did not go through: docs/%s.md holds %q", c, c, got)
		}
	}
	const deny = "lucid: src/auth.go is claimed by lead·"
	if out := lastOutput(codexReqs[1].Responses); !strings.Contains(out, deny) {
		t.Errorf("Codex's patch of src/auth.go was not denied with lucid's reason:\n%s", out)
	}
	if reason, ok := geminiReqs[1].Generate.LastResponse().Blocked(); !ok || !strings.Contains(reason, deny) {
		t.Errorf("Gemini's write of src/auth.go was not denied with lucid's reason: %q", reason)
	}
	if m, ok := copilotReqs[1].Chat.LastToolResult(); !ok || !strings.Contains(m.Text(), "Denied by preToolUse hook: "+deny) {
		t.Errorf("Copilot's edit of src/auth.go was not denied with lucid's reason: %q", m.Text())
	}
	if m, ok := qwenReqs[1].Chat.LastToolResult(); !ok || !strings.HasPrefix(m.Text(), deny) || !strings.Contains(m.Text(), `for «rework auth»`) {
		t.Errorf("Qwen's write of src/auth.go was not denied with lucid's reason: %q", m.Text())
	}
	if m, ok := opencodeReqs[1].Chat.LastToolResult(); !ok || !strings.Contains(m.Text(), deny) || !strings.Contains(m.Text(), `for «rework auth»`) {
		t.Errorf("opencode's write of src/auth.go was not denied with lucid's reason: %q", m.Text())
	}

	// Which client each agent runs in, in lucid claims and lucid log.
	for _, want := range []string{"src/**: lead·", "docs/codex.md: codex·", "docs/gemini.md: gemini·", "docs/copilot.md: copilot·", "docs/qwen.md: qwen·", "docs/opencode.md: opencode·"} {
		if !strings.Contains(claimsDuring, want) {
			t.Errorf("lucid claims, while all six held their claims, lacks %q:\n%s", want, claimsDuring)
		}
	}
	log := e.run("lucid", "log")
	for _, want := range []string{claudeFact + "» (lead·", codexFact + "» (codex·", geminiFact + "» (gemini·", copilotFact + "» (copilot·", qwenFact + "» (qwen·", opencodeFact + "» (opencode·"} {
		if !strings.Contains(log, want) {
			t.Errorf("lucid log lacks %q:\n%s", want, log)
		}
	}

	// Signed with each one's own id: the session its hooks saw.
	signers := map[string]string{}
	for _, en := range e.log() {
		signers[en.Text] = en.Agent
	}
	for _, c := range []struct{ who, fact, session string }{
		{"Claude", claudeFact, claudeRes.sessionID()},
		{"Codex", codexFact, codexReqs[0].Thread},
		{"Gemini", geminiFact, e.hookSession("gemini", "session_id")},
		{"Copilot", copilotFact, e.hookSession("copilot", "sessionId")},
		{"Qwen", qwenFact, e.hookSession("qwen", "session_id")},
		{"opencode", opencodeFact, e.hookSession("opencode", "sessionID")},
	} {
		if c.session == "" || signers[c.fact] != c.session {
			t.Errorf("the %s fact is signed %q, want its session %q", c.who, signers[c.fact], c.session)
		}
	}

	// Each fact reaches the five others exactly once: once in the hook
	// contexts of the agent's last request, and once in all that request
	// shows the model (no tool output brings it a second time). opencode's
	// plugin puts lucid's context in the system prompt and in tool
	// results: its hook contexts are those.
	var claudeHeard []string
	for _, c := range api.HookContexts(claudeReqs[len(claudeReqs)-1].Messages.Messages) {
		claudeHeard = append(claudeHeard, c.Text)
	}
	lastCodex, lastGemini := codexReqs[len(codexReqs)-1].Responses, geminiReqs[len(geminiReqs)-1]
	lastCopilot, lastQwen := copilotReqs[len(copilotReqs)-1], qwenReqs[len(qwenReqs)-1]
	lastOpencode := opencodeReqs[len(opencodeReqs)-1].Chat
	for _, c := range []struct {
		who, own string
		heard    []string
		read     string
	}{
		{"the Claude lead", claudeFact, claudeHeard, lastClaudeText(csrv)},
		{"the Codex agent", codexFact, lastCodex.Developer(), lastCodex.AllText()},
		{"the Gemini agent", geminiFact, contexts(lastGemini), lastGemini.Generate.SystemText() + "\n" + lastGemini.Generate.AllText()},
		{"the Copilot agent", copilotFact, copilotContexts(lastCopilot), lastCopilot.Chat.AllText()},
		{"the Qwen agent", qwenFact, qwenContexts(lastQwen, ""), lastQwen.Chat.AllText()},
		{"the opencode agent", opencodeFact, append(lastOpencode.Texts("system"), lastOpencode.Texts("tool")...), lastOpencode.AllText()},
	} {
		heard := strings.Join(c.heard, "\n")
		for _, f := range facts {
			if f == c.own {
				continue
			}
			if n, m := strings.Count(heard, f), strings.Count(c.read, f); n != 1 || m != 1 {
				t.Errorf("%s was told %q %d times in hook contexts, %d in all it read, want once:\n%s", c.who, f, n, m, strings.Join(c.heard, "\n---\n"))
			}
		}
	}
}
