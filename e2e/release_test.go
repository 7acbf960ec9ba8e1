package e2e

import (
	"strings"
	"sync"
	"testing"

	api "github.com/lucid-dev/lucid/internal/scripted/messages"
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
			n += strings.Count(c.Text, "a person released your claim on src/**")
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
