package e2e

// What the real clients showed of edit awareness that the first build of
// it got wrong, each now a scenario of its own: a client that shows
// nothing before a tool heard of one change twice in one answer, and was
// told its refused edit came on top of another's; and a git path form over
// the whole work tree was refused as a write of lucid's state.

import (
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// An agent is told once of one change, in one answer, where its client
// shows nothing before a tool (Qwen Code, opencode): once, it was told
// twice over.
//
// The agent edits src/auth.go; a Claude Code lead then edits it (and is
// told the agent changed it); the agent reads it again and edits it again.
// Its second edit's result says that the lead changed the file, and not
// also that the lead "is now editing" it: the same answer says that
// already, as a Claude Code agent in the same place is told.
func TestAwareMuteClientToldOnceInOneAnswer(t *testing.T) {
	leasesOff(t)
	needClaude(t)
	t.Run("qwen", func(t *testing.T) {
		w, c := qwenBesideClaude(t)
		toldTwice(t, w, c)
	})
	t.Run("opencode", func(t *testing.T) {
		needOpencode(t)
		w, c := opencodeBesideClaude(t)
		toldTwice(t, w, c)
	})
}

// toldTwice runs the scenario of TestAwareMuteClientToldOnceInOneAnswer
// with client c. The agent reads the file again and edits it in one turn
// (two tool calls in one reply), once the Claude lead's Edit has run: both
// clients refuse an edit of a file changed since they read it, and Qwen
// Code runs UserPromptSubmit before each model call, where lucid would
// give what came before the call. Between the two calls no hook of lucid's
// runs (it hooks no read).
func toldTwice(t *testing.T, w *env, c muteClient) {
	auth := w.path("src/auth.go")
	var csrv *api.Server
	var osrv *cc.Server
	claudeAt := func(n int) func() bool { return func() bool { return len(csrv.Conversation("lead")) >= n } }
	otherAt := func(n int) func() bool { return func() bool { return len(osrv.Conversation("lead")) >= n } }
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			waitFor(otherAt(3)) // the agent's first edit has run
			return api.Reply{Tools: []api.ToolCall{{Name: "Read", Input: map[string]any{"file_path": auth}}}}
		},
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(otherAt(4)) // the agent's second edit has run
			return api.Reply{Text: "Claude done."}
		},
	}}
	other := &cc.Script{Name: "lead", Marker: c.marker, Steps: []cc.Step{
		c.read(auth),
		c.edit(auth, "func Login(", "func LogIn("),
		func(*cc.ChatRequest) cc.Reply {
			waitFor(claudeAt(3)) // the Claude lead's Edit has run
			return cc.Reply{Calls: append(c.read(auth)(nil).Calls, c.edit(auth, "func LogIn(", "func SignIn(")(nil).Calls...)}
		},
		cc.Say(c.name + " done."),
	}, Done: cc.Say("Nothing worth recording.")}
	csrv, osrv = api.New(claudeLead), cc.New(other)
	defer csrv.Close()
	defer osrv.Close()
	claudeErr := make(chan error, 1)
	go func() {
		_, err := w.claudeRun(csrv, "[[claude-lead]] Document the auth package.")
		claudeErr <- err
	}()
	oerr := c.run(osrv, c.marker+" Rename Login twice.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	if oerr != nil {
		t.Fatal(oerr)
	}
	reqs := osrv.Conversation("lead")
	if len(reqs) < 4 {
		t.Fatalf("the %s agent sent %d requests, want 4 or more\n%s\ncalls:\n%s", c.name, len(reqs), osrv.Dump(), w.callsText())
	}
	if got := w.read("src/auth.go"); !strings.Contains(got, "// Package auth logs users in.") || !strings.Contains(got, "func SignIn(") {
		t.Fatalf("src/auth.go does not hold the three edits:\n%s", got)
	}
	res, _ := reqs[3].Chat.LastToolResult()
	if !strings.Contains(res.Text(), "lucid: src/auth.go "+changedNote+"lead·") {
		t.Fatalf("the %s agent's second edit's result does not say the Claude lead changed the file:\n%s\ncalls:\n%s", c.name, res.Text(), w.callsText())
	}
	if strings.Contains(res.Text(), editingNote) {
		t.Errorf("the %s agent's second edit's result tells it, besides that the Claude lead changed src/auth.go since its last write, that the lead %q it: "+
			"one change told twice in one answer, where the same answer already says that agent changed the file:\n%s", c.name, editingNote, res.Text())
	}
	last := reqs[len(reqs)-1].Chat.AllText()
	if n := strings.Count(last, changedNote); n != 1 {
		t.Errorf("the %s agent's last request holds %q %d times, want once", c.name, changedNote, n)
	}
}

