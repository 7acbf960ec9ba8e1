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

	cc "github.com/lucid-dev/lucid/internal/scripted/chatcompletions"
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
		if reason := res.Text(); !ok || !strings.Contains(reason, "lucid: src/auth.go is claimed by") || !strings.Contains(reason, `for "rework auth"`) {
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
