package e2e

// Agents of different clients talk through lucid: what one says reaches
// the one it names, once, whichever client runs each.

import (
	"fmt"
	"strings"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// A Claude Code lead tells a Codex agent something with lucid tell, by
// the Codex agent's id, while both work: the Codex agent's next request
// carries the message once, set apart with the command that answers it,
// and the Codex agent's reply reaches the Claude lead.
func TestCodexHearsClaude(t *testing.T) {
	const said, answer = "claude: I moved the auth tests to test/auth", "codex: noted, I will run them there"
	csrv, srv := claudeTellsCodex(t, said, said, answer, answer)
	reqs := srv.Conversation("lead")
	last := strings.Join(reqs[4].Responses.Developer(), "\n")
	if n := strings.Count(last, said); n != 1 || !strings.Contains(last, "a message for you from lead·") || !strings.Contains(last, "Reply with: lucid reply ") {
		t.Errorf("the Codex agent was told the message %d times, want once, set apart:\n%s", n, clip(last, 4000))
	}
	claudeReqs := csrv.Conversation("lead")
	var heard, own int
	for _, c := range api.HookContexts(claudeReqs[len(claudeReqs)-1].Messages.Messages) {
		heard += strings.Count(c.Text, answer)
		own += strings.Count(c.Text, said)
	}
	if heard != 1 || own != 0 {
		t.Errorf("the Claude lead heard the reply %d times (want once) and its own message %d times (want none)\n%s", heard, own, csrv.Dump())
	}
}

// claudeTellsCodex runs a Claude Code lead beside a Codex agent, both
// working: the lead tells the Codex agent said with lucid tell, by its id;
// the Codex agent, once the log holds saidMark, replies answer to the
// message, which its next request carries; the lead works on until the
// log holds answerMark. It returns the two model servers, whose
// conversations hold what each model read; the Codex agent made five
// requests.
func claudeTellsCodex(t *testing.T, said, saidMark, answer, answerMark string) (*api.Server, *rs.Server) {
	t.Helper()
	e := newCodexLucid(t, true)
	var srv *rs.Server
	started := make(chan string, 1) // the Codex agent's session, once it works
	var codexSession string         // read by the Claude lead's steps after started
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "echo starting", "description": "start"}),
		func(*api.MessagesRequest) api.Reply {
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": fmt.Sprintf("lucid tell %s %s", codexSession, ansiC(said)), "description": "tell"}}}}
		},
		func(*api.MessagesRequest) api.Reply {
			waitFor(func() bool { return e.logHas(answerMark) })
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo listening", "description": "listen"}}}}
		},
		api.Say("Claude done."),
	}}
	csrv := api.New(claudeLead)
	t.Cleanup(csrv.Close)
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			select {
			case started <- srv.Conversation("lead")[0].Thread:
			default:
			}
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo working")}}
		},
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(func() bool { return e.logHas(saidMark) })
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo next")}}
		},
		func(r *rs.ResponsesRequest) rs.Reply {
			id := messageID(strings.Join(r.Developer(), "\n"), saidMark)
			return rs.Reply{Calls: []rs.Call{rs.Exec(fmt.Sprintf("lucid reply %s %s", id, ansiC(answer)))}}
		},
		rs.Calls(rs.Exec("echo again")),
		rs.Say("Codex done."),
	}}
	srv = rs.New(lead)
	t.Cleanup(srv.Close)
	e.config(srv, "")
	claudeErr := make(chan error, 1)
	go func() {
		codexSession = <-started
		_, err := e.claudeRun(csrv, "[[claude-lead]] Tell the Codex agent.")
		claudeErr <- err
	}()
	e.codexExec(srv, "[[codex-lead]] Work on login.")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Conversation("lead"); len(reqs) != 5 {
		t.Fatalf("want 5 Codex requests, got %d\n%s", len(reqs), srv.Dump())
	}
	return csrv, srv
}

// messageID is the id of the message whose text is said, in a delta
// (where it is fenced: «said»).
func messageID(delta, said string) string {
	i := strings.Index(delta, "): «"+said)
	if i < 26 {
		return "NO-MESSAGE-ID"
	}
	return delta[i-26 : i]
}
