package e2e

// The Qwen Code scenarios: the real `qwen` binary with lucid's own hooks
// (`lucid hook --client qwen EVENT` in .qwen/settings.json), beside the
// real `claude`, against the scripted models.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// qwenSession is the Qwen session that ran the hooks, as lucid's calls
// name it.
func (w *qwenWorld) qwenSession() string { return w.hookSession("qwen", "session_id") }

// The digest reaches the model at the start, in the system message, once;
// another agent's fact recorded mid-turn reaches it exactly once, although
// Qwen runs UserPromptSubmit before every model call, and the reminder of
// the plan goes with the user's prompt alone; an agent that edited and
// recorded nothing is asked once at its Stop; its claims end there.
func TestQwenDigestNewsOnceAndGate(t *testing.T) {
	w := newQwenLucid(t)
	w.claimAs(otherAgent, "src/**", "rework auth")
	const fact = "qwen-e2e: the API keeps v1 routes"
	lead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		cc.Shell("lucid claim 'docs/**' --for 'write docs'"),
		func(*cc.ChatRequest) cc.Reply {
			if _, err := w.lucidAs(otherAgent, "fact", fact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			return cc.Reply{Calls: []cc.Call{{Name: "write_file", Args: map[string]any{"file_path": w.path("docs/notes.md"), "content": "notes\n"}}}}
		},
		cc.ReadFile(w.path("notes.txt")),
		cc.Say("Done."),
		cc.Say("Done, nothing to record."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.qwen(srv, "[[qwen-lead]] Write the docs.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 5 {
		t.Fatalf("want 5 requests (the gate asks once), got %d\n%s", len(reqs), srv.Dump())
	}
	if got := qwenContexts(reqs[0], "SessionStart"); countIn(got, digestHeader) != 1 {
		t.Fatalf("the first request does not carry the digest once:\n%s", strings.Join(got, "\n---\n"))
	}
	last := reqs[len(reqs)-1].Chat
	all := last.AllText()
	for _, tc := range []struct {
		text string
		want int
	}{{digestHeader, 1}, {fact, 1}, {"other agents hold active claims", 1}} {
		if n := strings.Count(all, tc.text); n != tc.want {
			t.Errorf("the last request holds %q %d times, want %d:\n%s", tc.text, n, tc.want, clip(all, 6000))
		}
	}
	if got := qwenContexts(reqs[2], "UserPromptSubmit"); countIn(got, fact) != 1 {
		t.Errorf("the fact did not come before the model call after the write:\n%s", strings.Join(got, "\n---\n"))
	}
	if got := last.LastUserText(); !strings.Contains(got, "Before you stop: you edited files but recorded nothing") {
		t.Errorf("the last request is not the stop gate's question:\n%s", got)
	}
	session := w.qwenSession()
	if session == "" {
		t.Fatal("no hook of Qwen's named its session")
	}
	if w.read("docs/notes.md") != "notes\n" {
		t.Error("the write outside the claims did not go through")
	}
	if out := w.run("git", "status", "--porcelain", "--", ".qwen"); out != "" {
		t.Errorf("Qwen rewrote the .qwen/settings.json lucid init wrote:\n%s", out)
	}
	if out := w.run("lucid", "claims"); strings.Contains(out, "write docs") {
		t.Errorf("the Qwen agent's claim outlived its Stop:\n%s", out)
	}
	var claimed bool
	for _, c := range w.calls() {
		claimed = claimed || len(c.Args) > 1 && c.Args[0] == "claim" && strings.Contains(c.Stdout, "claimed docs/**")
	}
	if !claimed {
		t.Error("the agent's lucid claim did not run")
	}
}

// A Claude Code agent claims src/**: the Qwen agent's write_file, edit,
// shell write and monitor command there are each denied before they
// run, the model reads lucid's reason word for word as the tool's result,
// and the file stays as it was.
func TestQwenDeniedOnClaudeClaim(t *testing.T) {
	needClaude(t)
	w := newQwenLucid(t)
	w.run("lucid", "init", "--client", "claude")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "claude")
	claimed, release := w.claudeHolds("src/**", "rework auth")
	auth := w.path("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			waitFor(claimed)
			return cc.Reply{Calls: []cc.Call{{Name: "write_file", Args: map[string]any{"file_path": auth, "content": "package auth\n"}}}}
		},
		cc.ReadFile(auth),
		cc.EditFile(auth, "Login returns nil", "Login fails"),
		cc.Shell("sed -i s/Login/LogIn/ src/auth.go"),
		// monitor, a deferred tool the model reaches through tool_call,
		// runs a shell command in the background.
		cc.CallTool("tool_call", map[string]any{"name": "monitor", "arguments": map[string]any{"command": "echo x >> src/auth.go", "description": "watch"}}),
		cc.Say("Qwen done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	_, qerr := w.qwenRun(srv, "[[qwen-lead]] Edit the auth code.")
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if qerr != nil {
		t.Fatal(qerr)
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 6 {
		t.Fatalf("want 6 Qwen requests, got %d\n%s", len(reqs), srv.Dump())
	}
	for _, i := range []int{1, 3, 4, 5} {
		res, ok := reqs[i].Chat.LastToolResult()
		reason := res.Text()
		if !ok || !strings.HasPrefix(reason, "lucid: src/auth.go is claimed by lead·") || !strings.Contains(reason, `for «rework auth»`) ||
			strings.Contains(reason, "\n") {
			t.Errorf("request %d: the tool was not denied with lucid's reason alone: %q", i+1, reason)
		}
	}
	if got := w.read("src/auth.go"); !strings.Contains(got, "// Login returns nil when the password matches.") || strings.Contains(got, "LogIn") {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
}

// A subagent (the agent tool, in the foreground) is an agent of its own:
// its fact is signed with its own id (the session's, then the agent's),
// its digest comes with its first tool's result, once, and its fact
// reaches the lead with the agent's result, once (Qwen hands back the
// subagent's last text, not its commands).
func TestQwenSubagentIdentity(t *testing.T) {
	w := newQwenLucid(t)
	const fact = "qwen-e2e: the subagent found the cache"
	lead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		cc.Agent("general-purpose", "[[qwen-sub]] Look at the cache."),
		cc.Say("Lead done."),
	}}
	sub := &cc.Script{Name: "sub", Marker: "[[qwen-sub]]", Steps: []cc.Step{
		cc.Shell("lucid fact '" + fact + "'"),
		cc.Shell("echo looked"),
		cc.Say("SUB-DONE"),
	}}
	srv := cc.New(lead, sub)
	defer srv.Close()
	w.qwen(srv, "[[qwen-lead]] Use a subagent.")
	session := w.qwenSession()
	var by string
	for _, e := range w.log() {
		if e.Text == fact {
			by = e.Agent
		}
	}
	if !strings.HasPrefix(by, session+"/general-purpose-") || session == "" {
		t.Errorf("the subagent's fact is signed %q, want %s/general-purpose-<call id>", by, session)
	}
	subReqs := srv.Conversation("sub")
	if len(subReqs) != 3 {
		t.Fatalf("want 3 subagent requests, got %d\n%s", len(subReqs), srv.Dump())
	}
	if n := strings.Count(subReqs[2].Chat.AllText(), digestHeader); n != 1 {
		t.Errorf("the subagent holds the digest %d times, want once after its first tool:\n%s", n, clip(subReqs[2].Chat.AllText(), 4000))
	}
	if got := qwenContexts(subReqs[1], "PostToolUse"); countIn(got, digestHeader) != 1 {
		t.Errorf("the subagent's digest did not come with its first tool's result:\n%s", strings.Join(got, "\n---\n"))
	}
	leadReqs := srv.Conversation("lead")
	last := leadReqs[len(leadReqs)-1].Chat
	if n := strings.Count(last.AllText(), fact); n != 1 {
		t.Errorf("the lead holds the subagent's fact %d times, want once:\n%s", n, clip(last.AllText(), 6000))
	}
	if res, _ := last.LastToolResult(); !strings.Contains(res.Text(), fact) {
		t.Errorf("the subagent's fact did not come with its result: %q", res.Text())
	}
}

// A session started in a subfolder runs none of the repository's hooks
// (Qwen reads .qwen/settings.json only where it starts): a write to a
// claimed file goes through, and doctor says so. With `lucid init --user
// --client qwen` the guard holds there; at the top, where both are
// registered, Qwen runs lucid's hook once.
func TestQwenStartedInSubfolder(t *testing.T) {
	w := newQwenLucid(t)
	w.run("lucid", "claim", "src/**", "--for", "rework auth") // a person's claim
	w.runDir = w.path("src")
	target := w.path("src/new.go")
	script := func() *cc.Script {
		return &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
			cc.WriteFile(target, "package changed\n"),
			cc.Say("Done."),
		}}
	}
	srv := cc.New(script())
	defer srv.Close()
	w.qwen(srv, "[[qwen-lead]] Edit the auth code.")
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("the write in a session started in src/ did not go through: %v\n%s", err, srv.Dump())
	}
	if len(w.calls()) != 0 {
		t.Errorf("lucid's project hooks ran in a session started in src/: %d calls", len(w.calls()))
	}
	if out := w.run("lucid", "doctor"); !strings.Contains(out, "one started in a subfolder runs none of lucid's hooks") {
		t.Errorf("doctor does not say where Qwen reads lucid's hooks:\n%s", out)
	}
	os.Remove(target)

	w.run("lucid", "init", "--user", "--client", "qwen")
	srv2 := cc.New(script())
	defer srv2.Close()
	w.qwen(srv2, "[[qwen-lead]] Edit the auth code.")
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the user's hooks did not guard the session started in src/")
	}
	if res, _ := srv2.Conversation("lead")[1].Chat.LastToolResult(); !strings.HasPrefix(res.Text(), "lucid: src/new.go is claimed by human") {
		t.Errorf("the deny reason did not reach the model: %q", res.Text())
	}

	// At the top both files register lucid's entries: one hook runs.
	w.runDir = ""
	srv3 := cc.New(script())
	defer srv3.Close()
	before := len(w.calls())
	w.qwen(srv3, "[[qwen-lead]] Edit the auth code.")
	pre := 0
	for _, c := range w.calls()[before:] {
		if len(c.Args) == 4 && c.Args[0] == "hook" && c.Args[3] == "PreToolUse" {
			pre++
		}
	}
	if pre != 1 {
		t.Errorf("lucid's PreToolUse ran %d times for one write, want once", pre)
	}
}

