package e2e

// The opencode scenarios: the real `opencode` binary with lucid's own
// plugin (.opencode/plugins/lucid.js, written by lucid init, handing each
// call to `lucid hook --client opencode EVENT`), against the scripted
// model.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// newOpencodeLucid is a repository with opencode and lucid's plugin set
// up, committed.
func newOpencodeLucid(t *testing.T) *opencodeWorld {
	t.Helper()
	needOpencode(t)
	w := withOpencode(t, newScratch(t, t.TempDir()))
	w.run("lucid", "init", "--client", "opencode")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for opencode")
	return w
}

// The digest reaches the model in the system prompt of every request;
// another agent claims src/**: the lead's write, edit and bash write there
// are each denied before they run, and so is its subagent's in the child
// session; the model reads lucid's reason as the tool's result; the file
// stays as it was.
func TestOpencodeDigestAndDeny(t *testing.T) {
	w := newOpencodeLucid(t)
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[oc-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"filePath": "src/auth.go", "content": "package auth\n"}),
		cc.CallTool("edit", map[string]any{"filePath": "src/auth.go", "oldString": "Login returns nil", "newString": "Login fails"}),
		cc.CallTool("bash", map[string]any{"command": "sed -i s/Login/LogIn/ src/auth.go"}),
		cc.CallTool("task", map[string]any{"description": "edit auth", "prompt": "[[oc-sub]] edit the auth code", "subagent_type": "general"}),
		cc.Say("Lead done."),
	}}
	sub := &cc.Script{Name: "sub", Marker: "[[oc-sub]]", Steps: []cc.Step{
		cc.CallTool("bash", map[string]any{"command": "echo x >> src/auth.go"}),
		cc.Say("Subagent done."),
	}}
	srv := cc.New(lead, sub)
	defer srv.Close()
	w.opencode(srv, "[[oc-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 5 {
		t.Fatalf("want 5 lead requests, got %d\n%s", len(reqs), srv.Dump())
	}
	for i, r := range reqs {
		if n := strings.Count(r.Chat.SystemText(), digestHeader); n != 1 {
			t.Errorf("lead request %d holds the digest %d times in its system prompt, want 1", i+1, n)
		}
	}
	for _, i := range []int{1, 2, 3} {
		res, ok := reqs[i].Chat.LastToolResult()
		if reason := res.Text(); !ok || !strings.Contains(reason, "lucid: src/auth.go is claimed by") || !strings.Contains(reason, `for «rework auth»`) {
			t.Errorf("lead request %d: the tool was not denied with lucid's reason: %q", i+1, reason)
		}
	}
	subs := srv.Conversation("sub")
	if len(subs) != 2 {
		t.Fatalf("want 2 subagent requests, got %d\n%s", len(subs), srv.Dump())
	}
	if res, _ := subs[1].Chat.LastToolResult(); !strings.Contains(res.Text(), "lucid: src/auth.go is claimed by") {
		t.Errorf("the subagent's bash write was not denied: %q", res.Text())
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
}

// Another agent's fact recorded mid-turn reaches the model once, after
// the next tool ran, and stays in what the model reads; the agent's own
// lucid command, run in its bash tool, is signed from the shell the
// plugin sets up.
func TestOpencodeFactOnceAndSigned(t *testing.T) {
	w := newOpencodeLucid(t)
	const fact = "opencode-e2e: the API keeps v1 routes"
	lead := &cc.Script{Name: "lead", Marker: "[[oc-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			if _, err := w.lucidAs(otherAgent, "fact", fact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			return cc.Reply{Calls: []cc.Call{{Name: "write", Args: map[string]any{"filePath": "docs/notes.md", "content": "notes\n"}}}}
		},
		cc.CallTool("bash", map[string]any{"command": "lucid fact 'opencode learned the notes'"}),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.opencode(srv, "[[oc-lead]] Write the notes.")
	reqs := srv.Conversation("lead")
	if len(reqs) < 3 {
		t.Fatalf("want 3 lead requests, got %d\n%s", len(reqs), srv.Dump())
	}
	last := reqs[len(reqs)-1].Chat
	if n := strings.Count(last.AllText(), fact); n != 1 {
		t.Errorf("the last request holds the fact %d times, want 1:\n%s", n, clip(last.AllText(), 6000))
	}
	if w.read("docs/notes.md") != "notes\n" {
		t.Error("the write outside any claim did not go through")
	}
	out := w.run("lucid", "log", "--json")
	if !strings.Contains(out, "opencode learned the notes") || !strings.Contains(out, `"agent": "ses_`) {
		t.Errorf("the agent's fact is not signed with its session:\n%s", out)
	}
}

