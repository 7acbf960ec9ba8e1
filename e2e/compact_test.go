package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// streamSession is `claude -p --input-format stream-json`: a session that
// takes one user message after another on stdin, as an SDK drives it.
type streamSession struct {
	e      *env
	srv    *api.Server
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	cancel context.CancelFunc

	mu      sync.Mutex
	events  []map[string]any
	stdout  strings.Builder
	changed chan struct{} // closed and replaced at every line
	done    chan struct{} // closed when stdout ends
}

// stream starts the session in the repository against the server.
func (e *env) stream(srv *api.Server, extra ...string) *streamSession {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	cmd := exec.CommandContext(ctx, claudeBin, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
		"--verbose", "--permission-mode", "bypassPermissions")
	cmd.Dir = e.repo
	cmd.Env = e.environ(append([]string{
		"ANTHROPIC_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=x",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "IS_SANDBOX=1",
	}, extra...)...)
	cmd.WaitDelay = 10 * time.Second
	s := &streamSession{e: e, srv: srv, cmd: cmd, cancel: cancel, changed: make(chan struct{}), done: make(chan struct{})}
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		e.t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	srv.Requests() // orders the set-up before the steps, as in claude()
	if err := cmd.Start(); err != nil {
		e.t.Fatalf("starting claude: %v", err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			var ev map[string]any
			json.Unmarshal(sc.Bytes(), &ev)
			s.mu.Lock()
			s.stdout.Write(append(sc.Bytes(), '\n'))
			if ev != nil {
				s.events = append(s.events, ev)
			}
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
		}
		close(s.done)
	}()
	e.t.Cleanup(s.close)
	return s
}

// say sends one user message and waits for the turn's result.
func (s *streamSession) say(text string) {
	s.e.t.Helper()
	before := s.results()
	line, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	if _, err := s.stdin.Write(append(line, '\n')); err != nil {
		s.fail("writing to claude: %v", err)
	}
	deadline := time.After(waitLong)
	for s.results() == before {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-s.done:
			s.fail("claude ended before answering %q", text)
		case <-deadline:
			s.fail("claude did not answer %q in %s", text, waitLong)
		}
	}
}

func (s *streamSession) results() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, ev := range s.events {
		if ev["type"] == "result" {
			n++
		}
	}
	return n
}

// end closes stdin, so that the session ends, and waits for it.
func (s *streamSession) end() {
	s.e.t.Helper()
	s.stdin.Close()
	if err := s.cmd.Wait(); err != nil {
		s.fail("claude: %v", err)
	}
}

func (s *streamSession) close() {
	s.stdin.Close()
	s.cancel()
	s.cmd.Wait()
	s.mu.Lock()
	out := s.stdout.String()
	s.mu.Unlock()
	s.e.dump(s.srv, result{run: run{stdout: out}})
}

func (s *streamSession) fail(format string, args ...any) {
	s.e.t.Helper()
	s.mu.Lock()
	out := s.stdout.String()
	s.mu.Unlock()
	s.e.t.Fatalf(format+"\nstdout:\n%s\nrequests:\n%s\ncalls:\n%s", append(args, clip(out, 4000), s.srv.Dump(), s.e.callsText())...)
}

// compacting reports whether a request is Claude Code's compaction: the
// conversation so far, asked for a summary in plain text.
func compacting(r *api.MessagesRequest) bool {
	return strings.Contains(r.LastUserText(), "Respond with TEXT ONLY")
}

