// Package e2e runs the real Claude Code client (2.1.332) against a
// scripted model (internal/scripted/messages) in scratch repositories where lucid
// is set up, and checks, from the requests the client sends, what lucid's
// hooks put in front of the model; and, from the files and the log, what
// they recorded. `make e2e` installs Claude Code and runs it.
package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

const digestHeader = "# lucid: what the agents in this repository share"

// A new session's first request carries the digest: the plan and what the
// log holds.
func TestSessionStartDigest(t *testing.T) {
	e := newEnv(t)
	const planLine = "Ship the login page first; leave the admin pages alone this week."
	e.write(e.path(".lucid/plan.md"), "# Plan\n\n"+planLine+"\n")
	e.run("lucid", "fact", "Login delegates the password check to check()", "-e", "src/auth.go:5")
	e.run("git", "commit", "-qam", "plan and a fact")

	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{api.Say("Nothing to do.")}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] What is the plan?")

	reqs := srv.Conversation("lead")
	if len(reqs) == 0 {
		t.Fatalf("the lead sent no request\n%s", srv.Dump())
	}
	ctx := only(t, api.HookContexts(reqs[0].Messages.Messages), "SessionStart")
	for _, want := range []string{digestHeader, planLine, "Login delegates the password check to check()", "evidence: src/auth.go:5"} {
		if !strings.Contains(ctx.Text, want) {
			t.Errorf("the first request's SessionStart context lacks %q:\n%s", want, ctx.Text)
		}
	}
}

// A subagent records a fact through Bash: the entry is the subagent's, the
// lead's next request carries it, the subagent's own requests do not.
//
// In the background (the Agent tool's default) the lead ends its turn while
// the subagent works, and `claude -p` wakes it with a task notification when
// the subagent is done: the notification passes through UserPromptSubmit. In
// the foreground the lead's next request carries the Agent call's result.
func TestSubagentFactReachesLead(t *testing.T) {
	t.Run("background", func(t *testing.T) { subagentFact(t, true) })
	t.Run("foreground", func(t *testing.T) { subagentFact(t, false) })
}

func subagentFact(t *testing.T, background bool) {
	e := newEnv(t)
	const fact = "Login delegates the password check to check()"
	var srv *api.Server
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Agent", map[string]any{"description": "study login", "prompt": "[[sub:fact]] Find out what Login does.",
			"subagent_type": "general-purpose", "run_in_background": background}),
		api.Say("The worker is done or on it."),
		api.Say("Lead done."),
	}}
	worker := &api.Script{Name: "worker", Marker: "[[sub:fact]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			if background {
				waitStep(t, srv, "lead", 1) // the lead has ended its turn: the fact comes after
			}
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{
				"command": `lucid fact "` + fact + `" -e src/auth.go:5`, "description": "record the fact"}}}}
		},
		api.Call("Bash", map[string]any{"command": "echo checked", "description": "one more step"}),
		api.Say("Recorded."),
	}}
	srv = api.New(lead, worker)
	defer srv.Close()
	res := e.claude(srv, "[[lead]] Study the login code with a worker.")

	// The entry is the subagent's: <session_id>/<agent_id>.
	session, agent := res.sessionID(), res.agentID("[[sub:fact]]")
	if session == "" || agent == "" {
		t.Fatalf("no session id (%q) or agent id (%q) in the client's output", session, agent)
	}
	entries := e.log()
	if len(entries) != 1 {
		t.Fatalf("want one log entry, got %d: %+v\ncalls:\n%s", len(entries), entries, e.callsText())
	}
	got := entries[0]
	if got.Kind != "fact" || got.Text != fact || got.Agent != session+"/"+agent {
		t.Errorf("entry = %s %q by %q; want fact %q by %q", got.Kind, got.Text, got.Agent, fact, session+"/"+agent)
	}
	if len(got.Evidence) != 1 || got.Evidence[0].Path != "src/auth.go" || got.Evidence[0].Line != 5 {
		t.Errorf("evidence = %+v, want src/auth.go:5", got.Evidence)
	}

	// The subagent started with the digest, and never saw its own entry.
	w := srv.Conversation("worker")
	if len(w) != 3 {
		t.Fatalf("the worker sent %d requests, want 3\n%s", len(w), srv.Dump())
	}
	only(t, api.HookContexts(w[0].Messages.Messages), "SubagentStart")
	for _, r := range w[1:] {
		if strings.Contains(r.Messages.AllText(), "new log entr") {
			t.Errorf("the worker's request at step %d shows it its own entry:\n%s", r.Step, r.Messages.AllText())
		}
	}

	// The lead's first request after the fact carries it, under the
	// delta's header, and no request carries it twice.
	var after []*api.Request
	for _, r := range srv.Conversation("lead") {
		if r.At.After(w[1].At) {
			after = append(after, r)
		} else if strings.Contains(r.Messages.AllText(), got.ID) {
			t.Errorf("the lead's request at step %d, before the fact, carries it", r.Step)
		}
	}
	if len(after) == 0 {
		t.Fatalf("the lead sent no request after the fact\n%s", srv.Dump())
	}
	var told []api.HookContext
	for _, c := range api.HookContexts(after[0].Messages.Tail()) {
		if strings.Contains(c.Text, got.ID) {
			told = append(told, c)
		}
	}
	if len(told) != 1 {
		t.Fatalf("the lead's first request after the fact (step %d) carries it %d times, want once\nrequests:\n%s\ncalls:\n%s",
			after[0].Step, len(told), srv.Dump(), e.callsText())
	}
	if !strings.Contains(told[0].Text, "lucid: 1 new log entry from other agents") || !strings.Contains(told[0].Text, fact) {
		t.Errorf("the lead's delta (%s) lacks the header or the text:\n%s", told[0].Hook, told[0].Text)
	}
	for _, r := range after[1:] {
		if n := strings.Count(r.Messages.AllText(), got.ID); n != 1 {
			t.Errorf("the lead's request at step %d carries the fact %d times, want it once, as before", r.Step, n)
		}
	}
}

