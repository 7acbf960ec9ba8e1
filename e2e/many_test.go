package e2e

// Every client in one repository at once: TestSixClients' six, and Pi,
// Cline and Crush beside them, each with lucid's own hooks (Pi: its
// extension) as `lucid init` writes them, each against a scripted model
// of its own API.

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
	gem "github.com/lucid-dev/lucid/internal/testkit/scripted/generatecontent"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// A Claude Code lead, and a Codex, a Gemini, a GitHub Copilot, a Qwen
// Code, an opencode, a Pi, a Cline and (where its binary is) a Crush
// agent work in one repository at the same time. The lead claims src/**;
// the others, whose runs overlap, are each denied there with lucid's
// reason, the file unchanged, and each claims and writes a file of its
// own elsewhere; each one's fact reaches every other agent exactly once,
// signed with its own session's id; lucid claims and lucid log say which
// client each agent runs in.
//
// TestSixClients stays: it runs where Pi or Cline cannot be had.
func TestEveryClient(t *testing.T) {
	needGemini(t) // each absent client skips the test before any set-up
	needCopilot(t)
	needQwen(t)
	needOpencode(t)
	needPi(t)
	needCline(t)
	// Crush cannot be had in CI (the module proxy refuses it): without
	// it, its part skips, and this subtest says why.
	var withCrushToo bool
	t.Run("Crush", func(t *testing.T) { needCrush(t); withCrushToo = true })

	e := newCodexLucid(t, true)
	g := withGemini(t, &e.env)
	cp := withCopilot(t, &e.env)
	q := withQwen(t, &e.env)
	e.run("lucid", "init", "--client", "opencode") // withOpencode commits it
	o := withOpencode(t, &e.env)
	p := withPi(t, &e.env)
	cl := withCline(t, &e.env)
	var cr *crushWorld
	if withCrushToo {
		cr = withCrush(t, &e.env)
	}
	before := e.read("src/auth.go")
	auth := e.path("src/auth.go")
	fact := func(client string) string { return client + ": " + everyFact[client] }
	claudeFact := fact("claude")

	// The agents beside the lead, in the order their checks report.
	var others []*besideLead
	facts := []string{claudeFact}
	beside := func(a *besideLead) {
		a.fact = fact(a.client)
		others = append(others, a)
		facts = append(facts, a.fact)
	}

	// One watcher of the log, for every script's waits: claimed once the
	// lead's claim and fact are in; allIn once every agent's are, and
	// lucid claims was taken then, while each still holds its claim (an
	// agent's claims end with its turn, and no agent goes past its wait
	// on allIn before that). Each wait is bounded.
	claimed, allIn, othersDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var claimsDuring string
	logHolds := func(texts ...string) bool {
		out, err := e.output("lucid", "log", "--json")
		for _, s := range texts {
			if err != nil || !strings.Contains(out, s) {
				return false
			}
		}
		return true
	}
	wait := func(ch chan struct{}) {
		select {
		case <-ch:
		case <-time.After(4 * time.Minute):
		}
	}
	// claim is the shell line of an agent's claim of its own file and
	// its fact.
	claim := func(client string) string {
		return fmt.Sprintf("lucid claim docs/%s.md --for '%s docs' && lucid fact %q", client, client, fact(client))
	}
	own := func(client string) string { return e.path("docs/" + client + ".md") }

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

	// Each of the others: denied on the lead's file, then its claim and
	// fact, then (every fact in) its own file and a last tool call, whose
	// hooks bring the facts that came since.
	rsrv := rs.New(&rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			wait(claimed)
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-package auth\n+package auth2\n*** End Patch\n")}}
		},
		rs.Calls(rs.Exec(claim("codex"))),
		func(*rs.ResponsesRequest) rs.Reply {
			wait(allIn)
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo codex > docs/codex.md")}}
		},
		rs.Say("Codex done."),
	}})
	defer rsrv.Close()
	e.config(rsrv, "")
	beside(&besideLead{who: "the Codex agent", client: "codex", want: 4, dump: rsrv.Dump,
		run: func() error {
			_, err := e.execRun(rsrv, "[[codex-lead]] Edit the auth code.", "--dangerously-bypass-hook-trust")
			return err
		},
		reqs: func() int { return len(rsrv.Conversation("lead")) },
		denied: func(deny string) (string, bool) {
			out := lastOutput(rsrv.Conversation("lead")[1].Responses)
			return out, strings.Contains(out, deny)
		},
		session: func() string { return rsrv.Conversation("lead")[0].Thread },
		heard:   func() []string { return lastOf(rsrv.Conversation("lead")).Responses.Developer() },
		read:    func() string { return lastOf(rsrv.Conversation("lead")).Responses.AllText() },
	})

	gsrv := gem.New(&gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		func(*gem.GenerateRequest) gem.Reply {
			wait(claimed)
			return gem.Reply{Calls: []gem.Call{{Name: "write_file", Args: map[string]any{"file_path": auth, "content": "package gemini\n"}}}}
		},
		gem.Shell(claim("gemini")),
		func(*gem.GenerateRequest) gem.Reply {
			wait(allIn)
			return gem.Reply{Calls: []gem.Call{{Name: "write_file", Args: map[string]any{"file_path": own("gemini"), "content": "gemini\n"}}}}
		},
		gem.Say("Gemini done."),
	}})
	defer gsrv.Close()
	beside(&besideLead{who: "the Gemini agent", client: "gemini", want: 4, dump: gsrv.Dump,
		run:  func() error { _, err := g.geminiRun(gsrv, "[[gemini-lead]] Edit the auth code."); return err },
		reqs: func() int { return len(gsrv.Conversation("lead")) },
		denied: func(deny string) (string, bool) {
			reason, ok := gsrv.Conversation("lead")[1].Generate.LastResponse().Blocked()
			return reason, ok && strings.Contains(reason, deny)
		},
		session: func() string { return e.hookSession("gemini", "session_id") },
		heard:   func() []string { return contexts(lastOf(gsrv.Conversation("lead"))) },
		read: func() string {
			last := lastOf(gsrv.Conversation("lead")).Generate
			return last.SystemText() + "\n" + last.AllText()
		},
	})

	cpsrv := cc.New(&cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.Edit(auth, "Login returns nil", "Login fails")(nil)
		},
		cc.Bash(claim("copilot")),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.Create(own("copilot"), "copilot\n")(nil)
		},
		cc.Say("Copilot done."),
	}})
	defer cpsrv.Close()
	beside(&besideLead{who: "the Copilot agent", client: "copilot", want: 4, dump: cpsrv.Dump,
		run:  func() error { _, err := cp.copilotRun(cpsrv, "[[copilot-lead]] Edit the auth code."); return err },
		reqs: func() int { return len(cpsrv.Conversation("lead")) },
		denied: func(deny string) (string, bool) {
			m, ok := cpsrv.Conversation("lead")[1].Chat.LastToolResult()
			return m.Text(), ok && strings.Contains(m.Text(), "Denied by preToolUse hook: "+deny)
		},
		session: func() string { return e.hookSession("copilot", "sessionId") },
		heard:   func() []string { return copilotContexts(lastOf(cpsrv.Conversation("lead"))) },
		read:    func() string { return lastOf(cpsrv.Conversation("lead")).Chat.AllText() },
	})

	qsrv := cc.New(&cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.WriteFile(auth, "package qwen\n")(nil)
		},
		cc.Shell(claim("qwen")),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.WriteFile(own("qwen"), "qwen\n")(nil)
		},
		cc.Say("Qwen done."),
	}})
	defer qsrv.Close()
	beside(&besideLead{who: "the Qwen agent", client: "qwen", want: 4, dump: qsrv.Dump,
		run:     func() error { _, err := q.qwenRun(qsrv, "[[qwen-lead]] Edit the auth code."); return err },
		reqs:    func() int { return len(qsrv.Conversation("lead")) },
		denied:  func(deny string) (string, bool) { return toolResultHolds(qsrv, deny) },
		session: func() string { return e.hookSession("qwen", "session_id") },
		heard:   func() []string { return qwenContexts(lastOf(qsrv.Conversation("lead")), "") },
		read:    func() string { return lastOf(qsrv.Conversation("lead")).Chat.AllText() },
	})

	// opencode's plugin throws lucid's reason, which the model reads as
	// the tool's result; its bash signs lucid from the plugin's shell.env.
	// It puts lucid's context in the system prompt and in tool results:
	// its hook contexts are those.
	osrv := cc.New(&cc.Script{Name: "lead", Marker: "[[opencode-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.CallTool("write", map[string]any{"filePath": auth, "content": "package opencode\n"})(nil)
		},
		cc.CallTool("bash", map[string]any{"command": claim("opencode"), "description": "claim"}),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.CallTool("write", map[string]any{"filePath": own("opencode"), "content": "opencode\n"})(nil)
		},
		cc.Say("opencode done."),
	}})
	defer osrv.Close()
	beside(&besideLead{who: "the opencode agent", client: "opencode", want: 4, dump: osrv.Dump,
		run:     func() error { _, err := o.opencodeRun(osrv, "[[opencode-lead]] Edit the auth code."); return err },
		reqs:    func() int { return len(osrv.Conversation("lead")) },
		denied:  func(deny string) (string, bool) { return toolResultHolds(osrv, deny) },
		session: func() string { return e.hookSession("opencode", "sessionID") },
		heard:   func() []string { return systemAndTools(lastOf(osrv.Conversation("lead"))) },
		read:    func() string { return lastOf(osrv.Conversation("lead")).Chat.AllText() },
	})

	// Pi's extension blocks the write with lucid's reason as the tool's
	// result; the digest rides at the end of the system prompt, the news
	// is appended to a writing tool's result after it ran.
	psrv := cc.New(&cc.Script{Name: "lead", Marker: "[[pi-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.CallTool("write", map[string]any{"path": auth, "content": "package pi\n"})(nil)
		},
		cc.CallTool("bash", map[string]any{"command": claim("pi")}),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.CallTool("write", map[string]any{"path": own("pi"), "content": "pi\n"})(nil)
		},
		cc.Say("Pi done."),
	}})
	defer psrv.Close()
	beside(&besideLead{who: "the Pi agent", client: "pi", want: 4, dump: psrv.Dump,
		run:     func() error { _, err := p.piRunBeside(psrv, "[[pi-lead]] Edit the auth code."); return err },
		reqs:    func() int { return len(psrv.Conversation("lead")) },
		denied:  func(deny string) (string, bool) { return toolResultHolds(psrv, deny) },
		session: func() string { return e.hookSession("pi", "sessionID") },
		heard:   func() []string { return systemAndTools(lastOf(psrv.Conversation("lead"))) },
		read:    func() string { return lastOf(psrv.Conversation("lead")).Chat.AllText() },
	})

	// Cline cannot refuse one tool: lucid has its editor fail (the path
	// replaced by one no file system takes) and says why in a hook
	// context beside the failed result. Its hooks' words reach the model
	// only at Pre- and PostToolUse, so it has no stop gate: its script is
	// the others', and its claim ends when its task does.
	clsrv := cc.New(&cc.Script{Name: "lead", Marker: "[[cline-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			wait(claimed)
			return cc.CallTool("editor", map[string]any{"path": auth, "old_text": "Login returns nil", "new_text": "Login fails"})(nil)
		},
		cc.CallTool("run_commands", map[string]any{"commands": []string{claim("cline")}}),
		func(*cc.ChatRequest) cc.Reply {
			wait(allIn)
			return cc.CallTool("editor", map[string]any{"path": own("cline"), "new_text": "cline\n"})(nil)
		},
		cc.Say("Cline done."),
	}})
	defer clsrv.Close()
	beside(&besideLead{who: "the Cline agent", client: "cline", want: 4, dump: clsrv.Dump,
		run:  func() error { _, err := cl.clineRunBeside(clsrv, "[[cline-lead]] Edit the auth code."); return err },
		reqs: func() int { return len(clsrv.Conversation("lead")) },
		denied: func(deny string) (string, bool) {
			r := clsrv.Conversation("lead")[1]
			results, said := toolResults(r), strings.Join(clineContexts(r), "\n")
			failed := len(results) == 1 && strings.Contains(results[0], `"success":false`)
			return strings.Join(results, "\n") + "\n" + said, failed && strings.Contains(said, deny) && strings.Contains(said, "for «rework auth»")
		},
		session: func() string { return clineSession(&e.env) },
		heard:   func() []string { return clineContexts(lastOf(clsrv.Conversation("lead"))) },
		read:    func() string { return lastOf(clsrv.Conversation("lead")).Chat.AllText() },
	})

	// Crush has one hook, PreToolUse: its deny is read after Crush's own
	// words; the digest and the news are appended to the result of a
	// hooked call lucid let through (its first, the claim, brings the
	// digest). Its last write is hooked, so the news since comes with it
	// as with the others. Its claim outlives its run: Crush has no stop
	// event to end it.
	if cr != nil {
		crsrv := cc.New(&cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
			func(*cc.ChatRequest) cc.Reply {
				wait(claimed)
				return crushWrite(auth, "package crush\n")(nil)
			},
			crushBash(claim("crush")),
			func(*cc.ChatRequest) cc.Reply {
				wait(allIn)
				return crushWrite(own("crush"), "crush\n")(nil)
			},
			cc.Say("Crush done."),
		}})
		defer crsrv.Close()
		beside(&besideLead{who: "the Crush agent", client: "crush", want: 4, dump: crsrv.Dump,
			run:  func() error { _, err := cr.crushRun(crsrv, "[[crush-lead]] Edit the auth code."); return err },
			reqs: func() int { return len(crsrv.Conversation("lead")) },
			denied: func(deny string) (string, bool) {
				return toolResultHolds(crsrv, "Tool call blocked by hook. Reason: "+deny)
			},
			session: func() string { return e.hookSession("crush", "session_id") },
			heard:   func() []string { return lastOf(crsrv.Conversation("lead")).Chat.Texts("tool") },
			read:    func() string { return lastOf(crsrv.Conversation("lead")).Chat.AllText() },
		})
	}

	go func() {
		defer close(allIn)
		waitFor(func() bool { return logHolds(claudeFact) })
		close(claimed)
		for end := time.Now().Add(3 * time.Minute); !logHolds(facts...) && time.Now().Before(end); {
			time.Sleep(100 * time.Millisecond)
		}
		claimsDuring, _ = e.output("lucid", "claims")
	}()
	var claudeRes result
	claudeErr := make(chan error, 1)
	go func() {
		var err error
		claudeRes, err = e.claudeRun(csrv, "[[claude-lead]] Claim the auth code.")
		claudeErr <- err
	}()
	errs := make(chan error, len(others))
	for _, a := range others {
		go func() { errs <- a.run() }()
	}
	var failed []error
	for range others {
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

	claudeReqs := csrv.Conversation("lead")
	dumps := func() string {
		all := []string{"Claude:\n" + csrv.Dump()}
		for _, a := range others {
			all = append(all, a.who+":\n"+a.dump())
		}
		return strings.Join(all, "\n")
	}
	if len(claudeReqs) != 3 {
		t.Fatalf("want 3 Claude requests, got %d\n%s", len(claudeReqs), dumps())
	}
	for _, a := range others {
		if got := a.reqs(); got != a.want {
			t.Fatalf("want %d requests of %s, got %d\n%s", a.want, a.who, got, dumps())
		}
	}

	// Denied on the lead's file, with lucid's reason in what the model
	// read next; allowed elsewhere.
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the lead's claim:\n%s", got)
	}
	const deny = "lucid: src/auth.go is claimed by lead·"
	for _, a := range others {
		if got := e.read("docs/" + a.client + ".md"); got != a.client+"\n" {
			t.Errorf("%s's write outside the claim did not go through: docs/%s.md holds %q", a.who, a.client, got)
		}
		if read, ok := a.denied(deny); !ok {
			t.Errorf("%s's write of src/auth.go was not denied with lucid's reason:\n%s", a.who, read)
		}
	}

	// Which client each agent runs in, in lucid claims and lucid log.
	log := e.run("lucid", "log")
	for _, want := range []string{"src/**: lead·", claudeFact + "» (lead·"} {
		if !strings.Contains(claimsDuring+log, want) {
			t.Errorf("lucid claims or lucid log lacks %q:\n%s\n%s", want, claimsDuring, log)
		}
	}
	for _, a := range others {
		if want := "docs/" + a.client + ".md: " + a.client + "·"; !strings.Contains(claimsDuring, want) {
			t.Errorf("lucid claims, while every agent held its claim, lacks %q:\n%s", want, claimsDuring)
		}
		if want := a.fact + "» (" + a.client + "·"; !strings.Contains(log, want) {
			t.Errorf("lucid log lacks %q:\n%s", want, log)
		}
	}

	// Signed with each one's own id: the session its hooks saw.
	signers := map[string]string{}
	for _, en := range e.log() {
		signers[en.Text] = en.Agent
	}
	if s := claudeRes.sessionID(); s == "" || signers[claudeFact] != s {
		t.Errorf("the Claude fact is signed %q, want its session %q", signers[claudeFact], s)
	}
	for _, a := range others {
		if s := a.session(); s == "" || signers[a.fact] != s {
			t.Errorf("%s's fact is signed %q, want its session %q", a.who, signers[a.fact], s)
		}
	}

	// Each fact reaches every other agent exactly once: once in the lucid
	// texts of the agent's last request, and once in all that request
	// shows the model (no tool output brings it a second time).
	var claudeHeard []string
	for _, c := range api.HookContexts(claudeReqs[len(claudeReqs)-1].Messages.Messages) {
		claudeHeard = append(claudeHeard, c.Text)
	}
	type toldTo struct {
		who, own string
		heard    []string
		read     string
	}
	told := []toldTo{{"the Claude lead", claudeFact, claudeHeard, lastClaudeText(csrv)}}
	for _, a := range others {
		told = append(told, toldTo{a.who, a.fact, a.heard(), a.read()})
	}
	for _, c := range told {
		heard := strings.Join(c.heard, "\n")
		for _, f := range facts {
			if f == c.own {
				continue
			}
			if n, m := strings.Count(heard, f), strings.Count(c.read, f); n != 1 || m != 1 {
				t.Errorf("%s was told %q %d times in lucid's texts, %d in all it read, want once:\n%s", c.who, f, n, m, strings.Join(c.heard, "\n---\n"))
			}
		}
	}
}

