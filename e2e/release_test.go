package e2e

import (
	"strings"
	"sync"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// A person ends a Claude Code lead's claim with lucid release --owner
// while the lead works: the claim is gone at once, and the lead's next
// request carries, once, that a person released it and why.
func TestPersonReleasesClaim(t *testing.T) {
	e := newEnv(t)
	const why = "the lead looks stuck; I need src/ now"
	var mu sync.Mutex
	var owner, released string
	var during, after []claimJSON
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": `lucid claim 'src/**' --for "rework auth"`, "description": "claim src"}),
		func(*api.MessagesRequest) api.Reply {
			mu.Lock()
			defer mu.Unlock()
			during = e.claims()
			if len(during) == 1 {
				owner = during[0].Owner
				out, err := e.output("lucid", "release", "--owner", owner, "--why", why)
				if err != nil {
					t.Errorf("the person's release: %v", err)
				}
				released = out
			}
			after = e.claims()
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo next", "description": "next"}}}}
		},
		api.Call("Bash", map[string]any{"command": "echo again", "description": "again"}),
		api.Say("Lead done."),
	}}
	srv := api.New(lead)
	defer srv.Close()
	e.claude(srv, "[[lead]] Rework auth.")

	mu.Lock()
	defer mu.Unlock()
	if len(during) != 1 || strings.Join(during[0].Globs, ",") != "src/**" {
		t.Fatalf("the lead's claim: %+v, want src/**", during)
	}
	if !strings.Contains(released, "claims on src/**") || len(after) != 0 {
		t.Errorf("the person's release printed %q and left %+v, want src/** released", released, after)
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 requests of the lead, got %d\n%s", len(reqs), srv.Dump())
	}
	said := func(r *api.Request) int {
		n := 0
		for _, c := range api.HookContexts(r.Messages.Messages) {
			n += strings.Count(c.Text, "a person released your claim on 'src/**'")
			if strings.Contains(c.Text, "a person released your claim") && !strings.Contains(c.Text, why) {
				t.Errorf("the lead was told of the release without why: %q", c.Text)
			}
		}
		return n
	}
	if n := said(reqs[2]); n != 1 {
		t.Errorf("the lead's request after the release was told of it %d times, want once\n%s", n, srv.Dump())
	}
	if n := said(reqs[3]); n != 1 {
		t.Errorf("the lead's last request holds the release %d times, want once (told once)", n)
	}
	if log := e.read(".lucid/log.jsonl"); !strings.Contains(log, `"kind":"release"`) || !strings.Contains(log, `"owner":"`+owner+`"`) {
		t.Errorf("the log has no release of the lead's claim:\n%s", log)
	}
}

