package e2e

// Edit awareness where the client shows the model nothing from the hook
// before a tool (Qwen Code, opencode): the agent is told who changed the
// file with its tool's result instead, once; the Claude Code lead whose
// change it was is told, at its next tool call, that the agent is now
// editing its file.

import (
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/scripted/chatcompletions"
	api "github.com/lucid-dev/lucid/internal/scripted/messages"
)

// editThenWait is a Claude Code lead that reads and edits src/auth.go,
// then, once other says the other agent's edit ran, makes one more tool
// call (whose hook brings it news), and ends.
func editThenWait(auth string, other func() bool) *api.Script {
	return &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(other)
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo next", "description": "next"}}}}
		},
		api.Say("Claude done."),
	}}
}

// checkLeadTold checks that the Claude lead was told once, at its tool
// call after the other agent's edit (step 3), that label (title) is now
// editing src/auth.go, and nothing else of it.
func checkLeadTold(t *testing.T, creqs []*api.Request, label, title string) {
	t.Helper()
	n, ctx, steps := claudeTold(creqs, editingNote)
	if n != 1 || ctx[0].Hook != "PreToolUse:Bash" || steps[0] != 3 ||
		!strings.Contains(ctx[0].Text, "lucid: "+label+" ("+title+") is now editing src/auth.go, which you changed under a minute ago; it was told of your change.") {
		t.Errorf("the Claude lead was told %d times that another agent is editing its file (%+v at steps %v), want once that %s (%s) is, with its Bash (step 3)",
			n, ctx, steps, label, title)
	}
	if got := claudeShown(creqs, changedNote); got != 0 {
		t.Errorf("the Claude lead, which wrote first, was shown %q %d times", changedNote, got)
	}
}

// A Claude Code lead edits src/auth.go; a Qwen Code agent, at work at the
// same time, then reads and edits it: the note of the lead's change comes
// with the edit's result (Qwen shows nothing from PreToolUse), in the
// request after the edit, once; the lead is told at its next tool call
// that the Qwen agent is now editing its file, once.
func TestAwareQwenAfterClaude(t *testing.T) {
	leasesOff(t)
	needClaude(t)
	w := newQwenLucid(t)
	w.run("lucid", "init", "--client", "claude")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "claude")
	auth := w.path("src/auth.go")
	var csrv *api.Server
	var qsrv *cc.Server
	qwenLead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			waitFor(func() bool { return len(csrv.Conversation("lead")) >= 3 }) // the Claude lead's Edit has run
			return cc.ReadFile(auth)(nil)
		},
		cc.EditFile(auth, "func Login(", "func LogIn("),
		cc.Say("Qwen done."),
	}, Done: cc.Say("Nothing worth recording.")}
	csrv = api.New(editThenWait(auth, func() bool { return len(qsrv.Conversation("lead")) >= 3 }))
	qsrv = cc.New(qwenLead)
	defer csrv.Close()
	defer qsrv.Close()
	var claudeRes result
	claudeErr := make(chan error, 1)
	go func() {
		var err error
		claudeRes, err = w.claudeRun(csrv, "[[claude-lead]] Document the auth package.")
		claudeErr <- err
	}()
	_, qerr := w.qwenRun(qsrv, "[[qwen-lead]] Rename Login.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	if qerr != nil {
		t.Fatal(qerr)
	}

	creqs, reqs := csrv.Conversation("lead"), qsrv.Conversation("lead")
	if len(creqs) != 4 || len(reqs) < 3 {
		t.Fatalf("the Claude lead sent %d requests (want 4), the Qwen agent %d (want 3 or more)\nClaude:\n%s\nQwen:\n%s\ncalls:\n%s",
			len(creqs), len(reqs), csrv.Dump(), qsrv.Dump(), w.callsText())
	}
	if got := w.read("src/auth.go"); !strings.Contains(got, "// Package auth logs users in.") || !strings.Contains(got, "func LogIn(") {
		t.Errorf("src/auth.go does not hold both edits:\n%s", got)
	}
	claudeSession, qwenSession := claudeRes.sessionID(), w.qwenSession()
	if claudeSession == "" || qwenSession == "" {
		t.Fatalf("no Claude session (%q) or Qwen session (%q) in lucid's calls", claudeSession, qwenSession)
	}

	// The Qwen agent: with the edit's result, once.
	var told []cc.HookContext
	var at []int
	for i, r := range reqs {
		for _, c := range cc.QwenHookContexts(r.Chat.Tail()) {
			if strings.Contains(c.Text, changedNote) {
				told, at = append(told, c), append(at, i)
			}
		}
	}
	if len(told) != 1 || at[0] != 2 || told[0].Hook != "PostToolUse" {
		t.Fatalf("the Qwen agent was told of the lead's change %d times (%+v in requests %v), want once, with its edit's result (3rd request)\n%s\ncalls:\n%s",
			len(told), told, at, qsrv.Dump(), w.callsText())
	}
	if res, _ := reqs[2].Chat.LastToolResult(); !strings.Contains(res.Text(), changedNote) {
		t.Errorf("the note is not in the edit's result: %q", res.Text())
	}
	for _, want := range []string{
		"lucid: src/auth.go " + changedNote + "lead·" + claudeSession[:6] + " (Claude Code) under a minute ago, holding no claim on it.",
		"`lucid ask " + claudeSession + " 'Are you still changing src/auth.go? I am about to edit it.'`",
	} {
		if !strings.Contains(told[0].Text, want) {
			t.Errorf("the Qwen agent's note lacks %q:\n%s", want, told[0].Text)
		}
	}
	if got := strings.Count(reqs[len(reqs)-1].Chat.AllText(), changedNote); got != 1 {
		t.Errorf("the Qwen agent's last request holds the note %d times, want once", got)
	}
	checkLeadTold(t, creqs, clientLabel("qwen", qwenSession), "Qwen Code")
}