// everyFact is each client's fact in TestEveryClient, after its name.
var everyFact = map[string]string{
	"claude":   "auth uses bcrypt",
	"codex":    "docs are in docs/",
	"gemini":   "login is rate limited",
	"copilot":  "tokens expire in an hour",
	"qwen":     "sessions live in redis",
	"opencode": "the API keeps v1 routes",
	"pi":       "passwords are peppered",
	"cline":    "the audit log is append-only",
	"crush":    "admins need two factors",
}

// besideLead is one agent of TestEveryClient beside its lead: its run, and
// how to read its conversation once the run is over.
type besideLead struct {
	who    string // "the Pi agent"
	client string // lucid's name of its client: its label, its file docs/CLIENT.md
	fact   string
	want   int // the requests of its conversation
	run    func() error
	reqs   func() int
	dump   func() string
	// denied is what the model read after its write of src/auth.go, and
	// whether that holds lucid's reason deny.
	denied  func(deny string) (string, bool)
	session func() string // the id its hooks saw
	// heard are lucid's texts in its last request, where its client puts
	// them; read is all that request shows the model.
	heard func() []string
	read  func() string
}

// lastOf is the last request of a conversation.
func lastOf[R any](reqs []R) R { return reqs[len(reqs)-1] }

// toolResultHolds is the result of the first tool call of srv's "lead"
// conversation as its model read it, and whether it holds deny and the
// lead's task.
func toolResultHolds(srv *cc.Server, deny string) (string, bool) {
	m, ok := srv.Conversation("lead")[1].Chat.LastToolResult()
	return m.Text(), ok && strings.Contains(m.Text(), deny) && strings.Contains(m.Text(), "for «rework auth»")
}

