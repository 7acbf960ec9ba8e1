package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// A subagent claims src/** through Bash. While it works, the lead's Write
// and its shell redirection into src/ are denied and the model reads why; a
// script the guard cannot see into is caught after the fact; the log is
// append-only for the lead too. The subagent's own Write into its claim
// passes. The lead's Stop ends the lead's own claim, not the subagent's; the
// stop gate keeps the subagent going one more turn, claim and all. Once the
// subagent stops, its claim is gone and the lead's Write passes.
//
// The subagent runs in the background, so the lead goes on while it works.
// The two scripts take turns: the lead tries its writes only after the
// subagent's claim has run, and the subagent ends its turn only after the
// lead's turn has ended (its Stop hook has run). `claude -p` then waits for
// the subagent and wakes the lead with the notification of its end, which
// the client sends after the subagent's SubagentStop hook has run.
func TestClaimGuardsLead(t *testing.T) {
	e := newEnv(t)
	const task = "rewrite auth"
	a, logFile := e.path("src/a.go"), e.path(".lucid/log.jsonl")
	e.write(e.path("write.sh"), "echo 'package src' > src/c.go\n") // `sh FILE` is opaque to the guard

	var srv *api.Server
	// What the steps saw when they ran: the claims while the worker works,
	// before and after the lead's Stop, when the stop gate kept the worker
	// going, and after the worker stopped; the
	// files that existed before the last Write; whether the worker's
	// SubagentStop had run when the lead was woken. The steps run on the
	// server's goroutines: mu orders their writes before the test's reads.
	var mu sync.Mutex
	var during, beforeStop, leadStopped, gated, after []claimJSON
	var existed []string
	var stopsWhenWoken []call
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Agent", map[string]any{"description": task, "prompt": "[[sub:claim]] Claim src and rewrite auth.",
			"subagent_type": "general-purpose", "run_in_background": true}),
		func(*api.MessagesRequest) api.Reply {
			waitStep(t, srv, "worker", 1) // the worker's claim has run
			mu.Lock()
			during = e.claims()
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Write", Input: map[string]any{"file_path": a, "content": "package src\n"}}}}
		},
		api.Call("Bash", map[string]any{"command": "echo x > src/b.go", "description": "write b"}),
		api.Call("Bash", map[string]any{"command": "sh ./write.sh", "description": "run the script"}),
		api.Call("Write", map[string]any{"file_path": logFile, "content": "{}\n"}),
		api.Call("Bash", map[string]any{"command": `lucid claim 'docs/**' --for "write docs"`, "description": "claim docs"}),
		func(*api.MessagesRequest) api.Reply {
			mu.Lock()
			defer mu.Unlock()
			beforeStop = e.claims()
			for _, rel := range []string{"src/a.go", "src/b.go", "src/c.go"} {
				if _, err := os.Stat(e.path(rel)); err == nil {
					existed = append(existed, rel)
				}
			}
			return api.Reply{Text: "The worker holds src; I wait for it."}
		},
		func(*api.MessagesRequest) api.Reply { // woken by the worker's end
			mu.Lock()
			after = e.claims()
			stopsWhenWoken = e.hookCalls("SubagentStop")
			mu.Unlock()
			return api.Reply{Tools: []api.ToolCall{{Name: "Write", Input: map[string]any{"file_path": a, "content": "package src\n"}}}}
		},
		api.Say("Lead done."),
	}}
	worker := &api.Script{Name: "worker", Marker: "[[sub:claim]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": `lucid claim 'src/**' --for "` + task + `"`, "description": "claim src"}),
		api.Call("Write", map[string]any{"file_path": e.path("src/w.go"), "content": "package src\n"}),
		func(*api.MessagesRequest) api.Reply {
			waitStep(t, srv, "lead", 6) // the lead has made its last try
			waitHook(t, e, "Stop", 1)   // and ended its turn
			mu.Lock()
			leadStopped = e.claims()
			mu.Unlock()
			return api.Reply{Text: "Worker done."}
		},
		func(*api.MessagesRequest) api.Reply { // the stop gate asks for a report
			mu.Lock()
			gated = e.claims()
			mu.Unlock()
			return api.Reply{Text: "Nothing worth recording."}
		},
	}}
	srv = api.New(lead, worker)
	defer srv.Close()
	res := e.claude(srv, "[[lead]] Have a worker rewrite auth.")
	mu.Lock()
	defer mu.Unlock()

	l := srv.Conversation("lead")
	if len(l) != 9 {
		t.Fatalf("the lead sent %d requests, want 9\n%s\ncalls:\n%s", len(l), srv.Dump(), e.callsText())
	}
	session, agent := res.sessionID(), res.agentID("[[sub:claim]]")
	if session == "" || agent == "" {
		t.Fatalf("no session id (%q) or agent id (%q) in the client's output", session, agent)
	}

	// The claim is the subagent's: the hook stamped its id on the command.
	if len(during) != 1 || during[0].Owner != session+"/"+agent || strings.Join(during[0].Globs, " ") != "src/**" ||
		during[0].Task != task || !during[0].ThisWorktree {
		t.Fatalf("claims while the worker works = %+v; want src/** for %q by %q\ncalls:\n%s", during, task, session+"/"+agent, e.callsText())
	}
	claimed := "is claimed by " + during[0].Label + " for «" + task + "»"

	// The lead's Write and its redirection are denied, and the model reads
	// why as the tool's error.
	denied(t, l[2], "Write", "lucid: src/a.go "+claimed)
	denied(t, l[3], "Bash", "lucid: src/b.go "+claimed)
	if len(existed) != 1 || existed[0] != "src/c.go" {
		t.Errorf("before the worker stopped, these files existed: %v; want only src/c.go (the script's)", existed)
	}

	// The script wrote src/c.go: that is recorded, and the lead is told.
	var told []api.HookContext
	for _, c := range api.HookContexts(l[4].Messages.Tail()) {
		if strings.Contains(c.Text, "lucid: your command changed src/c.go, claimed by "+during[0].Label) {
			told = append(told, c)
		}
	}
	if len(told) != 1 || told[0].Hook != "PostToolUse:Bash" {
		t.Errorf("after the script, the lead was told of src/c.go %d times (%+v), want once, by PostToolUse:Bash\nlast user: %q",
			len(told), told, l[4].Messages.LastUserText())
	}
	var violations []logEntry
	if err := json.Unmarshal([]byte(e.run("lucid", "log", "--json", "--kind", "violation")), &violations); err != nil {
		t.Fatalf("lucid log --kind violation --json: %v", err)
	}
	if len(violations) != 1 || violations[0].Agent != session || !strings.HasPrefix(violations[0].Text, "changed src/c.go, claimed by "+during[0].Label) {
		t.Errorf("violation entries = %+v; want one by the lead %q about src/c.go", violations, session)
	}

	// The log is append-only for the lead too: its Write is denied, and
	// the log still holds the violation.
	denied(t, l[5], "Write", "lucid: .lucid/log.jsonl is append-only")
	if got := e.read(".lucid/log.jsonl"); !strings.Contains(got, `"kind":"violation"`) {
		t.Errorf("the log after the lead's Write:\n%s", got)
	}

	// The lead's claim of docs/** was its own, and its Stop ended it; the
	// worker's claim outlived the lead's turn.
	var leads []claimJSON
	for _, cl := range beforeStop {
		if cl.Owner == session {
			leads = append(leads, cl)
		}
	}
	if len(beforeStop) != 2 || len(leads) != 1 || strings.Join(leads[0].Globs, " ") != "docs/**" {
		t.Errorf("claims before the lead's Stop = %+v; want the worker's src/** and the lead's (%s) docs/**", beforeStop, session)
	}
	if len(leadStopped) != 1 || leadStopped[0].Owner != during[0].Owner {
		t.Errorf("claims after the lead's Stop = %+v; want only the worker's src/**", leadStopped)
	}

	// The worker's own Write into its claim passed.
	if got := e.read("src/w.go"); got != "package src\n" {
		t.Errorf("src/w.go = %q after the worker's Write", got)
	}

	// The stop gate kept the worker going (it wrote a file and recorded
	// nothing), and its claim with it; its second stop ended the claim,
	// before the lead was woken. Then the lead's Write passed.
	w := srv.Conversation("worker")
	if len(w) != 4 || !strings.Contains(w[3].Messages.LastUserText(), "Before you stop") {
		t.Fatalf("the worker sent %d requests, want 4, the last with the stop gate's reason\n%s\ncalls:\n%s", len(w), srv.Dump(), e.callsText())
	}
	if len(stopsWhenWoken) != 2 || stopsWhenWoken[0].str("agent_id") != agent || !strings.Contains(stopsWhenWoken[0].Stdout, `"decision":"block"`) ||
		stopsWhenWoken[1].Stdout != "" {
		t.Fatalf("when the lead was woken, SubagentStop had run %d times: %s\nwant twice for %s: a block, then a stop", len(stopsWhenWoken), e.callsText(), agent)
	}
	if !stopsWhenWoken[0].Start.After(l[6].At) {
		t.Errorf("the worker stopped (%s) before the lead's last try (%s)", stopsWhenWoken[0].Start, l[6].At)
	}
	if len(gated) != 1 || gated[0].Owner != during[0].Owner {
		t.Errorf("claims while the stop gate kept the worker going = %+v; want its src/**", gated)
	}
	if len(after) != 0 {
		t.Errorf("claims once the worker stopped = %+v, want none", after)
	}
	if u, r, ok := lastResult(l[8].Messages); !ok || u.Name != "Write" || r.IsError {
		t.Errorf("the lead's Write after the worker stopped: %s result %q (error %v)", u.Name, r.ResultText(), r.IsError)
	}
	if got := e.read("src/a.go"); got != "package src\n" {
		t.Errorf("src/a.go = %q after the lead's last Write", got)
	}
	if _, err := os.Stat(e.path("src/b.go")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("src/b.go exists after its write was denied (%v)", err)
	}
}

