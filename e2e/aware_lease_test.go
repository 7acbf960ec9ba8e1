package e2e

// Leases with the real clients: with leases on (lucid init --leases on, a
// person's command), an agent's write takes a lease on the file until its
// turn ends; another session's agent is denied that file, asks for it with
// the command the denial gives, and gets it handed over.

import (
	"os"
	"strings"
	"sync"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// leasesOff turns leases (on by default) off for a scenario about edit
// awareness alone, whose agents of two sessions write one file; it skips
// the scenario when LUCID_E2E_LEASES turns leases on for the whole suite:
// there those agents are denied each other's files, rightly.
func leasesOff(t *testing.T) {
	t.Helper()
	switch strings.ToLower(os.Getenv("LUCID_E2E_LEASES")) {
	case "on", "1", "true":
		t.Skip("LUCID_E2E_LEASES turns leases on: this scenario is about edit awareness with leases off")
	}
	t.Setenv("LUCID_E2E_LEASES", "off")
}

// leasesOn skips a scenario of leases when LUCID_E2E_LEASES turns them
// off for the whole suite (LUCID_LEASES outweighs the repository's
// settings).
func leasesOn(t *testing.T) {
	t.Helper()
	switch strings.ToLower(os.Getenv("LUCID_E2E_LEASES")) {
	case "off", "0", "false":
		t.Skip("LUCID_E2E_LEASES turns leases off: this scenario is about leases on")
	}
}

// cut is the text of s from from up to to (from included, to not), "" when
// s lacks from.
func cut(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	got, _, _ := strings.Cut(rest, to)
	return from + got
}

// With leases on, as a person turns them on: a Codex agent (session X)
// patches src/auth.go and adds docs/x.md, and keeps working; a background
// subagent of a Claude Code session (W) then tries to edit src/auth.go and
// is denied, reading the lease and the command that asks for it; W runs
// that command; X's next request carries the request with the command
// that hands the lease over; X runs it; W's next Edit passes, and lucid
// claims lists the lease as W's. W's write of docs/x.md is denied while X
// works; once X's turn ends (no hand-over) the lease is gone and W's
// write passes.
func TestLeaseAskedAndHandedOver(t *testing.T) {
	leasesOn(t)
	e := newCodexLucid(t, true)
	if out := e.run("lucid", "init", "--leases", "on"); !strings.Contains(out, "leases on in .lucid/settings.json") {
		t.Fatalf("lucid init --leases on said:\n%s", out)
	}
	const because = "I must fix the login comment"
	auth, x := e.path("src/auth.go"), e.path("docs/x.md")
	var csrv *api.Server
	var srv *rs.Server
	var mu sync.Mutex
	// What the steps saw: the claims while X holds both leases, once W
	// holds src/auth.go, when X answers its stop gate, and once X's turn
	// is over; the commands the models ran, as lucid gave them.
	var whileX, handed, atXStop, afterX, asked, handOver string
	claudeAt := func(conv string, n int) func() bool {
		return func() bool { return len(csrv.Conversation(conv)) >= n }
	}
	claims := func() string {
		out, err := e.output("lucid", "claims")
		if err != nil {
			t.Errorf("lucid claims: %v", err)
		}
		return out
	}
	codexLead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-func Login(user, password string) error {\n+func LogIn(user, password string) error {\n" +
			"*** Add File: docs/x.md\n+x\n*** End Patch\n")),
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(func() bool { return e.logHas(because) }) // W has asked
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo working")}}
		},
		func(r *rs.ResponsesRequest) rs.Reply {
			mu.Lock()
			handOver = strings.TrimPrefix(cut(strings.Join(itemsOfRole(r.Tail(), "developer"), "\n"), "To hand it over: ", "\n"), "To hand it over: ")
			cmd := handOver
			mu.Unlock()
			if cmd == "" {
				cmd = "echo no request came"
			}
			return rs.Reply{Calls: []rs.Call{rs.Exec(cmd)}}
		},
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(claudeAt("w", 7)) // W's write of docs/x.md was denied
			return rs.Reply{Text: "Codex done."}
		},
		func(*rs.ResponsesRequest) rs.Reply { // the stop gate asks: X's turn is not over yet
			mu.Lock()
			atXStop = claims()
			mu.Unlock()
			return rs.Reply{Text: "Nothing worth recording."}
		},
	}}
	lead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Agent", map[string]any{"description": "fix login", "prompt": "[[sub:lease]] Fix the login comment, and write docs/x.md.",
			"subagent_type": "general-purpose", "run_in_background": true}),
		api.Say("The worker is on it."),
	}, Done: api.Say("Lead done.")}
	w := &api.Script{Name: "w", Marker: "[[sub:lease]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return len(srv.Conversation("lead")) >= 2 }) // X's patch has run
			return api.Reply{Tools: []api.ToolCall{{Name: "Read", Input: map[string]any{"file_path": auth}}}}
		},
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "// Login returns nil when the password matches.", "new_string": "// Login returns nil when the password is right."}),
		func(r *api.MessagesRequest) api.Reply {
			mu.Lock()
			whileX = claims()
			_, res, _ := lastResult(r)
			asked = cut(res.ResultText(), "lucid ask ", "`")
			cmd := strings.Replace(asked, "why you need it", because, 1)
			mu.Unlock()
			if cmd == "" {
				cmd = "echo the denial gave no lucid ask"
			}
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": cmd, "description": "ask for the file"}}}}
		},
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return e.logHas(`"kind": "handoff"`) })
			mu.Lock()
			handed = claims()
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Edit", Input: map[string]any{"file_path": auth,
				"old_string": "// Login returns nil when the password matches.", "new_string": "// Login returns nil when the password is right."}}}}
		},
		api.Call("Read", map[string]any{"file_path": x}),
		api.Call("Write", map[string]any{"file_path": x, "content": "x, by the worker\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return !strings.Contains(claims(), "docs/x.md") }) // X's turn is over
			mu.Lock()
			afterX = claims()
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Write", Input: map[string]any{"file_path": x, "content": "x, by the worker\n"}}}}
		},
		api.Say("Worker done."),
	}, Done: api.Say("Nothing worth recording.")}
	csrv, srv = api.New(lead, w), rs.New(codexLead)
	defer csrv.Close()
	defer srv.Close()
	e.config(srv, "")
	claudeRes := e.claudeBesideCodex(csrv, srv, "[[claude-lead]] Have a worker fix the login comment.", "[[codex-lead]] Rename Login, and start docs/x.md.")
	mu.Lock()
	defer mu.Unlock()

	reqs, ws := srv.Conversation("lead"), csrv.Conversation("w")
	if len(reqs) != 5 || len(ws) < 9 {
		t.Fatalf("the Codex agent sent %d requests (want 5), W %d (want 9 or more)\nCodex:\n%s\nClaude:\n%s\ncalls:\n%s",
			len(reqs), len(ws), srv.Dump(), csrv.Dump(), e.callsText())
	}
	codexSession, session, agent := reqs[0].Thread, claudeRes.sessionID(), claudeRes.agentID("[[sub:lease]]")
	if codexSession == "" || session == "" || agent == "" {
		t.Fatalf("no Codex session (%q), Claude session (%q) or W's id (%q)", codexSession, session, agent)
	}
	xLabel, wLabel, wID := clientLabel("codex", codexSession), "general-purpose·"+agent[:6], session+"/"+agent

	// While X works, lucid claims lists both files as its leases.
	for _, want := range []string{"src/auth.go: " + xLabel + " editing it (a lease, until its turn ends)", "docs/x.md: " + xLabel + " editing it (a lease, until its turn ends)"} {
		if !strings.Contains(whileX, want) {
			t.Errorf("lucid claims while X works lacks %q:\n%s", want, whileX)
		}
	}
	// W's Edit was denied with the lease and the command that asks for it.
	denied(t, ws[2], "Edit", "lucid: src/auth.go is being edited by "+xLabel+" (a lease on src/auth.go, taken by its write under a minute ago and held until its turn ends). "+
		"Do not edit it: wait until its turn ends, ask for it with `lucid ask "+codexSession+` --for-claim src/auth.go "why you need it"`+"` (it hands it over with `lucid release src/auth.go --to YOU`), or work on other files.")
	if want := "lucid ask " + codexSession + ` --for-claim src/auth.go "why you need it"`; asked != want {
		t.Errorf("W ran the ask %q, want the denial's %q", asked, want)
	}
	// X's next request carried the request, once, with the hand-over.
	n, where := codexTold(reqs, "asks you for your claim on src/auth.go")
	if n != 1 || where[0] != 2 || !strings.Contains(strings.Join(reqs[2].Responses.Developer(), "\n"), because) {
		t.Errorf("X was told of W's request %d times (in requests %v), want once, in its request after its next call (3rd), with why\n%s", n, where, srv.Dump())
	}
	if want := "lucid release src/auth.go --to " + wID; handOver != want {
		t.Errorf("X ran %q, want %q", handOver, want)
	}
	if out := lastOutput(reqs[3].Responses); !strings.Contains(out, "src/auth.go") {
		t.Errorf("X's hand-over printed: %q", out)
	}
	// The lease is W's now: its Edit passed, told once of the hand-over
	// and of X's change, and lucid claims lists it as W's.
	if !strings.Contains(handed, "src/auth.go: "+wLabel+" editing it (a lease") || !strings.Contains(handed, "docs/x.md: "+xLabel+" editing it (a lease") {
		t.Errorf("lucid claims after the hand-over, want src/auth.go W's (%s), docs/x.md still X's:\n%s", wLabel, handed)
	}
	if u, r, ok := lastResult(ws[4].Messages); !ok || u.Name != "Edit" || r.IsError {
		t.Errorf("W's Edit after the hand-over: %s %q (error %v)", u.Name, r.ResultText(), r.IsError)
	}
	if got := e.read("src/auth.go"); !strings.Contains(got, "func LogIn(") || !strings.Contains(got, "password is right") {
		t.Errorf("src/auth.go does not hold both X's and W's edits:\n%s", got)
	}
	for _, s := range []string{"handed you its claim on src/auth.go", "src/auth.go " + changedNote + xLabel + " (Codex CLI)"} {
		if k, ctx, steps := claudeTold(ws, s); k != 1 || steps[0] != 4 || ctx[0].Hook != "PreToolUse:Edit" {
			t.Errorf("W was told %q %d times (%+v at steps %v), want once, before its Edit after the hand-over (step 4)", s, k, ctx, steps)
		}
	}
	// docs/x.md: denied while X worked; X's turn over, the lease is gone
	// and W's Write passed.
	denied(t, ws[6], "Write", "lucid: docs/x.md is being edited by "+xLabel+" (a lease on docs/x.md")
	if !strings.Contains(atXStop, "docs/x.md: "+xLabel) {
		t.Errorf("lucid claims when X answered its stop gate, its turn not over, lacks its lease on docs/x.md:\n%s", atXStop)
	}
	if strings.Contains(afterX, xLabel) || !strings.Contains(afterX, "src/auth.go: "+wLabel) {
		t.Errorf("lucid claims once X's turn was over, want no lease of X's and W's on src/auth.go:\n%s", afterX)
	}
	if u, r, ok := lastResult(ws[7].Messages); !ok || u.Name != "Write" || r.IsError {
		t.Errorf("W's Write of docs/x.md after X's turn: %s %q (error %v)", u.Name, r.ResultText(), r.IsError)
	}
	if got := e.read("docs/x.md"); got != "x, by the worker\n" {
		t.Errorf("docs/x.md = %q, want W's", got)
	}
	// Every lease ended with its owner's turn.
	if out := e.run("lucid", "claims"); !strings.Contains(out, "no active claims") {
		t.Errorf("lucid claims after both runs:\n%s", out)
	}
}

