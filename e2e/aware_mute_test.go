package e2e

// Edit awareness where the client shows the model nothing from the hook
// before a tool (Qwen Code, opencode): the agent is told who changed the
// file with its tool's result instead, once; a Claude Code lead whose
// change it was is told, at its next tool call, that the agent is now
// editing its file; and the other way round.

import (
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// muteClient is what the scenario needs of a client that shows nothing
// before a tool: its tools, its run, and where a request shows lucid's
// words.
type muteClient struct {
	name, title string // as lucid labels its agents, and its title
	marker      string
	read        func(path string) cc.Step
	edit        func(path, old, new string) cc.Step
	write       func(path, content string) cc.Step
	shell       func(command string) cc.Step
	run         func(srv *cc.Server, prompt string) error
	session     func() string
	// told lists where the request's new messages hold text: the hook
	// whose context holds it ("PostToolUse", "UserPromptSubmit", ...).
	told func(r *cc.Request, text string) []string
}

// muteScenario: a Claude Code lead edits src/auth.go; the other client's
// agent, at work at the same time, then reads and edits it, and is told
// with its edit's result (the request after the edit), once, that the
// lead changed it; the lead, at its next tool call, that the agent is now
// editing its file, once. The other way round on a new file, docs/m.md:
// the agent writes it, the lead edits it and is told before its Edit,
// naming the agent's client; the agent is told, once, with its next tool,
// that the lead is now editing it. Every edit lands.
func muteScenario(t *testing.T, w *env, c muteClient) {
	t.Helper()
	auth, doc := w.path("src/auth.go"), w.path("docs/m.md")
	var csrv *api.Server
	var osrv *cc.Server
	claudeAt := func(n int) func() bool { return func() bool { return len(csrv.Conversation("lead")) >= n } }
	otherAt := func(n int) func() bool { return func() bool { return len(osrv.Conversation("lead")) >= n } }
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(otherAt(4)) // the agent edited src/auth.go and wrote docs/m.md
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo next", "description": "next"}}}}
		},
		api.Call("Read", map[string]any{"file_path": doc}),
		api.Call("Edit", map[string]any{"file_path": doc, "old_string": "m\n", "new_string": "m, and documented\n"}),
		api.Say("Claude done."),
	}}
	other := &cc.Script{Name: "lead", Marker: c.marker, Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			waitFor(claudeAt(3)) // the Claude lead's Edit of src/auth.go has run
			return c.read(auth)(nil)
		},
		c.edit(auth, "func Login(", "func LogIn("),
		c.write(doc, "m\n"),
		func(*cc.ChatRequest) cc.Reply {
			waitFor(claudeAt(6)) // the Claude lead's Edit of docs/m.md has run
			return c.shell("echo next")(nil)
		},
		cc.Say(c.name + " done."),
	}, Done: cc.Say("Nothing worth recording.")}
	csrv, osrv = api.New(claudeLead), cc.New(other)
	defer csrv.Close()
	defer osrv.Close()
	var claudeRes result
	claudeErr := make(chan error, 1)
	go func() {
		var err error
		claudeRes, err = w.claudeRun(csrv, "[[claude-lead]] Document the auth package and the docs.")
		claudeErr <- err
	}()
	oerr := c.run(osrv, c.marker+" Rename Login, and write the docs.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	if oerr != nil {
		t.Fatal(oerr)
	}

	creqs, reqs := csrv.Conversation("lead"), osrv.Conversation("lead")
	if len(creqs) != 6 || len(reqs) < 5 {
		t.Fatalf("the Claude lead sent %d requests (want 6), the %s agent %d (want 5 or more)\nClaude:\n%s\n%s:\n%s\ncalls:\n%s",
			len(creqs), c.name, len(reqs), csrv.Dump(), c.name, osrv.Dump(), w.callsText())
	}
	if got := w.read("src/auth.go"); !strings.Contains(got, "// Package auth logs users in.") || !strings.Contains(got, "func LogIn(") {
		t.Errorf("src/auth.go does not hold both edits:\n%s", got)
	}
	if got := w.read("docs/m.md"); got != "m, and documented\n" {
		t.Errorf("docs/m.md = %q, want both writes", got)
	}
	claudeSession, session := claudeRes.sessionID(), c.session()
	if claudeSession == "" || session == "" {
		t.Fatalf("no Claude session (%q) or %s session (%q)", claudeSession, c.name, session)
	}
	claudeLabel, label := "lead·"+claudeSession[:6], clientLabel(c.name, session)

	// where finds text in the agent's requests: in which (by index) and
	// by which hook.
	where := func(text string) (at []int, hooks []string) {
		for i, r := range reqs {
			for _, h := range c.told(r, text) {
				at, hooks = append(at, i), append(hooks, h)
			}
		}
		return at, hooks
	}
	// src/auth.go: the agent is told with its edit's result, once.
	at, hooks := where(changedNote)
	if len(at) != 1 || at[0] != 2 || hooks[0] != "PostToolUse" {
		t.Fatalf("the %s agent was told of a change %d times (requests %v, hooks %v), want once, with its edit's result (3rd request)\n%s\ncalls:\n%s",
			c.name, len(at), at, hooks, osrv.Dump(), w.callsText())
	}
	res, _ := reqs[2].Chat.LastToolResult()
	for _, want := range []string{
		"lucid: src/auth.go " + changedNote + claudeLabel + " (Claude Code) under a minute ago, holding no claim on it.",
		"`lucid ask " + claudeSession + " 'Are you still changing src/auth.go? I am about to edit it.'`",
	} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("the %s agent's edit result lacks %q:\n%s", c.name, want, res.Text())
		}
	}
	// ... and the Claude lead, at its next tool call, once.
	n, ctx, steps := claudeTold(creqs, editingNote)
	if n != 1 || ctx[0].Hook != "PreToolUse:Bash" || steps[0] != 3 ||
		!strings.Contains(ctx[0].Text, "lucid: "+label+" ("+c.title+") is now editing src/auth.go, which you changed under a minute ago; it was told of your change.") {
		t.Errorf("the Claude lead was told %d times that another agent is editing its file (%+v at steps %v), want once that %s (%s) is editing src/auth.go, with its Bash (step 3)",
			n, ctx, steps, label, c.title)
	}

	// docs/m.md: the Claude lead is told before its Edit, once.
	n, ctx, steps = claudeTold(creqs, changedNote)
	if n != 1 || ctx[0].Hook != "PreToolUse:Edit" || steps[0] != 5 ||
		!strings.Contains(ctx[0].Text, "lucid: docs/m.md "+changedNote+label+" ("+c.title+") under a minute ago, holding no claim on it.") {
		t.Errorf("the Claude lead was told of a change %d times (%+v at steps %v), want once that %s (%s) changed docs/m.md, before its Edit (step 5)",
			n, ctx, steps, label, c.title)
	}
	// ... and the agent, with its next tool, once.
	at, hooks = where(editingNote)
	if len(at) != 1 || at[0] != 4 {
		t.Errorf("the %s agent was told %d times that another agent is editing its file (requests %v, hooks %v), want once, with its next tool (5th request)\n%s\ncalls:\n%s",
			c.name, len(at), at, hooks, osrv.Dump(), w.callsText())
	} else if all := reqs[4].Chat.AllText(); !strings.Contains(all, "lucid: "+claudeLabel+" (Claude Code) is now editing docs/m.md, which you changed under a minute ago") {
		t.Errorf("the %s agent's request after its next tool lacks that the Claude lead is editing docs/m.md:\n%s", c.name, clip(all, 6000))
	} else {
		t.Logf("the %s agent heard that the lead is editing docs/m.md through %s", c.name, hooks[0])
	}

	// Nothing twice: all that the agent's last request shows it, and all
	// that the lead's requests newly showed it.
	last := reqs[len(reqs)-1].Chat.AllText()
	for _, s := range []string{changedNote, editingNote} {
		if got := strings.Count(last, s); got != 1 {
			t.Errorf("the %s agent's last request holds %q %d times, want once", c.name, s, got)
		}
		if got := claudeShown(creqs, s); got != 1 {
			t.Errorf("the Claude lead was shown %q %d times, want once", s, got)
		}
	}
}