// lucid uninstall takes lucid's hooks out of .qwen/settings.json after
// Qwen ran with them, and gives the user's file back byte for byte; the
// user's own hook ran beside lucid's. The user's file is one Qwen has run
// with: it has "$version" (Qwen 0.24.4 adds it to a file without it at
// its first run, and lays out anew what it rewrites).
func TestQwenUninstallByteExact(t *testing.T) {
	needQwen(t)
	e := newScratch(t, t.TempDir())
	mine := "{\n  \"$version\": 4,\n  \"model\":   {\"name\": \"qwen-test\"},\n\t\"hooks\": {\"PreToolUse\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo mine >> " +
		filepath.Join(e.home, "mine.log") + "\", \"name\": \"mine\", \"timeout\": 5}]}]}\n}\n"
	e.write(e.path(".qwen/settings.json"), mine)
	e.run("lucid", "init")
	w := withQwen(t, e)
	srv := cc.New(&cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		cc.WriteFile(w.path("docs/a.md"), "a\n"),
		cc.Say("Done."),
	}})
	defer srv.Close()
	w.qwen(srv, "[[qwen-lead]] Write a doc.")
	if b, err := os.ReadFile(filepath.Join(e.home, "mine.log")); err != nil || string(b) != "mine\n" {
		t.Errorf("the user's own hook did not run once: %q %v", b, err)
	}
	if w.qwenSession() == "" {
		t.Fatal("lucid's hooks did not run")
	}
	w.run("lucid", "uninstall")
	if got := w.read(".qwen/settings.json"); got != mine {
		t.Errorf("after uninstall:\n%s\nwant\n%s", got, mine)
	}
}