// The lead edits the plan with Edit while a subagent works: the subagent's
// next request carries the change, as the user's latest intent.
func TestPlanEditReachesSubagent(t *testing.T) {
	e := newEnv(t)
	const newLine = "Ship the admin pages first; the login page waits."
	planPath := e.path(".lucid/plan.md")
	var srv *api.Server
	// leadAt and workerAt wait until that conversation has reached a step:
	// the two scripts take turns, so the subagent is running when the lead
	// edits the plan, and makes its next tool call only after.
	leadAt := func(step int) { waitStep(t, srv, "lead", step) }
	workerAt := func(step int) { waitStep(t, srv, "worker", step) }
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Agent", map[string]any{"description": "login page", "prompt": "[[sub:plan]] Work on the login page.", "subagent_type": "general-purpose"}),
		func(*api.MessagesRequest) api.Reply {
			workerAt(1)
			return api.Reply{Tools: []api.ToolCall{{Name: "Read", Input: map[string]any{"file_path": planPath}}}}
		},
		api.Call("Edit", map[string]any{"file_path": planPath, "old_string": "# Plan\n", "new_string": "# Plan\n\n" + newLine + "\n"}),
		api.Say("Plan changed."),
		api.Say("Lead done."),
	}}
	worker := &api.Script{Name: "worker", Marker: "[[sub:plan]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "echo start", "description": "start"}),
		func(*api.MessagesRequest) api.Reply {
			leadAt(3) // the lead's Edit is done, and its PostToolUse hook
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo next", "description": "next"}}}}
		},
		api.Say("Worker done."),
	}}
	srv = api.New(lead, worker)
	defer srv.Close()
	res := e.claude(srv, "[[lead]] Run a worker, then change the plan.")

	if plan := e.read(".lucid/plan.md"); !strings.Contains(plan, newLine) {
		t.Fatalf("the Edit did not reach plan.md:\n%s\n%s", plan, srv.Dump())
	}
	var plans []logEntry
	for _, en := range e.log() {
		if en.Kind == "plan" {
			plans = append(plans, en)
		}
	}
	if len(plans) != 1 || plans[0].Agent != res.sessionID() || !strings.Contains(plans[0].Diff, "+"+newLine) {
		t.Fatalf("want one plan entry by the lead %q with the diff, got %+v\ncalls:\n%s", res.sessionID(), plans, e.callsText())
	}
	w := srv.Conversation("worker")
	if len(w) < 3 {
		t.Fatalf("the worker sent %d requests, want 3\n%s", len(w), srv.Dump())
	}
	var seen []api.HookContext
	for _, c := range api.HookContexts(w[2].Messages.Tail()) {
		if strings.Contains(c.Text, plans[0].ID) {
			seen = append(seen, c)
		}
	}
	if len(seen) != 1 {
		t.Fatalf("the worker's request after the plan change carries it %d times, want once\n%s\ncalls:\n%s", len(seen), srv.Dump(), e.callsText())
	}
	for _, want := range []string{"The plan is the user's latest intent", "+" + newLine} {
		if !strings.Contains(seen[0].Text, want) {
			t.Errorf("the worker's delta lacks %q:\n%s", want, seen[0].Text)
		}
	}
	for _, r := range srv.Conversation("lead") {
		for _, c := range api.HookContexts(r.Messages.Tail()) {
			if strings.Contains(c.Text, plans[0].ID) {
				t.Errorf("the lead was told of its own plan change at step %d (%s)", r.Step, c.Hook)
			}
		}
	}
	for _, r := range w[:2] {
		if strings.Contains(r.Messages.AllText(), newLine) {
			t.Errorf("the worker saw the plan change at step %d, before it was made", r.Step)
		}
	}
}