// claimJSON is a claim as `lucid claims --json` prints it.
type claimJSON struct {
	Owner        string   `json:"owner"`
	Label        string   `json:"label"`
	Globs        []string `json:"globs"`
	Task         string   `json:"task"`
	ThisWorktree bool     `json:"this_worktree"`
}

// claims reads the active claims with `lucid claims --json`. It may run
// inside a scripted step, off the test's goroutine: it reports, never stops.
func (e *env) claims() []claimJSON {
	out := []claimJSON{}
	text, err := e.output("lucid", "claims", "--json")
	if err == nil {
		err = json.Unmarshal([]byte(text), &out)
	}
	if err != nil {
		e.t.Errorf("lucid claims --json: %v", err)
	}
	return out
}

// denied checks that the request carries the result of a denied call of
// tool, as its last tool call, with the reason in the text the model reads.
func denied(t *testing.T, r *api.Request, tool, reason string) {
	t.Helper()
	u, res, ok := lastResult(r.Messages)
	switch {
	case !ok || u.Name != tool:
		t.Errorf("the lead's request at step %d does not answer a %s call (last call %q)", r.Step, tool, u.Name)
	case !res.IsError || !strings.Contains(res.ResultText(), reason):
		t.Errorf("the lead's %s at step %d: result %q (error %v); want an error with %q", tool, r.Step-1, res.ResultText(), res.IsError, reason)
	}
}

// lastResult returns the conversation's last tool call and its result.
func lastResult(r *api.MessagesRequest) (use, result api.Block, ok bool) {
	uses := r.ToolUses()
	if len(uses) == 0 {
		return api.Block{}, api.Block{}, false
	}
	use = uses[len(uses)-1]
	result, ok = r.ToolResult(use.ID)
	return use, result, ok
}