// The same with opencode: its plugin hands lucid's note to the model with
// the edit's result (tool.execute.after), once, never in the system
// prompt it rebuilds at each request; the lead is told that the opencode
// agent is now editing its file, once.
func TestAwareOpencodeAfterClaude(t *testing.T) {
	leasesOff(t)
	needClaude(t)
	needOpencode(t)
	w := withOpencode(t, newScratch(t, t.TempDir()))
	w.run("lucid", "init", "--client", "claude,opencode")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for claude and opencode")
	auth := w.path("src/auth.go")
	var csrv *api.Server
	var osrv *cc.Server
	ocLead := &cc.Script{Name: "lead", Marker: "[[oc-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			waitFor(func() bool { return len(csrv.Conversation("lead")) >= 3 }) // the Claude lead's Edit has run
			return cc.CallTool("read", map[string]any{"filePath": auth})(nil)
		},
		cc.CallTool("edit", map[string]any{"filePath": auth, "oldString": "func Login(", "newString": "func LogIn("}),
		cc.Say("opencode done."),
	}, Done: cc.Say("Nothing worth recording.")}
	csrv = api.New(editThenWait(auth, func() bool { return len(osrv.Conversation("lead")) >= 3 }))
	osrv = cc.New(ocLead)
	defer csrv.Close()
	defer osrv.Close()
	var claudeRes result
	claudeErr := make(chan error, 1)
	go func() {
		var err error
		claudeRes, err = w.claudeRun(csrv, "[[claude-lead]] Document the auth package.")
		claudeErr <- err
	}()
	_, oerr := w.opencodeRun(osrv, "[[oc-lead]] Rename Login.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	if oerr != nil {
		t.Fatal(oerr)
	}

	creqs, reqs := csrv.Conversation("lead"), osrv.Conversation("lead")
	if len(creqs) != 4 || len(reqs) < 3 {
		t.Fatalf("the Claude lead sent %d requests (want 4), the opencode agent %d (want 3 or more)\nClaude:\n%s\nopencode:\n%s\ncalls:\n%s",
			len(creqs), len(reqs), csrv.Dump(), osrv.Dump(), w.callsText())
	}
	if got := w.read("src/auth.go"); !strings.Contains(got, "// Package auth logs users in.") || !strings.Contains(got, "func LogIn(") {
		t.Errorf("src/auth.go does not hold both edits:\n%s", got)
	}
	claudeSession, ocSession := claudeRes.sessionID(), w.hookSession("opencode", "sessionID")
	if claudeSession == "" || ocSession == "" {
		t.Fatalf("no Claude session (%q) or opencode session (%q) in lucid's calls", claudeSession, ocSession)
	}

	// The opencode agent: with the edit's result, once; in no system
	// prompt.
	var at []int
	for i, r := range reqs {
		for _, m := range r.Chat.Tail() {
			if m.Role == "tool" && strings.Contains(m.Text(), changedNote) {
				at = append(at, i)
			}
		}
		if strings.Contains(r.Chat.SystemText(), changedNote) {
			t.Errorf("opencode request %d carries the note in its system prompt", i+1)
		}
	}
	if len(at) != 1 || at[0] != 2 {
		t.Fatalf("the opencode agent was told of the lead's change with %d tool results (requests %v), want once, with its edit's result (3rd request)\n%s\ncalls:\n%s",
			len(at), at, osrv.Dump(), w.callsText())
	}
	res, _ := reqs[2].Chat.LastToolResult()
	for _, want := range []string{
		"lucid: src/auth.go " + changedNote + "lead·" + claudeSession[:6] + " (Claude Code) under a minute ago, holding no claim on it.",
		"`lucid ask " + claudeSession + " 'Are you still changing src/auth.go? I am about to edit it.'`",
	} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("the opencode agent's note lacks %q:\n%s", want, res.Text())
		}
	}
	if got := strings.Count(reqs[len(reqs)-1].Chat.AllText(), changedNote); got != 1 {
		t.Errorf("the opencode agent's last request holds the note %d times, want once", got)
	}
	checkLeadTold(t, creqs, clientLabel("opencode", ocSession), "opencode")
}