// With leases on, the agents of one session are told, not denied: a
// Claude Code lead edits src/auth.go (its lease), and its background
// subagent W then edits it too, told that the lead is editing it under a
// lease, and takes a lease of its own. The lead's turn ends while W works:
// the lead's lease goes, W's stays, and a Codex agent (another session)
// is denied the file, naming W. Once W stops, its lease is gone and the
// Codex agent's patch passes.
func TestLeaseSameSessionTold(t *testing.T) {
	leasesOn(t)
	e := newCodexLucid(t, true)
	e.run("lucid", "init", "--leases", "on")
	auth := e.path("src/auth.go")
	var csrv *api.Server
	var srv *rs.Server
	var mu sync.Mutex
	var both, afterLead, afterW string // lucid claims at those moments
	claims := func() string {
		out, err := e.output("lucid", "claims")
		if err != nil {
			t.Errorf("lucid claims: %v", err)
		}
		return out
	}
	lead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}),
		api.Call("Agent", map[string]any{"description": "rename login", "prompt": "[[sub:same]] Rename Login.",
			"subagent_type": "general-purpose", "run_in_background": true}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return len(csrv.Conversation("w")) >= 3 }) // W's Edit has run
			mu.Lock()
			both = claims()
			mu.Unlock()
			return api.Reply{Text: "The worker goes on."}
		},
	}, Done: api.Say("Lead done.")}
	w := &api.Script{Name: "w", Marker: "[[sub:same]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "func Login(", "new_string": "func LogIn("}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return len(srv.Conversation("lead")) >= 2 }) // the Codex agent was denied
			return api.Reply{Text: "W done."}
		},
	}, Done: api.Say("Nothing worth recording.")}
	codexLead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(func() bool { return len(e.env.hookCalls("Stop")) >= 1 }) // the Claude lead's turn is over (lucid hook Stop, its client's)
			mu.Lock()
			afterLead = claims()
			mu.Unlock()
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-// Login returns nil when the password matches.\n+// Login checks the password.\n*** End Patch\n")}}
		},
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(func() bool { return !strings.Contains(claims(), "src/auth.go") }) // W has stopped
			mu.Lock()
			afterW = claims()
			mu.Unlock()
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-// Login returns nil when the password matches.\n+// Login checks the password.\n*** End Patch\n")}}
		},
		rs.Say("Codex done."),
	}, Done: rs.Say("Nothing worth recording.")}
	csrv, srv = api.New(lead, w), rs.New(codexLead)
	defer csrv.Close()
	defer srv.Close()
	e.config(srv, "")
	claudeRes := e.claudeBesideCodex(csrv, srv, "[[claude-lead]] Document auth, and have a worker rename Login.", "[[codex-lead]] Reword the login comment.")
	mu.Lock()
	defer mu.Unlock()

	ws, reqs := csrv.Conversation("w"), srv.Conversation("lead")
	if len(ws) < 3 || len(reqs) < 3 {
		t.Fatalf("W sent %d requests (want 3 or more), the Codex agent %d (want 3 or more)\nClaude:\n%s\nCodex:\n%s\ncalls:\n%s",
			len(ws), len(reqs), csrv.Dump(), srv.Dump(), e.callsText())
	}
	session, agent := claudeRes.sessionID(), claudeRes.agentID("[[sub:same]]")
	if session == "" || agent == "" {
		t.Fatalf("no session id (%q) or W's id (%q)", session, agent)
	}
	leadLabel, wLabel := "lead·"+session[:6], "general-purpose·"+agent[:6]

	// W was told, not denied, and its Edit landed.
	if u, r, ok := lastResult(ws[2].Messages); !ok || u.Name != "Edit" || r.IsError {
		t.Errorf("W's Edit of the file its lead leased: %s %q (error %v), want it applied", u.Name, r.ResultText(), r.IsError)
	}
	n, ctx, steps := claudeTold(ws, changedNote)
	if n != 1 || steps[0] != 2 || ctx[0].Hook != "PreToolUse:Edit" ||
		!strings.Contains(ctx[0].Text, "lucid: src/auth.go "+changedNote+leadLabel+" (Claude Code) under a minute ago, editing it under a lease.") ||
		!strings.Contains(ctx[0].Text, "`lucid ask "+session+" --for-claim src/auth.go") {
		t.Errorf("W was told %d times (%+v at steps %v), want once before its Edit that its lead is editing src/auth.go under a lease, with the ask for it", n, ctx, steps)
	}
	if !strings.Contains(both, "src/auth.go: "+leadLabel+" editing it (a lease") || !strings.Contains(both, "src/auth.go: "+wLabel+" editing it (a lease") {
		t.Errorf("lucid claims after both edits, want a lease of each:\n%s", both)
	}
	// The lead's turn ended: its lease went, W's stayed and denied the
	// Codex agent.
	if strings.Contains(afterLead, leadLabel) || !strings.Contains(afterLead, "src/auth.go: "+wLabel+" editing it (a lease") {
		t.Errorf("lucid claims once the lead's turn was over, want W's lease alone:\n%s", afterLead)
	}
	if out := lastOutput(reqs[1].Responses); !strings.Contains(out, "Command blocked by PreToolUse hook: lucid: src/auth.go is being edited by "+wLabel+" (a lease on src/auth.go") {
		t.Errorf("the Codex agent's patch while W holds its lease; its output:\n%s", out)
	}
	// W stopped: no lease left, and the Codex agent's patch passed.
	if strings.Contains(afterW, "src/auth.go") {
		t.Errorf("lucid claims once W stopped:\n%s", afterW)
	}
	if out := lastOutput(reqs[2].Responses); strings.Contains(out, "blocked") {
		t.Errorf("the Codex agent's patch once W stopped; its output:\n%s", out)
	}
	if got := e.read("src/auth.go"); !strings.Contains(got, "// Package auth logs users in.") || !strings.Contains(got, "func LogIn(") || !strings.Contains(got, "// Login checks the password.") {
		t.Errorf("src/auth.go does not hold the three edits:\n%s", got)
	}
}
