package e2e

// The Crush scenarios: the real `crush` binary with lucid's own hook
// (`lucid hook --client crush PreToolUse` in crush.json) against the
// scripted model.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// Another agent claims src/**: the Crush agent's write, edit and shell
// write there are each denied before they run, the model reads lucid's
// reason after Crush's own words, and the file stays as it was. Its lucid
// command is signed with its session's id, and its write outside the
// claim goes through, with another agent's fact after the tool's result;
// the digest comes with the first call let through.
func TestCrushDeniedOnClaim(t *testing.T) {
	w := newCrushLucid(t)
	w.claimAs(otherAgent, "src/**", "rework auth")
	auth := w.path("src/auth.go")
	before := w.read("src/auth.go")
	const fact = "crush-e2e: the API keeps v1 routes"
	lead := &cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
		crushWrite(auth, "package auth\n"),
		cc.CallTool("view", map[string]any{"file_path": auth}),
		crushEdit(auth, "Login returns nil", "Login fails"),
		crushBash("sed -i s/Login/LogIn/ src/auth.go"),
		crushBash("lucid note 'crush-e2e: looked at auth'"),
		func(*cc.ChatRequest) cc.Reply {
			if _, err := w.lucidAs(otherAgent, "fact", fact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			return cc.Reply{Calls: []cc.Call{{Name: "write", Args: map[string]any{"file_path": w.path("docs/notes.md"), "content": "notes\n"}}}}
		},
		cc.Say("Crush done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.crush(srv, "[[crush-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 7 {
		t.Fatalf("want 7 Crush requests, got %d\n%s", len(reqs), srv.Dump())
	}
	for _, i := range []int{1, 3, 4} {
		res, ok := reqs[i].Chat.LastToolResult()
		reason := res.Text()
		if !ok || !strings.Contains(reason, "Tool call blocked by hook. Reason: lucid: src/auth.go is claimed by ") || !strings.Contains(reason, `for «rework auth»`) {
			t.Errorf("request %d: the tool was not denied with lucid's reason: %q", i+1, reason)
		}
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	if w.read("docs/notes.md") != "notes\n" {
		t.Error("the write outside the claims did not go through")
	}
	// Crush has no start event: the digest comes with the result of the
	// first call lucid let through (the view is none of lucid's), once.
	if res, _ := reqs[5].Chat.LastToolResult(); strings.Count(res.Text(), digestHeader) != 1 || !strings.Contains(res.Text(), "rework auth") {
		t.Errorf("the first call let through did not carry the digest:\n%s", res.Text())
	}
	if n := strings.Count(reqs[6].Chat.AllText(), digestHeader); n != 1 {
		t.Errorf("the digest is %d times in the conversation, want once", n)
	}
	if res, _ := reqs[6].Chat.LastToolResult(); !strings.Contains(res.Text(), fact) {
		t.Errorf("the other agent's fact did not come after the write's result:\n%s", res.Text())
	}
	session := w.hookSession("crush", "session_id")
	if session == "" {
		t.Fatal("no hook of Crush's named its session")
	}
	var signed bool
	for _, e := range w.log() {
		signed = signed || strings.Contains(e.Text, "crush-e2e: looked at auth") && strings.HasPrefix(e.Agent, session)
	}
	if !signed {
		t.Errorf("the agent's lucid note is not signed with its session %s:\n%s", session, w.callsText())
	}
	if out := w.run("git", "status", "--porcelain", "--", "crush.json"); out != "" {
		t.Errorf("Crush rewrote the crush.json lucid init wrote:\n%s", out)
	}
}

// With no lucid on the PATH Crush's hooks start with, the registered
// command does nothing: Crush runs its tools as if there were no hook, and
// says nothing of one.
func TestCrushWithoutLucid(t *testing.T) {
	w := newCrushLucid(t)
	bin := t.TempDir()
	for _, p := range []string{"git", "sh", "sed"} {
		if path, err := exec.LookPath(p); err == nil {
			os.Symlink(path, filepath.Join(bin, p))
		}
	}
	lead := &cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
		crushWrite(w.path("src/new.go"), "package auth\n"),
		crushBash("echo ran > ran.txt"),
		cc.Say("Crush done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.crush(srv, "[[crush-lead]] Write it.", "PATH="+bin)
	if w.read("src/new.go") != "package auth\n" || w.read("ran.txt") != "ran\n" {
		t.Error("Crush's tools did not run without lucid")
	}
	for _, r := range srv.Conversation("lead")[1:] {
		if res, _ := r.Chat.LastToolResult(); strings.Contains(res.Text(), "hook") {
			t.Errorf("a tool's result speaks of a hook: %q", res.Text())
		}
	}
	if calls := w.calls(); len(calls) > 0 {
		t.Errorf("lucid ran without being on PATH: %+v", calls)
	}
}

// lucid's entry in both the user's config (lucid init --user --client
// crush) and the project's is one hook to Crush, which runs a command
// once however many files register it.
func TestCrushUserAndProjectEntriesRunOnce(t *testing.T) {
	w := newCrushLucid(t)
	init := exec.Command(realLucid, "init", "--user", "--client", "crush")
	init.Dir, init.Env = w.repo, w.environ("CRUSH_GLOBAL_CONFIG="+w.config)
	if out, err := init.CombinedOutput(); err != nil {
		t.Fatalf("lucid init --user --client crush: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(w.config, "crush.json"))
	if err != nil || !strings.Contains(string(b), "lucid hook --client crush PreToolUse") {
		t.Fatalf("lucid init --user wrote no entry: %s %v", b, err)
	}
	var user struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	json.Unmarshal(b, &user)
	w.userHooks = string(user.Hooks)
	lead := &cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
		crushWrite(w.path("docs/a.md"), "a\n"),
		cc.Say("Crush done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.crush(srv, "[[crush-lead]] Write it.")
	n := 0
	for _, c := range w.calls() {
		if len(c.Args) == 4 && c.Args[0] == "hook" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("lucid's hook ran %d times for one write, want once:\n%s", n, w.callsText())
	}
}