// With folder trust turned on in the user's settings, Qwen skips the
// project's hooks of a folder it does not trust without a word, as doctor
// says (in -p it then also refuses every write itself, since it takes
// back yolo: asked interactively, a user's yes would run the tool
// unguarded); trusted in trustedFolders.json, lucid's hooks run and the
// guard holds.
func TestQwenFolderTrust(t *testing.T) {
	w := newQwenLucid(t)
	w.run("lucid", "claim", "src/**", "--for", "rework auth") // a person's claim
	w.write(filepath.Join(w.home, ".qwen", "settings.json"), strings.Replace(qwenUserSettings, "{\n",
		"{\n  \"security\": {\"folderTrust\": {\"enabled\": true}},\n", 1))
	script := func() *cc.Script {
		return &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
			cc.WriteFile(w.path("src/new.go"), "package changed\n"),
			cc.Say("Done."),
		}}
	}
	hookCalls := func() int {
		n := 0
		for _, c := range w.calls() {
			if len(c.Args) > 0 && c.Args[0] == "hook" {
				n++
			}
		}
		return n
	}
	if _, err := w.output("lucid", "doctor"); err == nil || !strings.Contains(err.Error(), "Qwen skips project hooks here without a word") {
		t.Errorf("doctor does not say the folder is not trusted: %v", err)
	}
	srv := cc.New(script())
	defer srv.Close()
	res := w.qwen(srv, "[[qwen-lead]] Write the file.")
	if n := hookCalls(); n != 0 || !strings.Contains(res.stderr, "the current folder is not trusted") {
		t.Fatalf("in an untrusted folder lucid's hooks ran %d times; stderr:\n%s", n, res.stderr)
	}

	w.write(filepath.Join(w.home, ".qwen", "trustedFolders.json"), `{"`+w.repo+`": "TRUST_FOLDER"}`)
	if out, err := w.output("lucid", "doctor"); err != nil || !strings.Contains(out, "trustedFolders.json trusts it") {
		t.Errorf("doctor does not see the trust: %v\n%s", err, out)
	}
	srv2 := cc.New(script())
	defer srv2.Close()
	w.qwen(srv2, "[[qwen-lead]] Write the file.")
	if res, _ := srv2.Conversation("lead")[1].Chat.LastToolResult(); hookCalls() == 0 || !strings.HasPrefix(res.Text(), "lucid: src/new.go is claimed by human") {
		t.Errorf("in the trusted folder the guard did not hold: %q", res.Text())
	}
}

