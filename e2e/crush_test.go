package e2e

// The Crush scenarios of what reaches its model and what leaves it: the
// digest, another agent's fact, the Crush agent's own fact beside a
// Claude Code lead, and lucid uninstall after a real run.

import (
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// Crush has no start event: the digest reaches the model with the result
// of the first call its hook is called for (a view before it is none of
// lucid's and carries nothing), and only then. Another agent's fact,
// recorded after that, reaches the model once, with the result of the
// next hooked call, and stays once.
func TestCrushDigestThenFactOnce(t *testing.T) {
	w := newCrushLucid(t)
	w.run("lucid", "decision", "crush-e2e: parse with the new API")
	const fact = "crush-e2e: the API keeps v1 routes"
	lead := &cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
		cc.CallTool("view", map[string]any{"file_path": w.path("notes.txt")}),
		crushBash("echo first"),
		func(*cc.ChatRequest) cc.Reply {
			if _, err := w.lucidAs(otherAgent, "fact", fact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			return cc.Reply{Calls: []cc.Call{{Name: "write", Args: map[string]any{"file_path": w.path("docs/notes.md"), "content": "notes\n"}}}}
		},
		crushBash("echo next"),
		cc.Say("Crush done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.crush(srv, "[[crush-lead]] Write the notes.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 5 {
		t.Fatalf("want 5 Crush requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if res, _ := reqs[1].Chat.LastToolResult(); strings.Contains(res.Text(), digestHeader) {
		t.Errorf("the view's result, which no hook of lucid's saw, carries the digest:\n%s", res.Text())
	}
	res, _ := reqs[2].Chat.LastToolResult()
	if strings.Count(res.Text(), digestHeader) != 1 || !strings.Contains(res.Text(), "parse with the new API") {
		t.Errorf("the first hooked call's result does not carry the digest once, with the decision:\n%s", res.Text())
	}
	if res, _ := reqs[3].Chat.LastToolResult(); strings.Count(res.Text(), fact) != 1 {
		t.Errorf("the write's result does not carry the other agent's fact once:\n%s", res.Text())
	}
	all := reqs[4].Chat.AllText()
	if n := strings.Count(all, digestHeader); n != 1 {
		t.Errorf("the last request holds the digest %d times, want once", n)
	}
	if n := strings.Count(all, fact); n != 1 {
		t.Errorf("the last request holds the fact %d times, want once:\n%s", n, clip(all, 6000))
	}
	if w.read("docs/notes.md") != "notes\n" {
		t.Error("the write did not go through")
	}
}

// Beside a Claude Code lead at work, the Crush agent records a fact with
// `lucid fact` in its bash tool: the entry is signed with its session's
// id (the hook's stamp on the command), and reaches the Claude lead
// once, at its next tool call.
func TestCrushFactReachesClaude(t *testing.T) {
	e := newEnv(t)
	e.write(e.path("notes.txt"), "hello world\n")
	w := withCrush(t, e)
	const crushFact = "crush-e2e: notes.txt says hello"
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "echo starting", "description": "start"}),
		func(*api.MessagesRequest) api.Reply {
			awaitOther(func() bool { return logHolds(e, crushFact) })
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo looking", "description": "look"}}}}
		},
		api.Say("Claude done."),
	}}
	csrv := api.New(claudeLead)
	defer csrv.Close()
	claudeErr := make(chan error, 1)
	go func() {
		_, err := e.claudeRun(csrv, "[[claude-lead]] Look around.")
		claudeErr <- err
	}()
	lead := &cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			// Once the Claude lead has had its digest, so that the fact
			// reaches it as news.
			awaitOther(func() bool { return len(csrv.Requests()) >= 2 })
			return cc.Reply{Calls: []cc.Call{{Name: "bash", Args: map[string]any{"command": "lucid fact '" + crushFact + "'", "description": "record"}}}}
		},
		cc.Say("Crush done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.crush(srv, "[[crush-lead]] Record what the notes say.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	session := w.hookSession("crush", "session_id")
	if session == "" {
		t.Fatalf("no hook of Crush's named its session:\n%s", w.callsText())
	}
	var signed bool
	for _, en := range w.log() {
		if en.Text == crushFact {
			signed = en.Agent == session
			if !signed {
				t.Errorf("the Crush agent's fact is signed %q, want its session %q", en.Agent, session)
			}
		}
	}
	if !signed && !t.Failed() {
		t.Fatalf("the Crush agent's fact is not in the log:\n%s", w.callsText())
	}
	if log := w.run("lucid", "log"); !strings.Contains(log, "«"+crushFact+"» (crush·") {
		t.Errorf("lucid log does not label the fact crush·…:\n%s", log)
	}
	claudeReqs := csrv.Conversation("lead")
	final := claudeReqs[len(claudeReqs)-1]
	var heard int
	for _, c := range api.HookContexts(final.Messages.Messages) {
		heard += strings.Count(c.Text, crushFact)
	}
	if heard != 1 {
		t.Errorf("the Claude lead heard the Crush fact %d times, want once\n%s", heard, csrv.Dump())
	}
}

// crushUserSettings is a project's crush.json before lucid: formatted as
// its user keeps it, with a hook of the user's own.
const crushUserSettings = `{
  "$schema": "https://charm.land/crush.json",
  "options": {
    "debug": false
  },
  "hooks": {
    "PreToolUse": [
      {"name": "mine", "matcher": "^bash$", "command": "true", "timeout": 5}
    ]
  }
}
`

// lucid uninstall gives crush.json back byte for byte after the real
// Crush ran with lucid's entry beside the user's own hook, and leaves
// what Crush made of its own (.crush/) alone.
func TestCrushUninstallByteExact(t *testing.T) {
	needCrush(t)
	e := newScratch(t, t.TempDir())
	e.write(e.path("crush.json"), crushUserSettings)
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "the user's crush.json")
	w := withCrush(t, e)
	if !strings.Contains(w.read("crush.json"), "lucid hook --client crush PreToolUse") {
		t.Fatalf("lucid init wrote no entry:\n%s", w.read("crush.json"))
	}
	lead := &cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
		crushBash("echo ran > ran.txt"),
		cc.Say("Crush done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.crush(srv, "[[crush-lead]] Run it.")
	if w.hookSession("crush", "session_id") == "" {
		t.Fatalf("Crush ran none of lucid's hooks:\n%s", w.callsText())
	}
	crushOwn := snapshotTree(t, w.path(".crush"))
	w.run("lucid", "uninstall")
	if got := w.read("crush.json"); got != crushUserSettings {
		t.Errorf("crush.json after uninstall:\n%s\nbefore init:\n%s", got, crushUserSettings)
	}
	if got := snapshotTree(t, w.path(".crush")); got != crushOwn {
		t.Errorf("uninstall changed Crush's own .crush/:\n%s\nwas:\n%s", got, crushOwn)
	}
}