// A Claude Code subagent denied on its lead's claim asks for it with the
// command the denial gives; the lead's next request carries the request
// with the command that answers it; the lead hands the claim over with
// that command; the subagent's next write passes, and it is told it holds
// the claim now.
func TestSubagentAsksForClaim(t *testing.T) {
	e := newEnv(t)
	const because = "I must fix the login bug"
	auth := e.path("src/auth.go")
	var srv *api.Server
	var mu sync.Mutex
	var asked, handed string // the commands the models ran, as the denial and the request gave them
	var held []claimJSON     // the claims when the subagent writes again
	between := func(s, from, to string) string {
		_, rest, ok := strings.Cut(s, from)
		if !ok {
			return ""
		}
		got, _, _ := strings.Cut(rest, to)
		return from + got
	}
	logHas := func(text string) bool {
		out, err := e.output("lucid", "log", "--json")
		return err == nil && strings.Contains(out, text)
	}
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": `lucid claim 'src/**' --for "rework auth"`, "description": "claim src"}),
		api.Call("Agent", map[string]any{"description": "fix login", "prompt": "[[sub:ask]] Fix the login bug in src/auth.go.",
			"subagent_type": "general-purpose", "run_in_background": true}),
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return logHas(because) }) // the subagent has asked
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo working", "description": "work"}}}}
		},
		func(r *api.MessagesRequest) api.Reply {
			var text string
			for _, c := range api.HookContexts(r.Messages) {
				text += c.Text + "\n"
			}
			mu.Lock()
			handed = between(text, "lucid release ", "\n")
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": handed, "description": "hand over"}}}}
		},
		api.Say("I handed src over to the worker."),
		api.Say("Lead done."),
	}}
	worker := &api.Script{Name: "worker", Marker: "[[sub:ask]]", Steps: []api.Step{
		api.Call("Write", map[string]any{"file_path": auth, "content": "package auth // worker\n"}),
		func(r *api.MessagesRequest) api.Reply {
			_, res, _ := lastResult(r)
			cmd := between(res.ResultText(), "lucid ask ", "`")
			mu.Lock()
			asked = cmd
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": strings.Replace(cmd, "why you need it", because, 1), "description": "ask"}}}}
		},
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return logHas(`"kind": "handoff"`) })
			mu.Lock()
			held = e.claims()
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Write", Input: map[string]any{"file_path": auth, "content": "package auth // worker\n"}}}}
		},
		api.Call("Bash", map[string]any{"command": "lucid fact 'login: the bug was in check'", "description": "record"}),
		api.Say("Worker done."),
		api.Say("Nothing more to record."), // a stop gate's turn, if one comes
	}}
	srv = api.New(lead, worker)
	defer srv.Close()
	res := e.claude(srv, "[[lead]] Rework auth, and have a worker fix login.")
	mu.Lock()
	defer mu.Unlock()

	session, agent := res.sessionID(), res.agentID("[[sub:ask]]")
	if session == "" || agent == "" {
		t.Fatalf("no session id (%q) or agent id (%q) in the client's output", session, agent)
	}
	w, l := srv.Conversation("worker"), srv.Conversation("lead")
	if len(w) < 5 || len(l) < 5 {
		t.Fatalf("the worker sent %d requests and the lead %d, want 5 or more each\n%s\ncalls:\n%s", len(w), len(l), srv.Dump(), e.callsText())
	}
	// The denial gave the command, ready to run, and the subagent ran it.
	if want := "lucid ask " + session + ` --for-claim 'src/**' "why you need it"`; asked != want {
		t.Errorf("the denial's command: %q, want %q", asked, want)
	}
	// The lead's next request carried the request, once, with the command
	// that hands the claim over.
	var told int
	for _, c := range api.HookContexts(l[3].Messages.Messages) {
		if strings.Contains(c.Text, because) {
			told += strings.Count(c.Text, "asks you for your claim on 'src/**'")
		}
	}
	if want := "lucid release 'src/**' --to " + session + "/" + agent; told != 1 || handed != want {
		t.Errorf("the lead was told of the request %d times (want once), and ran %q (want %q)\n%s", told, handed, want, srv.Dump())
	}
	// The hand-over answers the request: lucid ask printed its id.
	id := strings.TrimSpace(w[2].Messages.LastUserText())
	if out := e.run("lucid", "log", "--json", "--kind", "handoff"); !strings.Contains(out, `"reply_to": "`+id+`"`) {
		t.Errorf("the hand-over does not answer the request %s:\n%s", id, out)
	}
	// The claim passed to the subagent, its write passed, and it was told.
	if len(held) != 1 || held[0].Owner != session+"/"+agent || strings.Join(held[0].Globs, ",") != "src/**" || held[0].Task != "rework auth" {
		t.Errorf("the claims after the hand-over: %+v, want the worker's src/**", held)
	}
	if u, r, ok := lastResult(w[3].Messages); !ok || u.Name != "Write" || r.IsError {
		t.Errorf("the worker's Write after the hand-over: %s result %q (error %v)", u.Name, r.ResultText(), r.IsError)
	}
	if got := e.read("src/auth.go"); got != "package auth // worker\n" {
		t.Errorf("src/auth.go = %q, want the worker's", got)
	}
	var news int
	for _, c := range api.HookContexts(w[len(w)-1].Messages.Messages) {
		news += strings.Count(c.Text, "handed you its claim on 'src/**'")
	}
	if news != 1 {
		t.Errorf("the worker was told of the hand-over %d times, want once\n%s", news, srv.Dump())
	}
}

// A Codex agent cannot end a Claude Code lead's claim with lucid release
// --owner from its shell, nor take it with a hand-over it does not hold:
// both are refused with the reason its model reads, and the claim stays.
func TestCodexCannotTakeClaim(t *testing.T) {
	e := newCodexLucid(t, true)
	claimed, release := e.claudeHolds("src/**", "rework auth")
	var mu sync.Mutex
	var owner string // the lead's id, set by the first step
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(claimed)
			mu.Lock()
			defer mu.Unlock()
			owner = e.claims()[0].Owner
			return rs.Reply{Calls: []rs.Call{rs.Exec("lucid release --owner " + owner + " --why 'mine now'")}}
		},
		func(*rs.ResponsesRequest) rs.Reply {
			return rs.Reply{Calls: []rs.Call{rs.Exec("lucid release 'src/**' --to human")}}
		},
		rs.Say("Codex done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Take the auth code.")
	held := e.claims()
	if err := release(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("want 3 Codex requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if out := lastOutput(reqs[1].Responses); !strings.Contains(out, "lucid release --owner is a person's command, and this runs in a Codex CLI agent's shell") {
		t.Errorf("release --owner from the Codex agent's shell; its output:\n%s", out)
	}
	if out := lastOutput(reqs[2].Responses); !strings.Contains(out, "you hold no claim on src/**") {
		t.Errorf("a hand-over of a claim the Codex agent does not hold; its output:\n%s", out)
	}
	if len(held) != 1 || held[0].Owner != owner {
		t.Errorf("the claims after the Codex agent's tries: %+v, want the Claude lead's (%s) alone", held, owner)
	}
}