// lucid uninstall gives the repository back byte for byte: the plugin
// and the folder lucid made for it go, opencode's own stay.
func TestOpencodeUninstallByteExact(t *testing.T) {
	needOpencode(t)
	w := withOpencode(t, newScratch(t, t.TempDir()))
	before := snapshotTree(t, w.path(".opencode"))
	w.run("lucid", "init", "--client", "opencode")
	if _, err := os.Stat(w.path(".opencode/plugins/lucid.js")); err != nil {
		t.Fatal(err)
	}
	w.run("lucid", "uninstall")
	if after := snapshotTree(t, w.path(".opencode")); after != before {
		t.Errorf(".opencode after uninstall:\n%s\nbefore init:\n%s", after, before)
	}
}

// snapshotTree is every file under dir with its bytes, and every folder.
func snapshotTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() {
			b.WriteString(rel + "/\n")
			return nil
		}
		c, _ := os.ReadFile(p)
		b.WriteString(rel + ": " + string(c) + "\n")
		return nil
	})
	return b.String()
}

// Kilo Code, opencode's fork, with the same plugin from .kilo/plugins/:
// the digest reaches the model, and its write and bash write on another
// agent's claim are denied with lucid's reason.
func TestKiloDigestAndDeny(t *testing.T) {
	needKilo(t)
	w := withKilo(t, newScratch(t, t.TempDir()))
	w.run("lucid", "init", "--client", "kilo")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for kilo")
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[kilo-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"filePath": "src/auth.go", "content": "package auth\n"}),
		cc.CallTool("bash", map[string]any{"command": "sed -i s/Login/LogIn/ src/auth.go"}),
		cc.Say("Kilo done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.opencode(srv, "[[kilo-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if n := strings.Count(reqs[0].Chat.SystemText(), digestHeader); n != 1 {
		t.Errorf("the first request holds the digest %d times in its system prompt, want 1", n)
	}
	for _, i := range []int{1, 2} {
		res, ok := reqs[i].Chat.LastToolResult()
		if reason := res.Text(); !ok || !strings.Contains(reason, "lucid: src/auth.go is claimed by") {
			t.Errorf("request %d: the tool was not denied with lucid's reason: %q", i+1, reason)
		}
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	if s := w.hookSession("kilo", "sessionID"); s == "" {
		t.Errorf("no call of lucid hook --client kilo:\n%s", w.callsText())
	}
}

// An agent that edited and recorded nothing is asked once, at the end of
// its text, while opencode run still takes one more turn: the lead, and a
// subagent in its child session, each once; the subagent records, the
// lead does not and is not asked again; when the run ends no claim is
// left.
func TestOpencodeStopGateOnce(t *testing.T) {
	w := newOpencodeLucid(t)
	const asked = "Before you stop: you edited files but recorded nothing"
	lead := &cc.Script{Name: "lead", Marker: "[[oc-lead]]", Steps: []cc.Step{
		cc.CallTool("bash", map[string]any{"command": "lucid claim x.md --for 'write x'"}),
		cc.CallTool("write", map[string]any{"filePath": "x.md", "content": "x\n"}),
		cc.CallTool("task", map[string]any{"description": "write y", "prompt": "[[oc-sub]] write y.md", "subagent_type": "general"}),
		cc.Say("Done."),
		cc.Say("Done, nothing to record."),
	}}
	sub := &cc.Script{Name: "sub", Marker: "[[oc-sub]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"filePath": "y.md", "content": "y\n"}),
		cc.Say("Subagent done."),
		cc.CallTool("bash", map[string]any{"command": "lucid decision 'y.md holds the why'"}),
		cc.Say("Subagent recorded."),
	}}
	srv := cc.New(lead, sub)
	defer srv.Close()
	w.opencode(srv, "[[oc-lead]] Write x.md.")
	reqs, subs := srv.Conversation("lead"), srv.Conversation("sub")
	if len(reqs) != 5 || len(subs) != 4 {
		t.Fatalf("want 5 lead and 4 subagent requests (the gate asks each once), got %d and %d\n%s", len(reqs), len(subs), srv.Dump())
	}
	if got := reqs[4].Chat.LastUserText(); !strings.Contains(got, asked) {
		t.Errorf("the lead's last request is not the stop gate's question:\n%s", got)
	}
	if got := subs[2].Chat.LastUserText(); !strings.Contains(got, asked) {
		t.Errorf("the subagent's third request is not the stop gate's question:\n%s", got)
	}
	for i, r := range append(reqs[:4:4], subs[:2]...) {
		if strings.Contains(r.Chat.AllText(), asked) {
			t.Errorf("request %d holds the question before its agent stopped", i+1)
		}
	}
	if out := w.run("lucid", "log", "--json"); !strings.Contains(out, "y.md holds the why") || !strings.Contains(out, `"agent": "ses_`) {
		t.Errorf("the subagent's decision is not in the log, signed:\n%s", out)
	}
	if cl := w.claims(); len(cl) != 0 {
		t.Errorf("claims left after the run: %+v", cl)
	}
}

// A compaction drops what the session was told: the tool result that
// carried another agent's fact is summarised away, and the request after
// the compaction holds the digest afresh in its system prompt, the fact
// in it, once.
func TestOpencodeDigestAfterCompaction(t *testing.T) {
	w := newOpencodeLucid(t)
	const fact = "opencode-e2e: the cache is per tenant"
	lead := &cc.Script{Name: "lead", Marker: "[[oc-lead]]", Summary: "[[oc-lead]] The model wrote a.md and noted it.", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"filePath": "a.md", "content": "a\n"}),
		func(r *cc.ChatRequest) cc.Reply {
			if strings.Contains(r.LastUserText(), "Continue if you have next steps") {
				return cc.Reply{Text: "Nothing left to do."}
			}
			if _, err := w.lucidAs(otherAgent, "fact", fact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			// So large a prompt makes opencode compact after this step.
			return cc.Reply{Usage: 199000, Calls: []cc.Call{{Name: "bash", Args: map[string]any{"command": "lucid note 'a.md is written'"}}}}
		},
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.opencode(srv, "[[oc-lead]] Write a.md.")
	var summary bool
	for _, r := range srv.Requests() {
		summary = summary || r.Side && strings.HasPrefix(r.Chat.LastUserText(), "Here is the conversation so far")
	}
	reqs := srv.Conversation("lead")
	if !summary || len(reqs) != 3 || !strings.Contains(reqs[2].Chat.LastUserText(), "Continue if you have next steps") {
		t.Fatalf("want a compaction and 3 lead requests, the last after it\n%s", srv.Dump())
	}
	if strings.Contains(reqs[2].Chat.AllText(), "lucid: 1 new log entry") {
		t.Fatal("the news survived the compaction: this test shows nothing")
	}
	sys := reqs[2].Chat.SystemText()
	if n, m := strings.Count(sys, digestHeader), strings.Count(sys, fact); n != 1 || m != 1 {
		t.Errorf("after the compaction the system prompt holds the digest %d times and the fact %d times, want once each:\n%s", n, m, clip(sys, 4000))
	}
}

// Kilo Code's subagents and its background processes are guarded too:
// the lead's background process and its subagent's bash write on another
// agent's claim are denied before they run, with lucid's reason; when the
// run ends, only the other agent's claim is left. (Kilo 7.7.9 takes no
// extra turn for a prompt sent at the end of the model's text, which
// opencode does: its stop gate asks, and the question waits for the
// session's next turn.)
func TestKiloSubagentAndBackgroundDenied(t *testing.T) {
	needKilo(t)
	w := withKilo(t, newScratch(t, t.TempDir()))
	w.run("lucid", "init", "--client", "kilo")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for kilo")
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[kilo-lead]]", Steps: []cc.Step{
		cc.CallTool("background_process", map[string]any{"action": "start", "command": "sed -i s/Login/LogIn/ src/auth.go", "description": "rename"}),
		cc.CallTool("task", map[string]any{"description": "edit auth", "prompt": "[[kilo-sub]] edit the auth code", "subagent_type": "general"}),
		cc.CallTool("bash", map[string]any{"command": "lucid claim x.md --for 'write x'"}),
		cc.CallTool("write", map[string]any{"filePath": "x.md", "content": "x\n"}),
		cc.Say("Kilo done."),
	}}
	sub := &cc.Script{Name: "sub", Marker: "[[kilo-sub]]", Steps: []cc.Step{
		cc.CallTool("bash", map[string]any{"command": "echo x >> src/auth.go"}),
		cc.Say("Subagent done."),
	}}
	srv := cc.New(lead, sub)
	defer srv.Close()
	w.opencode(srv, "[[kilo-lead]] Edit the auth code.")
	reqs, subs := srv.Conversation("lead"), srv.Conversation("sub")
	if len(reqs) != 5 || len(subs) != 2 {
		t.Fatalf("want 5 lead and 2 subagent requests, got %d and %d\n%s", len(reqs), len(subs), srv.Dump())
	}
	for _, r := range []*cc.Request{reqs[1], subs[1]} {
		if res, ok := r.Chat.LastToolResult(); !ok || !strings.Contains(res.Text(), "lucid: src/auth.go is claimed by") {
			t.Errorf("request %d: the write was not denied with lucid's reason: %q", r.Seq, res.Text())
		}
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	if w.read("x.md") != "x\n" {
		t.Error("the lead's write of its own claim did not go through")
	}
	if cl := w.claims(); len(cl) != 1 || cl[0].Owner != otherAgent {
		t.Errorf("claims after the run: %+v, want the other agent's alone", cl)
	}
}