// A subagent that wrote a file and logged nothing is asked once at
// SubagentStop, then stops.
func TestStopGateAsksOnce(t *testing.T) {
	e := newEnv(t)
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Agent", map[string]any{"description": "notes", "prompt": "[[sub:quiet]] Write the notes.", "subagent_type": "general-purpose", "run_in_background": false}),
		api.Say("Lead done."),
	}}
	worker := &api.Script{Name: "worker", Marker: "[[sub:quiet]]", Steps: []api.Step{
		api.Call("Write", map[string]any{"file_path": e.path("notes.md"), "content": "# Notes\n"}),
		api.Say("Worker done."),
		api.Say("Nothing worth recording."),
	}}
	srv := api.New(lead, worker)
	defer srv.Close()
	e.claude(srv, "[[lead]] Have a worker write notes.")

	if e.read("notes.md") != "# Notes\n" {
		t.Errorf("the worker's Write did not happen")
	}
	w := srv.Conversation("worker")
	if len(w) != 3 {
		t.Fatalf("the worker sent %d requests, want 3 (write, stop, the one asked-for report)\n%s\ncalls:\n%s", len(w), srv.Dump(), e.callsText())
	}
	const reason = "Before you stop: you edited files but recorded nothing"
	for i, r := range w {
		asked := strings.Contains(r.Messages.LastUserText(), reason)
		if asked != (i == 2) {
			t.Errorf("worker request %d carries the stop gate's reason: %v, want %v\nlast user message: %q", i, asked, i == 2, r.Messages.LastUserText())
		}
	}
	if n := len(e.log()); n != 0 {
		t.Errorf("the log has %d entries, want none", n)
	}
	// lucid blocked the first stop, and let the second (stop_hook_active) go.
	stops := e.hookCalls("SubagentStop")
	if len(stops) != 2 {
		t.Fatalf("SubagentStop ran %d times, want 2\n%s", len(stops), e.callsText())
	}
	if !strings.Contains(stops[0].Stdout, `"decision":"block"`) || stops[0].Payload["stop_hook_active"] != false {
		t.Errorf("first SubagentStop: stop_hook_active %v, output %q; want false and a block", stops[0].Payload["stop_hook_active"], stops[0].Stdout)
	}
	if stops[1].Stdout != "" || stops[1].Payload["stop_hook_active"] != true {
		t.Errorf("second SubagentStop: stop_hook_active %v, output %q; want true and nothing", stops[1].Payload["stop_hook_active"], stops[1].Stdout)
	}
}

// A tool call with nothing new adds no lucid text to the next request.
func TestNothingNewAddsNothing(t *testing.T) {
	e := newEnv(t)
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "echo one", "description": "one"}),
		api.Call("Write", map[string]any{"file_path": e.path("two.txt"), "content": "two\n"}),
		api.Say("Lead done."),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] Do two small things.")

	l := srv.Conversation("lead")
	if len(l) != 3 {
		t.Fatalf("the lead sent %d requests, want 3\n%s", len(l), srv.Dump())
	}
	for _, r := range l[1:] {
		if ctx := api.HookContexts(r.Messages.Tail()); len(ctx) > 0 {
			t.Errorf("request at step %d carries hook context: %+v", r.Step, ctx)
		}
		for _, m := range r.Messages.Tail() {
			if strings.Contains(m.Text(), "lucid") {
				t.Errorf("request at step %d carries lucid text: %q", r.Step, m.Text())
			}
		}
	}
	// The hooks did run, and said nothing.
	for _, ev := range []string{"PreToolUse", "PostToolUse"} {
		calls := e.hookCalls(ev)
		if len(calls) != 2 {
			t.Errorf("lucid hook %s ran %d times, want 2 (Bash, Write)\n%s", ev, len(calls), e.callsText())
		}
		for _, c := range calls {
			if c.Stdout != "" || c.Code != 0 {
				t.Errorf("lucid hook %s for %s: code %d, stdout %q; want 0 and nothing", ev, c.str("tool_name"), c.Code, c.Stdout)
			}
		}
	}
}

