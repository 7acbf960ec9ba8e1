package e2e

import (
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client/applypatch"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// TestCodexHookContract runs the real Codex binary through one session (a
// shell call, an apply_patch, two denied writes, a subagent whose
// SubagentStop blocks once, a Stop that blocks once) with the recording hook on every event, and checks the
// payload shapes and answers lucid's Codex adapter relies on: the tool
// names and tool_input.command, session_id and agent_id, the ids in the
// shell's environment, a deny reaching the model, additionalContext as a
// developer message, Stop's block and stop_hook_active.
func TestCodexHookContract(t *testing.T) {
	e := newCodexEnv(t)
	const (
		shellCmd  = `echo "$CODEX_SESSION_ID $CODEX_THREAD_ID" > ids-lead.txt; echo LEAD-SHELL`
		subCmd    = `echo "$CODEX_SESSION_ID $CODEX_THREAD_ID" > ids-sub.txt; echo SUB-SHELL`
		sedCmd    = `sed -i s/1/2/ src/claimed.go`
		denyPatch = "DENY-PATCH: src/claimed.go is claimed by lead·1bd236 (task: the parser)"
		denyShell = "DENY-SHELL: src/claimed.go is claimed by lead·1bd236"
		stopMark  = "STOP-MARK: record what you learned"
	)
	okPatch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello patched\n*** End Patch\n"
	claimedPatch := "*** Begin Patch\n*** Update File: src/claimed.go\n@@\n-var x = 1\n+var x = 2\n*** End Patch\n"

	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.Exec(shellCmd)),
		rs.Calls(rs.ApplyPatch(okPatch)),
		rs.Calls(rs.ApplyPatch(claimedPatch)),
		rs.Calls(rs.Exec(sedCmd)),
		rs.Calls(rs.Spawn("[[codex-sub]] write your ids")),
		rs.WaitSpawned(60000),
		rs.Say("Lead done."),
		rs.Say("Lead done, after the stop hook."),
	}}
	sub := &rs.Script{Name: "sub", Marker: "[[codex-sub]]", Steps: []rs.Step{
		rs.Calls(rs.Exec(subCmd)),
		rs.Say("Sub done."),
		rs.Say("Sub done, after the stop hook."),
	}}
	srv := rs.New(lead, sub)
	defer srv.Close()
	e.config(srv, "")
	e.answer(
		hookRule{Event: "SessionStart", Stdout: hookJSON("SessionStart", map[string]any{"additionalContext": "CTX-SESSIONSTART"})},
		hookRule{Event: "UserPromptSubmit", Stdout: hookJSON("UserPromptSubmit", map[string]any{"additionalContext": "CTX-PROMPT"})},
		hookRule{Event: "PreToolUse", Tool: "apply_patch", Contains: "src/claimed.go", Stdout: hookJSON("PreToolUse",
			map[string]any{"permissionDecision": "deny", "permissionDecisionReason": denyPatch})},
		hookRule{Event: "PreToolUse", Tool: "Bash", Contains: "src/claimed.go", Stdout: hookJSON("PreToolUse",
			map[string]any{"permissionDecision": "deny", "permissionDecisionReason": denyShell})},
		hookRule{Event: "PreToolUse", Tool: "Bash", Contains: "ids-lead", Stdout: hookJSON("PreToolUse", map[string]any{"additionalContext": "CTX-PRETOOL"})},
		hookRule{Event: "PostToolUse", Tool: "Bash", Contains: "ids-lead", Stdout: hookJSON("PostToolUse", map[string]any{"additionalContext": "CTX-POSTTOOL"})},
		hookRule{Event: "Stop", Once: true, Stdout: `{"decision":"block","reason":"` + stopMark + `"}`},
		hookRule{Event: "SubagentStart", Stdout: hookJSON("SubagentStart", map[string]any{"additionalContext": "CTX-SUBAGENTSTART"})},
		hookRule{Event: "SubagentStop", Once: true, Stdout: `{"decision":"block","reason":"SUBSTOP-MARK"}`},
	)
	e.exec(srv, "[[codex-lead]] Do the scripted work.", "--dangerously-bypass-hook-trust")

	leadReqs, subReqs := srv.Conversation("lead"), srv.Conversation("sub")
	if len(leadReqs) != 8 || len(subReqs) != 3 {
		t.Fatalf("want 8 lead and 3 sub requests, got %d and %d\n%s\nhooks:\n%s", len(leadReqs), len(subReqs), srv.Dump(), e.hooksText())
	}
	session, subThread := leadReqs[0].Thread, subReqs[0].Thread
	if session == "" || subThread == "" || session == subThread || !subReqs[0].Subagent || leadReqs[0].Subagent {
		t.Fatalf("threads: lead %q, sub %q (subagent %v)", session, subThread, subReqs[0].Subagent)
	}

	// Every payload names the root session; a subagent's also its agent_id.
	for _, c := range e.hookCalls("") {
		if got := c.str("session_id"); got != session {
			t.Errorf("%s: session_id %q, want the root session %q", c.Event, got, session)
		}
		if c.Env["CODEX_THREAD_ID"] != "" || c.Env["CODEX_SESSION_ID"] != "" {
			t.Errorf("%s: the hook's environment has CODEX_THREAD_ID/CODEX_SESSION_ID: %v", c.Event, c.Env)
		}
	}
	if ss := e.hookCalls("SessionStart"); len(ss) != 1 || ss[0].str("source") != "startup" {
		t.Errorf("SessionStart: want one, source startup:\n%s", e.hooksText())
	}

	// The shell call: tool_name Bash, the command as the model wrote it,
	// tool_use_id the call's id; the shell saw the session and thread ids.
	pre := toolCalls(e, "PreToolUse", "Bash")
	if len(pre) != 3 {
		t.Fatalf("want 3 PreToolUse(Bash) (lead shell, sed, sub shell), got %d:\n%s", len(pre), e.hooksText())
	}
	if pre[0].command() != shellCmd || pre[0].str("agent_id") != "" {
		t.Errorf("PreToolUse(Bash): command %q agent_id %q", pre[0].command(), pre[0].str("agent_id"))
	}
	callID := callIDOf(leadReqs[1], "exec_command")
	if pre[0].str("tool_use_id") != callID || callID == "" {
		t.Errorf("tool_use_id %q, want the call's id %q", pre[0].str("tool_use_id"), callID)
	}
	if got := strings.TrimSpace(e.read("ids-lead.txt")); got != session+" "+session {
		t.Errorf("the lead's shell saw CODEX_SESSION_ID CODEX_THREAD_ID = %q, want %q twice", got, session)
	}

	// additionalContext reaches the model as developer messages: from
	// SessionStart and UserPromptSubmit in the first request, from Pre- and
	// PostToolUse in the request after the call.
	for _, want := range []string{"CTX-SESSIONSTART", "CTX-PROMPT"} {
		if !containsText(leadReqs[0].Responses.Developer(), want) {
			t.Errorf("the first request has no developer message %q", want)
		}
	}
	for _, want := range []string{"CTX-PRETOOL", "CTX-POSTTOOL"} {
		if !containsText(itemsOfRole(leadReqs[1].Responses.Tail(), "developer"), want) {
			t.Errorf("the request after the shell call has no developer message %q\n%s", want, srv.Dump())
		}
	}

	// The allowed apply_patch: tool_name apply_patch, the whole patch in
	// tool_input.command; applied.
	patches := toolCalls(e, "PreToolUse", "apply_patch")
	if len(patches) != 2 || patches[0].command() != okPatch || patches[1].command() != claimedPatch {
		t.Fatalf("PreToolUse(apply_patch): want the two patches as the model wrote them:\n%s", e.hooksText())
	}
	for i, want := range []string{"a.txt", "src/claimed.go"} {
		p, err := applypatch.Parse(patches[i].command())
		if got := p.Paths(patches[i].str("cwd")); err != nil || len(got) != 1 || got[0] != e.path(want) {
			t.Errorf("the guard reads %q (%v) from the patch that writes %s", got, err, want)
		}
	}
	if got := e.read("a.txt"); got != "hello patched\n" {
		t.Errorf("a.txt = %q: the allowed patch was not applied", got)
	}

	// The denied patch and the denied sed: the file is unchanged, no
	// PostToolUse, and the model's next request carries the reason.
	if got := e.read("src/claimed.go"); got != "package src\n\nvar x = 1\n" {
		t.Errorf("src/claimed.go changed under two denies: %q", got)
	}
	for i, deny := range []string{denyPatch, denyShell} {
		out := lastOutput(leadReqs[3+i].Responses)
		if want := "Command blocked by PreToolUse hook: " + deny; !strings.HasPrefix(out, want) {
			t.Errorf("after deny %d the model read %q, want it to start %q", i+1, out, want)
		}
	}
	for _, c := range e.hookCalls("PostToolUse") {
		if strings.Contains(c.command(), "src/claimed.go") {
			t.Errorf("PostToolUse fired for a denied call: %q", c.command())
		}
	}

	// The subagent: SubagentStart and SubagentStop carry its agent_id (its
	// thread id); its tool events carry it too, with the root session_id;
	// its shell saw CODEX_SESSION_ID = root, CODEX_THREAD_ID = its own.
	starts, stops := e.hookCalls("SubagentStart"), e.hookCalls("SubagentStop")
	if len(starts) != 1 || len(stops) != 2 || starts[0].str("agent_id") != subThread || stops[0].str("agent_id") != subThread {
		t.Fatalf("want one SubagentStart and two SubagentStop with agent_id %q:\n%s", subThread, e.hooksText())
	}
	// SubagentStart's context reaches the subagent's first request (so
	// does UserPromptSubmit's, which fires inside the subagent too).
	for _, want := range []string{"CTX-SUBAGENTSTART", "CTX-PROMPT"} {
		if !containsText(subReqs[0].Responses.Developer(), want) {
			t.Errorf("the subagent's first request has no developer message %q", want)
		}
	}
	if ups := e.hookCalls("UserPromptSubmit"); len(ups) != 2 || ups[1].str("agent_id") != subThread || ups[1].str("prompt") != "[[codex-sub]] write your ids" {
		t.Errorf("want UserPromptSubmit in the subagent too, with its agent_id and the spawn message as prompt:\n%s", e.hooksText())
	}
	// SubagentStop's block runs the subagent once more with the reason;
	// the second SubagentStop has stop_hook_active.
	if stops[0].Payload["stop_hook_active"] != false || stops[1].Payload["stop_hook_active"] != true {
		t.Errorf("SubagentStop stop_hook_active: %v then %v", stops[0].Payload["stop_hook_active"], stops[1].Payload["stop_hook_active"])
	}
	if !containsText(itemsOfRole(subReqs[2].Responses.Tail(), "user"), "SUBSTOP-MARK") {
		t.Errorf("the subagent's request after SubagentStop's block lacks the reason\n%s", srv.Dump())
	}
	if pre[2].command() != subCmd || pre[2].str("agent_id") != subThread {
		t.Errorf("the sub's PreToolUse(Bash): command %q agent_id %q, want %q", pre[2].command(), pre[2].str("agent_id"), subThread)
	}
	if got := strings.TrimSpace(e.read("ids-sub.txt")); got != session+" "+subThread {
		t.Errorf("the sub's shell saw %q, want %q", got, session+" "+subThread)
	}
	for _, c := range e.hookCalls("Stop") {
		if c.str("agent_id") != "" {
			t.Errorf("Stop fired inside the subagent: %s", c.Stdin)
		}
	}
	if n := len(e.hookCalls("SessionStart")); n != 1 {
		t.Errorf("SessionStart fired %d times: the subagent gets none", n)
	}

	// Stop: the block starts one more request carrying the reason; the
	// second Stop has stop_hook_active.
	st := e.hookCalls("Stop")
	if len(st) != 2 || st[0].Payload["stop_hook_active"] != false || st[1].Payload["stop_hook_active"] != true {
		t.Fatalf("want two Stops, stop_hook_active false then true:\n%s", e.hooksText())
	}
	if !containsText(itemsOfRole(leadReqs[7].Responses.Tail(), "user"), stopMark) {
		t.Errorf("the request after the Stop block lacks %q\n%s", stopMark, srv.Dump())
	}
	if got := st[0].str("last_assistant_message"); got != "Lead done." {
		t.Errorf("Stop's last_assistant_message = %q", got)
	}
}

// toolCalls returns the calls of event for a tool.
func toolCalls(e *codexEnvT, event, tool string) []hookCall {
	var out []hookCall
	for _, c := range e.hookCalls(event) {
		if c.str("tool_name") == tool {
			out = append(out, c)
		}
	}
	return out
}

// callIDOf is the call id of the last call of a tool in the request.
func callIDOf(r *rs.Request, name string) string {
	id := ""
	for _, c := range r.Responses.Calls() {
		if c.Name == name {
			id = c.CallID
		}
	}
	return id
}

// lastOutput is the text of the last call output in the request.
func lastOutput(r *rs.ResponsesRequest) string {
	for i := len(r.Input) - 1; i >= 0; i-- {
		if strings.HasSuffix(r.Input[i].Type, "_output") {
			return r.Input[i].Text()
		}
	}
	return ""
}

func itemsOfRole(items []rs.Item, role string) []string {
	var out []string
	for _, it := range items {
		if it.Type == "message" && it.Role == role {
			out = append(out, it.Text())
		}
	}
	return out
}

func containsText(texts []string, want string) bool {
	for _, s := range texts {
		if strings.Contains(s, want) {
			return true
		}
	}
	return false
}
