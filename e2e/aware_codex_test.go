package e2e

// Edit awareness across clients: a Claude Code lead and a Codex agent, at
// the same time, in one repository.

import (
	"strings"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// codexTold counts text in the developer messages Codex added to each
// request since the model's last output (where it puts a hook's
// additionalContext), and the requests where it came.
func codexTold(reqs []*rs.Request, text string) (n int, at []int) {
	for i, r := range reqs {
		for _, d := range itemsOfRole(r.Responses.Tail(), "developer") {
			if k := strings.Count(d, text); k > 0 {
				n += k
				at = append(at, i)
			}
		}
	}
	return n, at
}

// A Claude Code lead and a Codex agent work at once, on two files, one
// each way round:
//
//   - the Claude lead edits src/auth.go; the Codex agent then patches it
//     (apply_patch) and is told before its patch, once, that the Claude
//     lead changed it, as a developer message in its next request; the
//     Claude lead, at its next tool call, that the Codex agent is now
//     editing it, once;
//   - the Codex agent patches docs/m.md; the Claude lead then edits it and
//     is told before its Edit, once, naming the Codex agent "(Codex CLI)";
//     the Codex agent, at its next shell call, that the Claude lead is now
//     editing it, once.
//
// Each agent is at work, waiting in a scripted step, when the other
// writes after it; every edit lands.
func TestAwareClaudeAndCodex(t *testing.T) {
	leasesOff(t)
	e := newCodexLucid(t, true)
	auth, doc := e.path("src/auth.go"), e.path("docs/m.md")
	var csrv *api.Server
	var srv *rs.Server
	claudeAt := func(n int) func() bool { return func() bool { return len(csrv.Conversation("lead")) >= n } }
	codexAt := func(n int) func() bool { return func() bool { return len(srv.Conversation("lead")) >= n } }
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(codexAt(3)) // the Codex agent has patched both files
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo next", "description": "next"}}}}
		},
		api.Call("Read", map[string]any{"file_path": doc}),
		api.Call("Edit", map[string]any{"file_path": doc, "old_string": "moved here\n", "new_string": "moved here, and documented\n"}),
		api.Say("Claude done."),
	}}
	codexLead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(claudeAt(3)) // the Claude lead's Edit of src/auth.go has run
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-func Login(user, password string) error {\n+func LogIn(user, password string) error {\n*** End Patch\n")}}
		},
		rs.Calls(rs.ApplyPatch("*** Begin Patch\n*** Update File: docs/m.md\n@@\n-moved\n+moved here\n*** End Patch\n")),
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(claudeAt(6)) // the Claude lead's Edit of docs/m.md has run
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo next")}}
		},
		rs.Say("Codex done."),
	}, Done: rs.Say("Nothing worth recording.")}
	csrv, srv = api.New(claudeLead), rs.New(codexLead)
	defer csrv.Close()
	defer srv.Close()
	e.config(srv, "")
	claudeRes := e.claudeBesideCodex(csrv, srv, "[[claude-lead]] Touch up the auth code and the docs.", "[[codex-lead]] Rename Login, and move the docs.")

	creqs, reqs := csrv.Conversation("lead"), srv.Conversation("lead")
	if len(creqs) != 6 || len(reqs) < 4 {
		t.Fatalf("the Claude lead sent %d requests (want 6), the Codex agent %d (want 4 or more)\nClaude:\n%s\nCodex:\n%s\ncalls:\n%s",
			len(creqs), len(reqs), csrv.Dump(), srv.Dump(), e.callsText())
	}
	if got := e.read("src/auth.go"); !strings.Contains(got, "// Package auth logs users in.") || !strings.Contains(got, "func LogIn(") {
		t.Errorf("src/auth.go does not hold both edits:\n%s", got)
	}
	if got := e.read("docs/m.md"); got != "moved here, and documented\n" {
		t.Errorf("docs/m.md = %q, want both edits", got)
	}
	claudeSession, codexSession := claudeRes.sessionID(), reqs[0].Thread
	if claudeSession == "" || codexSession == "" {
		t.Fatalf("no Claude session (%q) or Codex session (%q)", claudeSession, codexSession)
	}
	claudeLabel, cxLabel := "lead·"+claudeSession[:6], clientLabel("codex", codexSession)

	// src/auth.go: the Codex agent is told, once, with its patch.
	n, where := codexTold(reqs, changedNote)
	if n != 1 || where[0] != 1 {
		t.Fatalf("the Codex agent was told of a change %d times (in requests %v), want once, in the request after its patch of src/auth.go (2nd)\n%s\ncalls:\n%s",
			n, where, srv.Dump(), e.callsText())
	}
	note := strings.Join(itemsOfRole(reqs[1].Responses.Tail(), "developer"), "\n")
	for _, want := range []string{
		"lucid: src/auth.go " + changedNote + claudeLabel + " (Claude Code) under a minute ago, holding no claim on it.",
		"`lucid ask " + claudeSession + " 'Are you still changing src/auth.go? I am about to edit it.'`",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("the Codex agent's note lacks %q:\n%s", want, note)
		}
	}
	// ... and the Claude lead, once, at its next tool call.
	k, ctx, steps := claudeTold(creqs, editingNote)
	if k != 1 || ctx[0].Hook != "PreToolUse:Bash" || steps[0] != 3 ||
		!strings.Contains(ctx[0].Text, "lucid: "+cxLabel+" (Codex CLI) is now editing src/auth.go, which you changed under a minute ago") {
		t.Errorf("the Claude lead was told %d times that another agent is editing its file (%+v at steps %v), want once that %s (Codex CLI) is editing src/auth.go, with its Bash (step 3)",
			k, ctx, steps, cxLabel)
	}

	// docs/m.md: the Claude lead is told, once, before its Edit.
	k, ctx, steps = claudeTold(creqs, changedNote)
	if k != 1 || ctx[0].Hook != "PreToolUse:Edit" || steps[0] != 5 ||
		!strings.Contains(ctx[0].Text, "lucid: docs/m.md "+changedNote+cxLabel+" (Codex CLI) under a minute ago, holding no claim on it.") ||
		!strings.Contains(ctx[0].Text, "`lucid ask "+codexSession+" 'Are you still changing docs/m.md? I am about to edit it.'`") {
		t.Errorf("the Claude lead was told of a change %d times (%+v at steps %v), want once that %s (Codex CLI) changed docs/m.md, before its Edit (step 5)",
			k, ctx, steps, cxLabel)
	}
	// ... and the Codex agent, once, at its next shell call.
	n, where = codexTold(reqs, editingNote)
	if n != 1 || where[0] != 3 {
		t.Fatalf("the Codex agent was told %d times (in requests %v) that another agent is editing its file, want once, in the request after its echo (4th)\n%s",
			n, where, srv.Dump())
	}
	if d := strings.Join(itemsOfRole(reqs[3].Responses.Tail(), "developer"), "\n"); !strings.Contains(d,
		"lucid: "+claudeLabel+" (Claude Code) is now editing docs/m.md, which you changed under a minute ago; it was told of your change.") {
		t.Errorf("the Codex agent's note lacks that the Claude lead is editing docs/m.md:\n%s", d)
	}

	// Nothing twice, nowhere else: all the Codex agent's last request
	// shows it, and all that the Claude lead's requests newly showed it.
	last := reqs[len(reqs)-1].Responses.AllText()
	for _, s := range []string{changedNote, editingNote} {
		if got := strings.Count(last, s); got != 1 {
			t.Errorf("the Codex agent's last request holds %q %d times, want once", s, got)
		}
		if got := claudeShown(creqs, s); got != 1 {
			t.Errorf("the Claude lead was shown %q %d times, want once", s, got)
		}
	}
}