// /compact in a stream-json session: the digest the session gets after the
// compaction carries the decision recorded before it, once.
func TestCompactDigestOnce(t *testing.T) {
	e := newEnv(t)
	const decision = "Keep the login page in plain HTML"
	// The compaction's summary carries the marker of the conversation
	// after it, whose first user message is that summary.
	summary := func(r *api.MessagesRequest) (api.Reply, bool) {
		if compacting(r) {
			return api.Reply{Text: "<analysis>A decision.</analysis>\n<summary>[[after]] The user asked to record a decision; it was.</summary>"}, true
		}
		return api.Reply{}, false
	}
	orSummary := func(s api.Step) api.Step {
		return func(r *api.MessagesRequest) api.Reply {
			if rep, ok := summary(r); ok {
				return rep
			}
			return s(r)
		}
	}
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		api.Call("Bash", bash(`lucid decision "`+decision+`"`)),
		orSummary(api.Say("Recorded.")),
	}, Done: orSummary(api.Say("Lead done."))}
	after := &api.Script{Name: "after", Marker: "[[after]]", Steps: []api.Step{
		api.Call("Bash", bash("echo after")),
		api.Say("Nothing else to do."),
	}}
	srv := api.New(lead, after)
	defer srv.Close()
	if recording() {
		e.installProbes(nil)
		t.Cleanup(e.record)
	}
	s := e.stream(srv)
	s.say("[[lead]] Record the decision.")
	s.say("/compact")
	s.say("What now?")
	s.end()

	var id string
	for _, en := range e.log() {
		if en.Text == decision {
			id = en.ID
		}
	}
	if id == "" {
		t.Fatalf("the decision is not in the log\ncalls:\n%s", e.callsText())
	}
	// The compaction ran: SessionStart again, with source compact.
	var compacted []call
	for _, c := range e.hookCalls("SessionStart") {
		if c.str("source") == "compact" {
			compacted = append(compacted, c)
		}
	}
	if len(compacted) != 1 {
		t.Fatalf("SessionStart with source compact ran %d times, want once\ncalls:\n%s", len(compacted), e.callsText())
	}
	reqs := srv.Conversation("after")
	if len(reqs) == 0 {
		t.Fatalf("no request after the compaction\n%s", srv.Dump())
	}
	for _, r := range reqs {
		ctx := only(t, api.HookContexts(r.Messages.Messages), "SessionStart")
		if !strings.Contains(ctx.Text, decision) {
			t.Errorf("the digest after the compaction (step %d) lacks the decision:\n%s", r.Step, ctx.Text)
		}
		if n := strings.Count(r.Messages.AllText(), id); n != 1 {
			t.Errorf("the request after the compaction at step %d carries the decision %d times, want once\n%s", r.Step, n, r.Messages.AllText())
		}
	}
}

// A teammate's conversation is compacted (the server reports a prompt near
// the context window): Claude Code starts it again with SessionStart
// (source compact) under the teammate's agent_id, and its next request
// carries the digest once, with the decision it recorded before.
func TestCompactTeammateDigestOnce(t *testing.T) {
	e := newEnv(t)
	const decision = "Parse the config once, at start-up"
	alpha := newMate("alpha", "config",
		api.Call("Bash", bash(`lucid decision "`+decision+`"`)),
		func(r *api.MessagesRequest) api.Reply {
			if compacting(r) {
				return api.Reply{Text: "<summary>[[alpha-after]] alpha recorded a decision.</summary>"}
			}
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: bash("echo much")}}, InputTokens: 990000}
		})
	alpha.after = &api.Script{Name: "alpha-after", Marker: "[[alpha-after]]", Steps: []api.Step{
		api.Call("Bash", bash("echo after")),
		api.Say("alpha is done."),
	}}
	srv, c := e.team([]mate{alpha})
	c.waitCalls("alpha idle", func() bool { return e.idle("alpha", 1) })
	c.exit()

	id := e.agentOf("alpha")
	var starts []call
	for _, c := range e.hookCalls("SessionStart") {
		if c.str("agent_id") == id && c.str("source") == "compact" {
			starts = append(starts, c)
		}
	}
	if id == "" || len(starts) != 1 {
		t.Fatalf("alpha (%q) had %d SessionStart with source compact, want 1\ncalls:\n%s", id, len(starts), e.callsText())
	}
	var decID string
	for _, en := range e.log() {
		if en.Text == decision {
			decID = en.ID
		}
	}
	reqs := srv.Conversation("alpha-after")
	if decID == "" || len(reqs) == 0 {
		t.Fatalf("no decision in the log (%q) or no request after the compaction\n%s", decID, srv.Dump())
	}
	for _, r := range reqs {
		text := r.Messages.AllText()
		if n := strings.Count(text, digestHeader); n != 1 {
			t.Errorf("alpha's request after the compaction (step %d) carries the digest %d times, want once", r.Step, n)
		}
		if n := strings.Count(text, decID); n != 1 {
			t.Errorf("alpha's request after the compaction (step %d) carries its decision %d times, want once\n%s", r.Step, n, text)
		}
	}
}