// After Qwen compacts the conversation it fires SessionStart (compact):
// the agent gets the digest anew, now with what was recorded before the
// compaction, in place of the first one.
func TestQwenCompactGivesTheDigestAgain(t *testing.T) {
	w := newQwenLucid(t)
	const fact = "qwen-e2e: recorded before the compaction"
	lead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Summary: "<state_snapshot>the work so far</state_snapshot>", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			if _, err := w.lucidAs(otherAgent, "fact", fact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			// Near the model's window: Qwen compacts before the next call.
			return cc.Reply{Calls: []cc.Call{{Name: "run_shell_command", Args: map[string]any{"command": "echo one", "description": "one"}}}, Usage: 255000}
		},
		cc.Shell("echo two"),
		cc.Shell("echo three"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.qwen(srv, "[[qwen-lead]] Work on.")
	reqs := srv.Conversation("lead")
	if first := qwenContexts(reqs[0], "SessionStart"); countIn(first, digestHeader) != 1 || countIn(first, fact) != 0 {
		t.Fatalf("the first request's digest:\n%s", strings.Join(first, "\n---\n"))
	}
	last := qwenContexts(reqs[len(reqs)-1], "SessionStart")
	if countIn(last, digestHeader) != 1 || countIn(last, fact) != 1 {
		t.Errorf("the digest after the compaction is not the new one, once:\n%s\nrequests:\n%s", strings.Join(last, "\n---\n"), srv.Dump())
	}
	var compacted bool
	for _, c := range w.calls() {
		compacted = compacted || len(c.Args) == 4 && c.Args[3] == "SessionStart" && strings.Contains(c.Stdin, `"source":"compact"`)
	}
	if !compacted {
		t.Errorf("no SessionStart after the compaction reached lucid\n%s", srv.Dump())
	}
}

// A subagent that edited and recorded nothing is asked once, at its
// SubagentStop (Qwen gives it one more turn with the reason); its claim
// ends there.
func TestQwenSubagentStopGate(t *testing.T) {
	w := newQwenLucid(t)
	lead := &cc.Script{Name: "lead", Marker: "[[qwen-lead]]", Steps: []cc.Step{
		cc.Agent("general-purpose", "[[qwen-sub]] Write the docs."),
		cc.Say("Lead done."),
	}}
	sub := &cc.Script{Name: "sub", Marker: "[[qwen-sub]]", Steps: []cc.Step{
		cc.Shell("lucid claim 'docs/**' --for 'sub docs'"),
		cc.WriteFile(w.path("docs/sub.md"), "sub\n"),
		cc.Say("SUB-DONE"),
		cc.Say("SUB-DONE, nothing to record."),
	}}
	srv := cc.New(lead, sub)
	defer srv.Close()
	w.qwen(srv, "[[qwen-lead]] Use a subagent.")
	subReqs := srv.Conversation("sub")
	if len(subReqs) != 4 {
		t.Fatalf("want 4 subagent requests (the gate asks once), got %d\n%s", len(subReqs), srv.Dump())
	}
	if got := subReqs[3].Chat.LastUserText(); !strings.Contains(got, "Before you stop: you edited files but recorded nothing") {
		t.Errorf("the subagent's last request is not the stop gate's question:\n%s", got)
	}
	if out := w.run("lucid", "claims"); strings.Contains(out, "sub docs") {
		t.Errorf("the subagent's claim outlived its SubagentStop:\n%s", out)
	}
	if len(srv.Conversation("lead")) != 2 {
		t.Errorf("the lead was asked too:\n%s", srv.Dump())
	}
}