// A Claude Code lead's shell writes count as its edits: a Codex agent
// patches src/auth.go and docs/m.md and keeps working; the lead then
// changes src/auth.go with sed -i (a write lucid's guard reads in the
// command: the lead is told before it runs, as PreToolUse:Bash context),
// and docs/m.md with a script lucid cannot see into (Claude Code's own
// list of what the command changed names it: the lead is told after it
// ran, as PostToolUse:Bash context, that its command changed the file
// after the Codex agent). The Codex agent is told at its next call, once
// for each file, that the lead is now editing it.
func TestAwareClaudeShellAfterCodex(t *testing.T) {
	leasesOff(t)
	e := newCodexLucid(t, true)
	e.write(e.path("gen.sh"), "echo generated >> docs/m.md\n")
	var csrv *api.Server
	var srv *rs.Server
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return len(srv.Conversation("lead")) >= 2 }) // the Codex agent's patch has run
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "sed -i 's/Login returns nil/Login gives nil/' src/auth.go", "description": "reword"}}}}
		},
		api.Call("Bash", map[string]any{"command": "sh ./gen.sh", "description": "generate the docs"}),
		api.Say("Claude done."),
	}}
	codexLead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.ApplyPatch("*** Begin Patch\n*** Update File: src/auth.go\n@@\n-func Login(user, password string) error {\n+func LogIn(user, password string) error {\n" +
			"*** Update File: docs/m.md\n@@\n-moved\n+moved here\n*** End Patch\n")),
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(func() bool { return len(csrv.Conversation("lead")) >= 3 }) // the lead's script has run
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo next")}}
		},
		rs.Say("Codex done."),
	}, Done: rs.Say("Nothing worth recording.")}
	csrv, srv = api.New(claudeLead), rs.New(codexLead)
	defer csrv.Close()
	defer srv.Close()
	e.config(srv, "")
	claudeRes := e.claudeBesideCodex(csrv, srv, "[[claude-lead]] Reword the auth comment and generate the docs.", "[[codex-lead]] Rename Login, and move the docs.")

	creqs, reqs := csrv.Conversation("lead"), srv.Conversation("lead")
	if len(creqs) != 3 || len(reqs) < 3 {
		t.Fatalf("the Claude lead sent %d requests (want 3), the Codex agent %d (want 3 or more)\nClaude:\n%s\nCodex:\n%s\ncalls:\n%s",
			len(creqs), len(reqs), csrv.Dump(), srv.Dump(), e.callsText())
	}
	if got := e.read("src/auth.go"); !strings.Contains(got, "func LogIn(") || !strings.Contains(got, "Login gives nil") {
		t.Errorf("src/auth.go does not hold both changes:\n%s", got)
	}
	if got := e.read("docs/m.md"); got != "moved here\ngenerated\n" {
		t.Errorf("docs/m.md = %q, want both changes", got)
	}
	claudeSession, codexSession := claudeRes.sessionID(), reqs[0].Thread
	claudeLabel, cxLabel := "lead·"+claudeSession[:6], clientLabel("codex", codexSession)

	n, ctx, steps := claudeTold(creqs, changedNote)
	if n != 2 {
		t.Fatalf("the Claude lead was told of a change %d times (%+v at steps %v), want twice: before its sed, after its script\n%s\ncalls:\n%s",
			n, ctx, steps, csrv.Dump(), e.callsText())
	}
	for i, c := range []struct{ hook, text string }{
		{"PreToolUse:Bash", "lucid: src/auth.go " + changedNote + cxLabel + " (Codex CLI) under a minute ago, holding no claim on it. That agent may still be at work on it: read the file again before you change it"},
		{"PostToolUse:Bash", "lucid: docs/m.md " + changedNote + cxLabel + " (Codex CLI) under a minute ago, holding no claim on it. That agent may still be at work on it: your command changed it after them; check that their change still holds"},
	} {
		if ctx[i].Hook != c.hook || steps[i] != i+1 || !strings.Contains(ctx[i].Text, c.text) {
			t.Errorf("the Claude lead's note %d came as %s at step %d:\n%s\nwant %s at step %d with %q", i+1, ctx[i].Hook, steps[i], ctx[i].Text, c.hook, i+1, c.text)
		}
	}
	for _, file := range []string{"src/auth.go", "docs/m.md"} {
		want := "lucid: " + claudeLabel + " (Claude Code) is now editing " + file + ", which you changed under a minute ago"
		if n, where := codexTold(reqs, want); n != 1 || where[0] != 2 {
			t.Errorf("the Codex agent was told %d times (in requests %v) %q, want once, in its request after its next call (3rd)\n%s", n, where, want, srv.Dump())
		}
	}
	if got := strings.Count(reqs[len(reqs)-1].Responses.AllText(), editingNote); got != 2 {
		t.Errorf("the Codex agent's last request holds %q %d times, want twice (once a file)", editingNote, got)
	}
}

// claudeBesideCodex runs the Claude Code lead of csrv, with claudePrompt,
// while the Codex agent of srv runs codexPrompt, and returns Claude Code's
// run once both ended: the two agents are at work at once.
func (e *codexEnvT) claudeBesideCodex(csrv *api.Server, srv *rs.Server, claudePrompt, codexPrompt string) result {
	e.t.Helper()
	var res result
	claudeErr := make(chan error, 1)
	go func() {
		var err error
		res, err = e.claudeRun(csrv, claudePrompt)
		claudeErr <- err
	}()
	e.codexExec(srv, codexPrompt)
	if err := <-claudeErr; err != nil {
		e.t.Fatal(err)
	}
	return res
}
