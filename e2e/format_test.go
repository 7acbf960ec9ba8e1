package e2e

import (
	"strings"
	"sync"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// A Claude Code subagent claims src/**; meanwhile its lead runs the
// formatters of ordinary work over folders that hold the claimed file,
// through Claude Code's real Bash tool: go fmt ./..., a make target whose
// recipe formats the tree, and gofmt -w over the folder. Each is denied
// before it runs, the model reading whose claim stops it, and the file stays
// as it was; a formatter over a folder no claim covers runs.
func TestFormatterOverClaimedFolder(t *testing.T) {
	e := newEnv(t)
	e.write(e.path("go.mod"), "module example.com/auth\n\ngo 1.21\n")
	e.write(e.path("Makefile"), "fmt:\n\tgofmt -w .\n")
	e.write(e.path("tools/gen.go"), "package tools\nfunc  Gen() {}\n") // badly laid out, for gofmt
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "module")
	before := e.read("src/auth.go") + "func  after() {}\n" // badly laid out too
	e.write(e.path("src/auth.go"), before)
	var srv *api.Server
	var mu sync.Mutex
	var claimed []claimJSON
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Agent", map[string]any{"description": "rework auth", "prompt": "[[sub:own]] Claim src and rework auth.",
			"subagent_type": "general-purpose", "run_in_background": true}),
		func(*api.MessagesRequest) api.Reply {
			waitStep(t, srv, "worker", 1) // the worker's claim has run
			mu.Lock()
			claimed = e.claims()
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "go fmt ./...", "description": "format"}}}}
		},
		api.Call("Bash", map[string]any{"command": "make fmt", "description": "format"}),
		api.Call("Bash", map[string]any{"command": "gofmt -w .", "description": "format"}),
		api.Call("Bash", map[string]any{"command": "gofmt -w tools", "description": "format the tools"}),
		api.Say("The worker holds src; I leave it."),
		api.Say("Lead done."),
	}}
	worker := &api.Script{Name: "worker", Marker: "[[sub:own]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": `lucid claim 'src/**' --for "rework auth"`, "description": "claim src"}),
		func(*api.MessagesRequest) api.Reply {
			waitStep(t, srv, "lead", 5) // the lead's formatters have run
			return api.Reply{Text: "Worker done, nothing worth recording."}
		},
		api.Say("Nothing worth recording."),
	}}
	srv = api.New(lead, worker)
	defer srv.Close()
	e.claude(srv, "[[lead]] Format the module while a worker reworks auth.")
	mu.Lock()
	defer mu.Unlock()
	if len(claimed) != 1 || strings.Join(claimed[0].Globs, " ") != "src/**" {
		t.Fatalf("claims while the worker works = %+v; want its src/**\ncalls:\n%s", claimed, e.callsText())
	}
	l := srv.Conversation("lead")
	if len(l) < 6 {
		t.Fatalf("the lead sent %d requests, want 6 or more\n%s", len(l), srv.Dump())
	}
	why := "is claimed by " + claimed[0].Label + ` for «rework auth»`
	for i, cmd := range []string{"go fmt ./...", "make fmt", "gofmt -w ."} {
		denied(t, l[i+2], "Bash", why)
		if t.Failed() {
			t.Logf("%s was not denied", cmd)
		}
	}
	if got := e.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go was formatted under the worker's claim:\n%s", got)
	}
	if _, res, _ := lastResult(l[5].Messages); res.IsError {
		t.Errorf("gofmt -w tools, which no claim covers, was refused: %q", res.ResultText())
	}
	if got := e.read("tools/gen.go"); !strings.Contains(got, "func Gen() {}") {
		t.Errorf("tools/gen.go was not formatted: %q", got)
	}
}