// only returns the one hook context of that hook, failing the test when
// there is none or more.
func only(t *testing.T, ctx []api.HookContext, hook string) api.HookContext {
	t.Helper()
	var found []api.HookContext
	for _, c := range ctx {
		if c.Hook == hook {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s hook context, got %d (all: %+v)", hook, len(found), ctx)
	}
	if !strings.Contains(found[0].Text, digestHeader) && (hook == "SessionStart" || hook == "SubagentStart") {
		t.Errorf("%s context is not lucid's digest:\n%s", hook, found[0].Text)
	}
	return found[0]
}

// waitStep waits, inside a scripted step, until the conversation has sent
// its request for the step; a script that never gets there fails the test
// after a while instead of hanging the client.
func waitStep(t *testing.T, srv *api.Server, conv string, step int) {
	ok := srv.Wait(2*time.Minute, func(reqs []*api.Request) bool {
		for _, r := range reqs {
			if r.Conversation == conv && r.Step >= step {
				return true
			}
		}
		return false
	})
	if !ok {
		t.Errorf("%s never reached step %d", conv, step)
	}
}

// Two lich sessions (LICH_SESSION_ID) edit one file in turn, in a
// repository lucid is set up in: the second one's model is told, before
// its edit, that the first edited the file, named as lucid names it and by
// its lich label, with both ways to reach it.
func TestLichSessionsMeet(t *testing.T) {
	// The two sessions overlap on one file: with leases, the second would
	// be stopped by the first's lease (TestAwareLease* try that).
	t.Setenv("LUCID_E2E_LEASES", "off")
	e := newEnv(t)
	if !strings.Contains(e.run("lucid", "help"), "statusline") {
		t.Skip("this lucid has no lich wiring yet (no `lucid statusline`)")
	}
	lich := e.path("../lich")
	e.write(lich, "#!/bin/sh\necho '[{\"id\":\"lich-one\",\"label\":\"alpha\",\"name\":\"alpha\",\"project\":\"p\",\"kind\":\"claude\",\"state\":\"idle\"}]'\n")
	if err := os.Chmod(lich, 0o755); err != nil {
		t.Fatal(err)
	}
	file := e.path("src/auth.go")
	var srv *api.Server
	// Session one stays at work until session two has edited: a session
	// that ended is editing nothing, and nobody is told of it.
	one := &api.Script{Name: "one", Marker: "[[one]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": file}),
		api.Call("Edit", map[string]any{"file_path": file, "old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitStep(t, srv, "two", 2) // two's Edit has run
			return api.Reply{Text: "One done."}
		},
	}}
	two := &api.Script{Name: "two", Marker: "[[two]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			waitStep(t, srv, "one", 2) // one's Edit has run
			return api.Reply{Tools: []api.ToolCall{{Name: "Read", Input: map[string]any{"file_path": file}}}}
		},
		api.Call("Edit", map[string]any{"file_path": file, "old_string": "func Login(", "new_string": "func LogIn("}),
		api.Say("Two done."),
	}}
	srv = api.New(one, two)
	defer srv.Close()
	oneErr := make(chan error, 1)
	go func() {
		_, err := e.claudeRun(srv, "[[one]] Document the package.", "LICH_SESSION_ID=lich-one", "LICH_BIN="+lich)
		oneErr <- err
	}()
	e.claude(srv, "[[two]] Rename Login.", "LICH_SESSION_ID=lich-two", "LICH_BIN="+lich)
	if err := <-oneErr; err != nil {
		t.Fatal(err)
	}

	if got := e.read("src/auth.go"); !strings.Contains(got, "// Package auth") || !strings.Contains(got, "func LogIn(") {
		t.Fatalf("the edits did not both land:\n%s", got)
	}
	var notes []api.HookContext
	for _, r := range srv.Conversation("two") {
		for _, c := range api.HookContexts(r.Messages.Tail()) {
			if strings.Contains(c.Text, "the lich session") {
				notes = append(notes, c)
			}
		}
	}
	if len(notes) != 1 || notes[0].Hook != "PreToolUse:Edit" {
		t.Fatalf("session two was told of session one's edit %d times, want once, before its Edit: %+v\n%s\ncalls:\n%s",
			len(notes), notes, srv.Dump(), e.callsText())
	}
	for _, want := range []string{"src/auth.go was changed since your last write of it by lead·", "(Claude Code, the lich session «alpha»)", "lucid ask ", "lich send"} {
		if !strings.Contains(notes[0].Text, want) {
			t.Errorf("the lich note lacks %q:\n%s", want, notes[0].Text)
		}
	}
	for _, r := range srv.Conversation("one") {
		if strings.Contains(r.Messages.AllText(), "the lich session") {
			t.Errorf("session one, which edited first, was given a lich note at step %d", r.Step)
		}
	}
}