// systemAndTools are the system prompt's and the tool results' texts of a
// request: where opencode's plugin and Pi's extension put lucid's words.
func systemAndTools(r *cc.Request) []string {
	return append(r.Chat.Texts("system"), r.Chat.Texts("tool")...)
}

// clineSession is the session of the Cline agent as its hooks saw it:
// the payload's sessionContext.rootSessionId, which lucid knows the lead
// agent by.
func clineSession(e *env) string {
	for _, c := range e.calls() {
		if len(c.Args) == 4 && c.Args[0] == "hook" && c.Args[1] == "--client" && c.Args[2] == "cline" {
			if sc, _ := c.Payload["sessionContext"].(map[string]any); sc != nil {
				if s, _ := sc["rootSessionId"].(string); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// withPi sets Pi up in e's repository (lucid already set up there): its
// extension as `lucid init --client pi` writes it, committed.
func withPi(t *testing.T, e *env) *piWorld {
	t.Helper()
	w := &piWorld{env: e, bin: needPi(t)}
	e.run("lucid", "init", "--client", "pi")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "pi")
	return w
}

// piRunBeside is piWorld.pi for a goroutine of its own, beside other
// clients' runs: it returns any trouble as its error.
func (w *piWorld) piRunBeside(srv *cc.Server, prompt string) (run, error) {
	agent := filepath.Join(w.home, ".pi", "agent")
	if err := writeAtomic(filepath.Join(agent, "models.json"), fmt.Sprintf(piModels, srv.URL)); err != nil {
		return run{}, err
	}
	if err := writeAtomic(filepath.Join(agent, "settings.json"), piSettings); err != nil {
		return run{}, err
	}
	environ := w.env.clientEnviron(true, func(k string) bool {
		for _, p := range []string{"PI_", "OPENAI_", "ANTHROPIC_", "GEMINI_", "CLAUDE", "CODEX_", "OMP"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "NODE_OPTIONS" || k == "AGENT" || k == "PWD"
	})
	environ = append(environ, "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0", "TERM=dumb")
	res, err := runClient(srv, runTimeout, w.repo, environ, w.bin, "-p", prompt)
	w.t.Logf("pi -p ran %s, exit %d, %d requests", res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	if dir := dumpDir(w.t); dir != "" {
		dumpFiles(dir, map[string]string{"pi-stdout.txt": res.stdout, "pi-stderr.txt": res.stderr, "pi-requests.txt": srv.Dump()}, nil)
	}
	return res, runTrouble("pi -p", srv, res, err)
}

// withCline sets Cline up in e's repository (lucid already set up
// there): its hook files as `lucid init --client cline` writes them,
// committed.
func withCline(t *testing.T, e *env) *clineWorld {
	t.Helper()
	w := &clineWorld{env: e, bin: needCline(t)}
	e.run("lucid", "init", "--client", "cline")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "cline")
	return w
}

// clineRunBeside is clineWorld.clineRun, in lucid's world, for a
// goroutine of its own beside other clients' runs: it returns any
// trouble as its error.
func (w *clineWorld) clineRunBeside(srv *cc.Server, prompt string) (run, error) {
	settings := filepath.Join(w.home, ".cline", "data", "settings")
	for name, content := range map[string]string{
		"providers.json":       `{"version":1,"lastUsedProvider":"openai-compatible","modes":{},"providers":{"openai-compatible":{"settings":{"provider":"openai-compatible","apiKey":"x","model":"scripted-model","baseUrl":"` + srv.URL + `"},"updatedAt":"2026-01-01T00:00:00.000Z","tokenSource":"manual"}}}`,
		"global-settings.json": `{"telemetryOptOut":true,"autoUpdateEnabled":false}`,
	} {
		if err := writeAtomic(filepath.Join(settings, name), content); err != nil {
			return run{}, err
		}
	}
	environ := w.env.clientEnviron(true, func(k string) bool {
		return strings.HasPrefix(k, "CLINE_") || strings.HasPrefix(k, "OPENAI_") || k == "NODE_OPTIONS"
	})
	// local: no hub daemon outliving the test.
	environ = append(environ, "CLINE_SESSION_BACKEND_MODE=local", "TERM=dumb")
	res, err := runClient(srv, runTimeout, w.repo, environ, w.bin, prompt)
	w.t.Logf("cline ran %s, exit %d, %d requests", res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	if dir := dumpDir(w.t); dir != "" {
		dumpFiles(dir, map[string]string{"cline-stdout.txt": res.stdout, "cline-stderr.txt": res.stderr, "cline-requests.txt": srv.Dump()}, nil)
	}
	return res, runTrouble("cline", srv, res, err)
}

// runTrouble is what went wrong with a client's run, as an error quoting
// the server's requests and the client's stderr: the run failed or hung,
// exited non-zero, or the server could not follow its scripts.
func runTrouble(name string, srv *cc.Server, res run, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("%s: %v\nrequests:\n%s\nstderr:\n%s", name, err, srv.Dump(), clip(res.stderr, 4000))
	case res.code != 0:
		return fmt.Errorf("%s exited %d\nrequests:\n%s\nstderr:\n%s", name, res.code, srv.Dump(), clip(res.stderr, 4000))
	}
	if p := srv.Problems(); len(p) > 0 {
		return fmt.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000))
	}
	return nil
}