// An agent whose edit its client refused is not told its edit changed the
// file, where the client shows nothing before a tool (here Qwen Code):
// once, it was.
//
// The Qwen agent reads src/auth.go; a Claude Code lead edits it; the Qwen
// agent then edits it on its old read. Qwen Code refuses that edit itself
// ("... has not been read in this session. Use the read_file tool first
// ...", a failed call: no PostToolUse), after lucid's PreToolUse ran, which
// recorded the write and left the agent its note, given with the next hook
// that carries news (UserPromptSubmit, before the next model call). Its
// words hold whether or not the write went in ("where your change went
// in"), never that its change came on top of the lead's. (The marker still
// names the Qwen agent as the file's last writer, and with leases on the
// refused edit holds a lease until its turn ends: lucid cannot tell a
// write its client refused after the hook.)
func TestAwareRefusedEditNotToldItChangedTheFile(t *testing.T) {
	leasesOff(t)
	needClaude(t)
	w := newQwenLucid(t)
	w.run("lucid", "init", "--client", "claude")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "claude")
	auth := w.path("src/auth.go")
	var csrv *api.Server
	var qsrv *cc.Server
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return len(qsrv.Conversation("lead")) >= 2 }) // the Qwen agent has read the file
			return api.Reply{Tools: []api.ToolCall{{Name: "Read", Input: map[string]any{"file_path": auth}}}}
		},
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return len(qsrv.Conversation("lead")) >= 3 }) // the Qwen agent's edit was tried
			return api.Reply{Text: "Claude done."}
		},
	}}
	qwenLead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		cc.ReadFile(auth),
		func(*cc.ChatRequest) cc.Reply {
			waitFor(func() bool { return len(csrv.Conversation("lead")) >= 3 }) // the Claude lead's Edit has run
			return cc.EditFile(auth, "func Login(", "func LogIn(")(nil)
		},
		cc.Say("Qwen done."),
	}, Done: cc.Say("Nothing worth recording.")}
	csrv, qsrv = api.New(claudeLead), cc.New(qwenLead)
	defer csrv.Close()
	defer qsrv.Close()
	claudeErr := make(chan error, 1)
	go func() {
		_, err := w.claudeRun(csrv, "[[claude-lead]] Document the auth package.")
		claudeErr <- err
	}()
	_, qerr := w.qwenRun(qsrv, "[[qwen-lead]] Rename Login.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	if qerr != nil {
		t.Fatal(qerr)
	}
	reqs := qsrv.Conversation("lead")
	if len(reqs) < 3 {
		t.Fatalf("the Qwen agent sent %d requests, want 3 or more\n%s", len(reqs), qsrv.Dump())
	}
	res, _ := reqs[2].Chat.LastToolResult()
	if got := w.read("src/auth.go"); strings.Contains(got, "LogIn") || !strings.Contains(res.Text(), "has not been read in this session") {
		t.Skipf("Qwen Code did not refuse the edit on the old read (result %q), so this scenario shows nothing:\n%s", res.Text(), got)
	}
	var said []string
	for _, r := range reqs[2:] {
		for _, c := range cc.QwenHookContexts(r.Chat.Tail()) {
			if strings.Contains(c.Text, "your command changed it after them") {
				said = append(said, c.Hook+": "+c.Text)
			}
		}
	}
	if len(said) > 0 {
		t.Errorf("the Qwen agent, whose edit Qwen Code refused (%q) and which changed nothing, was told its change came on top of the lead's:\n%s",
			clip(res.Text(), 120), strings.Join(said, "\n"))
	}
}

// The guard, not edit awareness (found while trying how leases meet git's
// whole-tree commands): an agent's `git checkout -- .` or `git restore .`
// at the top of the work tree was denied as a write of lucid's own state,
// which neither command touches; now it runs.
//
// A Claude Code lead edits src/auth.go, then runs `git restore .` to
// undo it, in a repository whose log is committed. lucid answers its
// PreToolUse:
//
//	lucid: <work tree> holds lucid's shared state (claims, agents' records and cursors, the lock): no agent writes it by hand, since that ends, moves or forges other agents' claims and records. Change it with lucid's commands (lucid claim, lucid release).
//
// `git stash`, `git reset --hard` and `git checkout -- src` pass in the
// same repository. The shell analysis reads the pathspec "." as the work
// tree's top written as a whole folder (tree), and hooks/claims.go's
// stateWritten takes any folder written whole that holds a repository's
// state (its .git) for a removal of that state, as `rm -rf .git` would be;
// git restores the tracked files the pathspec names, and never its own
// git dir. Expected: the command runs (as git asks what it would change,
// it may be refused for another agent's claimed file, or for the log's
// unsaved lines, with those reasons), and the edit is undone.
func TestRestoreDotIsNoWriteOfLucidState(t *testing.T) {
	e := newEnv(t)
	auth := e.path("src/auth.go") // committed, with the log, by newEnv
	before := e.read("src/auth.go")
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "func Login(", "new_string": "func LogIn("}),
		api.Call("Bash", map[string]any{"command": "git restore .", "description": "undo my change"}),
		api.Say("Lead done."),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] Try a rename, then undo it.")
	l := srv.Conversation("lead")
	if len(l) != 4 {
		t.Fatalf("the lead sent %d requests, want 4\n%s", len(l), srv.Dump())
	}
	if u, r, _ := lastResult(l[3].Messages); r.IsError {
		t.Errorf("the lead's %s of `git restore .` was refused: %q", u.Name, r.ResultText())
	}
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go was not restored:\n%s", got)
	}
}
