package e2e

import (
	"fmt"
	"strings"
	"testing"

	gem "github.com/lucid-dev/lucid/internal/testkit/scripted/generatecontent"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// A fact about src/auth.go, older than the session and past what its
// digest lists, reaches the lead when it edits src/auth.go: the request
// after the Edit carries it, once, and the next Edit of the file adds
// nothing.
func TestFileFactsReachEditor(t *testing.T) {
	e := newEnv(t)
	const fact = "Login must keep calling check(): the audit hook wraps it"
	e.run("lucid", "fact", fact, "-e", "src/auth.go:5")
	for i := range 70 {
		e.run("lucid", "note", fmt.Sprintf("note %d on the build scripts, long enough to take a line of the digest's room", i))
	}
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "a fact and notes")
	var id string
	for _, en := range e.log() {
		if en.Text == fact {
			id = en.ID
		}
	}
	auth := e.path("src/auth.go")
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "// Login returns", "new_string": "// Login, audited, returns"}),
		api.Call("Edit", map[string]any{"file_path": auth, "old_string": "func Login(", "new_string": "func Login( "}),
		api.Say("Edited."),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] Touch up the login comment.")

	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("the lead sent %d requests, want 4\n%s", len(reqs), srv.Dump())
	}
	if strings.Contains(reqs[0].Messages.AllText(), id) {
		t.Fatalf("the digest lists the fact: the test needs it past the digest\n%s", reqs[0].Messages.AllText())
	}
	if strings.Contains(reqs[1].Messages.AllText(), id) {
		t.Errorf("the request after the Read carries the fact; only an edit is told it")
	}
	var told []api.HookContext
	for _, c := range api.HookContexts(reqs[2].Messages.Tail()) {
		if strings.Contains(c.Text, id) {
			told = append(told, c)
		}
	}
	if len(told) != 1 {
		t.Fatalf("the request after the first Edit carries the fact %d times, want once\n%s\ncalls:\n%s", len(told), srv.Dump(), e.callsText())
	}
	for _, want := range []string{"what the log knows of src/auth.go", fact, "evidence: src/auth.go:5"} {
		if !strings.Contains(told[0].Text, want) {
			t.Errorf("the Edit's context (%s) lacks %q:\n%s", told[0].Hook, want, told[0].Text)
		}
	}
	if n := strings.Count(reqs[3].Messages.AllText(), id); n != 1 {
		t.Errorf("the request after the second Edit carries the fact %d times, want once, as before", n)
	}
}

// Gemini CLI shows the model nothing from BeforeTool: the fact comes with
// the AfterTool of the edit, once.
func TestGeminiFileFactsReachEditor(t *testing.T) {
	w := newGeminiLucid(t)
	const fact = "Login must keep calling check(): the audit hook wraps it"
	w.env.run("lucid", "fact", fact, "-e", "src/auth.go:5")
	for i := range 70 {
		w.env.run("lucid", "note", fmt.Sprintf("note %d on the build scripts, long enough to take a line of the digest's room", i))
	}
	var id string
	for _, en := range w.env.log() {
		if en.Text == fact {
			id = en.ID
		}
	}
	auth := w.path("src/auth.go")
	lead := &gem.Script{Name: "lead", Marker: "[[gemini-lead]]", Steps: []gem.Step{
		gem.Replace(auth, "// Login returns", "// Login, audited, returns"),
		gem.Replace(auth, "func Login(", "func Login( "),
		gem.Say("Done."),
		gem.Say("Done, nothing to record."),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	w.gemini(srv, "[[gemini-lead]] Touch up the login comment.")
	reqs := srv.Conversation("lead")
	if len(reqs) < 3 {
		t.Fatalf("want at least 3 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if n := countIn(contexts(reqs[0]), id); n != 0 {
		t.Fatalf("the digest lists the fact: the test needs it past the digest")
	}
	if n := countIn(contexts(reqs[1]), id); n != 1 {
		t.Fatalf("the request after the first replace carries the fact %d times, want once\n%s", n, srv.Dump())
	}
	if !strings.Contains(strings.Join(contexts(reqs[1]), "\n"), "what the log knows of src/auth.go") {
		t.Errorf("the fact came without its header:\n%s", strings.Join(contexts(reqs[1]), "\n---\n"))
	}
	if n := countIn(contexts(reqs[2]), id); n != 1 {
		t.Errorf("the request after the second replace carries the fact %d times, want once, as before", n)
	}
}
