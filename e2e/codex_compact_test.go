package e2e

import (
	"strings"
	"testing"

	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// TestCodexAutoSummary: a response that reports more input tokens than
// model_auto_compact_token_limit makes Codex 0.169.0 compact the history in
// the middle of the turn, by asking the model for a summary (request kind
// "compaction"). The hooks around it: PreCompact and PostCompact with
// trigger "auto", then SessionStart with source "compact", whose
// additionalContext reaches the next request; what SessionStart added at
// startup is gone from it, so lucid must give the digest again there.
func TestCodexAutoSummary(t *testing.T) {
	e := newCodexEnv(t)
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Summary: "SUMMARY-MARK", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo before-compaction")}, InputTokens: 2000000}
		},
		rs.Say("Done after the compaction."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "model_auto_compact_token_limit = 5000\nmodel_context_window = 20000\n")
	e.answer(
		hookRule{Event: "SessionStart", Where: map[string]string{"source": "startup"},
			Stdout: hookJSON("SessionStart", map[string]any{"additionalContext": "CTX-STARTUP"})},
		hookRule{Event: "SessionStart", Where: map[string]string{"source": "compact"},
			Stdout: hookJSON("SessionStart", map[string]any{"additionalContext": "CTX-AFTER-COMPACT"})},
	)
	e.exec(srv, "[[codex-lead]] Run one command.", "--dangerously-bypass-hook-trust")

	reqs := srv.Conversation("lead")
	if len(reqs) != 3 || reqs[0].Compaction || !reqs[1].Compaction || reqs[2].Compaction {
		t.Fatalf("want a turn, a compaction and a turn request:\n%s", srv.Dump())
	}
	if reqs[1].RequestKind != "compaction" || len(reqs[1].Responses.Tools) != 0 {
		t.Errorf("the compaction request: kind %q, %d tools", reqs[1].RequestKind, len(reqs[1].Responses.Tools))
	}

	var order []string
	for _, c := range e.hookCalls("") {
		switch c.Event {
		case "PreCompact", "PostCompact":
			if c.str("trigger") != "auto" || c.str("turn_id") == "" {
				t.Errorf("%s: trigger %q turn_id %q, want auto and the turn", c.Event, c.str("trigger"), c.str("turn_id"))
			}
			order = append(order, c.Event)
		case "SessionStart":
			order = append(order, c.Event+":"+c.str("source"))
		case "PostToolUse", "Stop":
			order = append(order, c.Event)
		}
	}
	want := "SessionStart:startup PostToolUse PreCompact PostCompact SessionStart:compact Stop"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("hook order:\n got %s\nwant %s\n%s", got, want, e.hooksText())
	}

	after := reqs[2].Responses
	if !containsText(after.Developer(), "CTX-AFTER-COMPACT") {
		t.Errorf("SessionStart(compact)'s context is not in the request after the compaction")
	}
	if containsText(after.Developer(), "CTX-STARTUP") {
		t.Errorf("the startup context survived the compaction; lucid need not repeat the digest")
	}
	if !containsText(after.Messages("user"), "SUMMARY-MARK") {
		t.Errorf("the summary is not in the request after the compaction")
	}
}