// A Claude Code lead and a Qwen Code agent (which shows nothing from
// PreToolUse: the note comes with the tool's result, and Qwen puts that
// context at the end of the result's text).
func TestAwareQwenAndClaude(t *testing.T) {
	leasesOff(t)
	needClaude(t)
	w, c := qwenBesideClaude(t)
	muteScenario(t, w, c)
}

// qwenBesideClaude is a repository set up for Claude Code and Qwen Code,
// and the Qwen Code agent that works in it.
func qwenBesideClaude(t *testing.T) (*env, muteClient) {
	w := newQwenLucid(t)
	w.run("lucid", "init", "--client", "claude")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "claude")
	return w.env, muteClient{
		name: "qwen", title: "Qwen Code", marker: "[[qwen-lead]]",
		read: cc.ReadFile, edit: cc.EditFile, write: cc.WriteFile, shell: cc.Shell,
		run:     func(srv *cc.Server, prompt string) error { _, err := w.qwenRun(srv, prompt); return err },
		session: w.qwenSession,
		told: func(r *cc.Request, text string) []string {
			var out []string
			for _, c := range cc.QwenHookContexts(r.Chat.Tail()) {
				if strings.Contains(c.Text, text) {
					out = append(out, c.Hook)
				}
			}
			return out
		},
	}
}

// A Claude Code lead and an opencode agent: its plugin hands lucid's words
// to the model with the tool's result (tool.execute.after), and the news
// in the system prompt it rebuilds at each request.
func TestAwareOpencodeAndClaude(t *testing.T) {
	leasesOff(t)
	needClaude(t)
	needOpencode(t)
	w, c := opencodeBesideClaude(t)
	muteScenario(t, w, c)
}

// opencodeBesideClaude is a repository set up for Claude Code and
// opencode, and the opencode agent that works in it.
func opencodeBesideClaude(t *testing.T) (*env, muteClient) {
	w := withOpencode(t, newScratch(t, t.TempDir()))
	w.run("lucid", "init", "--client", "claude,opencode")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for claude and opencode")
	return w.env, muteClient{
		name: "opencode", title: "opencode", marker: "[[oc-lead]]",
		read: func(path string) cc.Step { return cc.CallTool("read", map[string]any{"filePath": path}) },
		edit: func(path, old, new string) cc.Step {
			return cc.CallTool("edit", map[string]any{"filePath": path, "oldString": old, "newString": new})
		},
		write: func(path, content string) cc.Step {
			return cc.CallTool("write", map[string]any{"filePath": path, "content": content})
		},
		shell: func(command string) cc.Step {
			return cc.CallTool("bash", map[string]any{"command": command, "description": "scripted command"})
		},
		run:     func(srv *cc.Server, prompt string) error { _, err := w.opencodeRun(srv, prompt); return err },
		session: func() string { return w.hookSession("opencode", "sessionID") },
		told: func(r *cc.Request, text string) []string {
			var out []string
			for _, m := range r.Chat.Tail() {
				if m.Role == "tool" && strings.Contains(m.Text(), text) {
					out = append(out, "PostToolUse")
				}
			}
			if strings.Contains(r.Chat.SystemText(), text) {
				out = append(out, "system")
			}
			return out
		},
	}
}
