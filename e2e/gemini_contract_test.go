package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gem "github.com/lucid-dev/lucid/internal/testkit/scripted/generatecontent"
)

// TestGeminiHookContract runs the real Gemini CLI with a recording hook
// on every event and checks the parts of its hook contract that lucid's
// Gemini adapter will stand on. Where one of these fails after an upgrade,
// the adapter must change with it.
func TestGeminiHookContract(t *testing.T) {
	t.Run("deny and context", geminiDenyAndContext)
	t.Run("tool input replaced", geminiToolInputReplaced)
	t.Run("subagent", geminiSubagent)
	t.Run("timeout in milliseconds", geminiHookTimeout)
	t.Run("workspace trust", geminiWorkspaceTrust)
	t.Run("relative paths", geminiRelativePaths)
	t.Run("compression", geminiCompression)
	t.Run("resume", geminiResume)
	t.Run("hooks disabled", geminiHooksDisabled)
}

// hookContext is a hook answer that adds context for the model.
func hookContext(event, text string) hookAnswer {
	return hookAnswer{Stdout: map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": event, "additionalContext": text}}}
}

// The payloads of one prompt's hooks; a deny (JSON, and exit 2) stops
// write_file and replace and its reason reaches the model; context reaches
// the model from SessionStart, BeforeAgent and AfterTool, not from
// BeforeTool; an AfterAgent deny buys exactly one more turn.
func geminiDenyAndContext(t *testing.T) {
	w := newGeminiWorld(t)
	w.answer(map[string]hookAnswer{
		"SessionStart": hookContext("SessionStart", "CTX-SESSIONSTART"),
		"BeforeAgent":  hookContext("BeforeAgent", "CTX-BEFOREAGENT"),
		"BeforeTool:run_shell_command": {Match: "src/denied.txt", Stdout: map[string]any{"decision": "deny", "reason": "DENY-SHELL src/** is claimed"},
			Otherwise: ptr(hookContext("BeforeTool", "CTX-BEFORETOOL"))},
		"AfterTool":             hookContext("AfterTool", "CTX-AFTERTOOL"),
		"BeforeTool:write_file": {Stdout: map[string]any{"decision": "deny", "reason": "DENY-WRITE src/** is claimed"}},
		"BeforeTool:replace":    {Stderr: "DENY-REPLACE notes.txt is claimed", Exit: 2},
		"AfterAgent":            {Stdout: map[string]any{"decision": "deny", "reason": "AGAIN-MARK record your notes"}, Once: true},
	})
	newFile, notes := w.path("src/new.go"), w.path("notes.txt")
	lead := &gem.Script{Name: "lead", Marker: "[[contract]]", Steps: []gem.Step{
		gem.Shell("env | sort > shell-env.txt; echo SHELL-OK"),
		gem.WriteFile(newFile, "package src\n"),
		gem.Replace(notes, "hello world", "goodbye world"),
		gem.Shell("echo x > src/denied.txt"),
		gem.Say("FIRST-ANSWER"),
		gem.Say("SECOND-ANSWER"),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	res := w.gemini(srv, "[[contract]] do it")
	if res.code != 0 {
		t.Fatalf("gemini -p exited %d\nstderr:\n%s\nrequests:\n%s", res.code, clip(res.stderr, 4000), srv.Dump())
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 6 {
		t.Fatalf("the lead sent %d requests, want 6 (four tools, the answer, the answer after the AfterAgent deny)\nhooks:\n%s\n%s",
			len(reqs), w.hookOrder(), srv.Dump())
	}

	// Every payload carries the session and where it runs.
	calls := w.hooks()
	sessionID := ""
	for _, c := range calls {
		for _, k := range []string{"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"} {
			if c.str(k) == "" {
				t.Errorf("%s payload lacks %s: %s", c.Event, k, c.Raw)
			}
		}
		if c.str("hook_event_name") != c.Event {
			t.Errorf("hook for %s got hook_event_name %q", c.Event, c.str("hook_event_name"))
		}
		if sessionID == "" {
			sessionID = c.str("session_id")
		}
		if c.str("session_id") != sessionID {
			t.Errorf("%s has session_id %q, the session's is %q", c.Event, c.str("session_id"), sessionID)
		}
		// A hook process learns the session from its environment too.
		if c.Env["GEMINI_SESSION_ID"] != sessionID || c.Env["GEMINI_PROJECT_DIR"] != w.repo {
			t.Errorf("%s hook env: GEMINI_SESSION_ID=%q GEMINI_PROJECT_DIR=%q, want %q and %q", c.Event,
				c.Env["GEMINI_SESSION_ID"], c.Env["GEMINI_PROJECT_DIR"], sessionID, w.repo)
		}
	}
	if got := w.hooksOf("SessionStart", ""); len(got) != 1 || got[0].str("source") != "startup" {
		t.Errorf("SessionStart calls: %d, source %q; want one, startup", len(got), firstStr(got, "source"))
	}
	if got := w.hooksOf("SessionEnd", ""); len(got) != 1 || got[0].str("reason") != "exit" {
		t.Errorf("SessionEnd calls: %d, reason %q; want one, exit", len(got), firstStr(got, "reason"))
	}

	// BeforeTool: the tool's name and its arguments as the model gave them.
	wantInputs := []map[string]string{
		{"tool_name": "run_shell_command", "command": "env | sort > shell-env.txt; echo SHELL-OK"},
		{"tool_name": "write_file", "file_path": newFile, "content": "package src\n"},
		{"tool_name": "replace", "file_path": notes, "old_string": "hello world", "new_string": "goodbye world"},
		{"tool_name": "run_shell_command", "command": "echo x > src/denied.txt"},
	}
	before := w.hooksOf("BeforeTool", "")
	if len(before) != len(wantInputs) {
		t.Fatalf("BeforeTool ran %d times, want %d\n%s", len(before), len(wantInputs), w.hookOrder())
	}
	for i, want := range wantInputs {
		for k, v := range want {
			got := before[i].input()[k]
			if k == "tool_name" {
				got = before[i].str(k)
			}
			if got != v {
				t.Errorf("BeforeTool #%d %s = %v, want %q", i+1, k, got, v)
			}
		}
	}

	// The shell ran, saw no session id, and AfterTool had its result.
	shellEnv := w.content("shell-env.txt")
	if !strings.Contains(shellEnv, "GEMINI_CLI=1\n") || strings.Contains(shellEnv, "GEMINI_SESSION_ID=") {
		t.Errorf("a shell command's environment should have GEMINI_CLI=1 and no GEMINI_SESSION_ID:\n%s", shellEnv)
	}
	after := w.hooksOf("AfterTool", "")
	if len(after) != 1 || after[0].str("tool_name") != "run_shell_command" {
		t.Fatalf("AfterTool ran for %d tools, want only the shell (denied tools get none):\n%s", len(after), w.hookOrder())
	}
	resp, _ := after[0].Payload["tool_response"].(map[string]any)
	if llm, _ := resp["llmContent"].(string); !strings.Contains(llm, "SHELL-OK") {
		t.Errorf("AfterTool tool_response = %v, want llmContent with the output", resp)
	}

	// A deny leaves the file alone, and its reason is the tool's result.
	if w.content("src/new.go") != "" {
		t.Errorf("write_file was denied, but src/new.go exists")
	}
	if got := w.content("notes.txt"); got != "hello world\nline two\n" {
		t.Errorf("replace was denied by exit 2, but notes.txt is %q", got)
	}
	if w.content("src/denied.txt") != "" {
		t.Errorf("the shell command was denied, but src/denied.txt exists")
	}
	for step, want := range map[int]string{2: "DENY-WRITE src/** is claimed", 3: "DENY-REPLACE notes.txt is claimed", 4: "DENY-SHELL src/** is claimed"} {
		r := reqs[step].Generate.LastResponse()
		if reason, ok := r.Blocked(); !ok || !strings.Contains(reason, want) {
			t.Errorf("request %d: the tool's result is %q, want \"Tool execution blocked: %s\"", step, r.Output(), want)
		}
	}

	// Context: where each hook's additionalContext shows up.
	first := gem.HookContexts(reqs[0].Generate.Contents)
	if len(first) != 2 || first[0].Text != "CTX-SESSIONSTART" || first[1].Text != "CTX-BEFOREAGENT" {
		t.Errorf("the first request's hook contexts are %+v, want SessionStart's, then BeforeAgent's", first)
	}
	if p := reqs[0].Generate.Contents[0].Text(); !strings.Contains(p, "<hook_context>CTX-SESSIONSTART</hook_context>\n\n[[contract]] do it") {
		t.Errorf("SessionStart's context is not in front of the prompt:\n%s", p)
	}
	fromTool := gem.HookContexts(reqs[1].Generate.Contents)
	if len(fromTool) != 3 || fromTool[2].Where != "function_response" || fromTool[2].Tool != "run_shell_command" || fromTool[2].Text != "CTX-AFTERTOOL" {
		t.Errorf("after the shell, hook contexts are %+v, want AfterTool's at the end of its result", fromTool)
	}
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Body), "CTX-BEFORETOOL") {
			t.Errorf("BeforeTool's additionalContext reached the model (request #%d): lucid must not count on it, but then it could use it", r.Seq)
		}
	}

	// AfterAgent deny: one more turn, prompted with the reason.
	agents := w.hooksOf("AfterAgent", "")
	if len(agents) != 2 {
		t.Fatalf("AfterAgent ran %d times, want 2:\n%s", len(agents), w.hookOrder())
	}
	if agents[0].Payload["stop_hook_active"] != false || agents[1].Payload["stop_hook_active"] != true {
		t.Errorf("stop_hook_active: %v then %v, want false then true", agents[0].Payload["stop_hook_active"], agents[1].Payload["stop_hook_active"])
	}
	if agents[0].str("prompt_response") != "FIRST-ANSWER" || !strings.Contains(agents[1].str("prompt_response"), "SECOND-ANSWER") {
		t.Errorf("prompt_response: %q then %q", agents[0].str("prompt_response"), agents[1].str("prompt_response"))
	}
	if got := reqs[5].Generate.LastUserText(); !strings.Contains(got, "AGAIN-MARK record your notes") {
		t.Errorf("the turn after the AfterAgent deny was prompted with %q, want the reason", got)
	}
	// BeforeAgent's prompt already carries SessionStart's context in
	// front: a hook reading the prompt must look past it.
	prompts := w.hooksOf("BeforeAgent", "")
	if len(prompts) != 2 || prompts[0].str("prompt") != "<hook_context>CTX-SESSIONSTART</hook_context>\n\n[[contract]] do it" ||
		prompts[1].str("prompt") != "AGAIN-MARK record your notes" {
		t.Errorf("BeforeAgent prompts: %q, want SessionStart's context and the prompt, then the deny's reason", strs(prompts, "prompt"))
	}
	if !strings.Contains(res.stdout, "FIRST-ANSWER") || !strings.Contains(res.stdout, "SECOND-ANSWER") {
		t.Errorf("stdout lacks the answers:\n%s", res.stdout)
	}
}

// BeforeTool's hookSpecificOutput.tool_input replaces the tool's whole
// input: with every argument it runs the new one; with some, the call
// fails validation and nothing is written.
func geminiToolInputReplaced(t *testing.T) {
	w := newGeminiWorld(t, "BeforeTool", "AfterTool")
	redirected := w.path("redirected.txt")
	rewrite := func(in map[string]any) hookAnswer {
		return hookAnswer{Stdout: map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "BeforeTool", "tool_input": in}}}
	}
	w.answer(map[string]hookAnswer{
		"BeforeTool:write_file":        rewrite(map[string]any{"file_path": redirected, "content": "REWRITTEN\n"}),
		"BeforeTool:run_shell_command": rewrite(map[string]any{"command": "LUCID_AGENT=gemini-agent sh -c 'echo $LUCID_AGENT' > shell.txt"}),
		"BeforeTool:replace":           rewrite(map[string]any{"new_string": "PARTIAL"}),
	})
	lead := &gem.Script{Name: "lead", Marker: "[[rewrite]]", Steps: []gem.Step{
		gem.WriteFile(w.path("original.txt"), "ORIGINAL\n"),
		gem.Shell("echo ORIGINAL > shell.txt"),
		gem.Replace(w.path("notes.txt"), "hello world", "goodbye world"),
		gem.Say("done"),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	if res := w.gemini(srv, "[[rewrite]] do it"); res.code != 0 {
		t.Fatalf("gemini -p exited %d\nstderr:\n%s", res.code, clip(res.stderr, 4000))
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("the lead sent %d requests, want 4\n%s", len(reqs), srv.Dump())
	}
	if w.content("original.txt") != "" || w.content("redirected.txt") != "REWRITTEN\n" {
		t.Errorf("write_file with a replaced input: original.txt %q, redirected.txt %q; want only the second, REWRITTEN",
			w.content("original.txt"), w.content("redirected.txt"))
	}
	if got := w.content("shell.txt"); got != "gemini-agent\n" {
		t.Errorf("the shell ran %q, want the replaced command's output gemini-agent", got)
	}
	if got := w.content("notes.txt"); got != "hello world\nline two\n" {
		t.Errorf("replace with a partial input changed notes.txt to %q", got)
	}
	if r := reqs[3].Generate.LastResponse(); !strings.Contains(r.Output(), "required property 'file_path'") {
		t.Errorf("replace with a partial input answered %q, want a validation error naming file_path", r.Output())
	}
	for step, tool := range map[int]string{1: "write_file", 2: "run_shell_command"} {
		if r := reqs[step].Generate.LastResponse(); r.Name != tool || !strings.Contains(r.Output(), "modified by a hook") {
			t.Errorf("%s's result %q does not say a hook modified its input", tool, r.Output())
		}
	}
	// The model's own call stays in the history as it made it.
	if calls := reqs[3].Generate.Calls(); len(calls) != 3 || !strings.Contains(string(calls[0].Args), "original.txt") {
		t.Errorf("the history's calls are %s, want the model's own", callArgs(calls))
	}
	// AfterTool sees the input that ran.
	for _, c := range w.hooksOf("AfterTool", "write_file") {
		if c.input()["file_path"] != redirected {
			t.Errorf("AfterTool write_file tool_input = %v, want the replaced one", c.input())
		}
	}
}

// A subagent (invoke_agent) runs its tools through the same BeforeTool
// and AfterTool hooks, under the lead's session id and with nothing that
// names the subagent; it has no SessionStart, BeforeAgent or AfterAgent of
// its own. A deny holds inside it, and its reason reaches the subagent.
func geminiSubagent(t *testing.T) {
	w := newGeminiWorld(t)
	w.answer(map[string]hookAnswer{
		"BeforeTool:write_file": {Stdout: map[string]any{"decision": "deny", "reason": "DENY-SUB src/** is claimed"}},
	})
	lead := &gem.Script{Name: "lead", Marker: "[[lead]]", Steps: []gem.Step{
		gem.CallTool("invoke_agent", map[string]any{"agent_name": "generalist", "prompt": "[[sub]] write src/sub.go"}),
		gem.Say("lead done"),
	}}
	sub := &gem.Script{Name: "sub", Marker: "[[sub]]", Steps: []gem.Step{
		gem.WriteFile(w.path("src/sub.go"), "package src\n"),
		// A subagent ends only by calling complete_task.
		gem.CallTool("complete_task", map[string]any{"result": map[string]any{"response": "SUB-RESULT"}}),
	}}
	srv := gem.New(lead, sub)
	defer srv.Close()
	if res := w.gemini(srv, "[[lead]] do it"); res.code != 0 {
		t.Fatalf("gemini -p exited %d\nstderr:\n%s", res.code, clip(res.stderr, 4000))
	}
	subReqs, leadReqs := srv.Conversation("sub"), srv.Conversation("lead")
	if len(subReqs) != 2 || len(leadReqs) != 2 {
		t.Fatalf("requests: %d of the subagent, %d of the lead; want 2 and 2\n%s", len(subReqs), len(leadReqs), srv.Dump())
	}
	if _, ok := subReqs[0].Generate.Tool("invoke_agent"); ok {
		t.Errorf("the subagent is offered invoke_agent: subagents could nest")
	}
	if _, ok := subReqs[0].Generate.Tool("complete_task"); !ok {
		t.Errorf("the subagent is not offered complete_task: %v", subReqs[0].Generate.ToolNames())
	}
	writes := w.hooksOf("BeforeTool", "write_file")
	invokes := w.hooksOf("BeforeTool", "invoke_agent")
	if len(writes) != 1 || len(invokes) != 1 {
		t.Fatalf("BeforeTool ran %d times for write_file, %d for invoke_agent; want 1 and 1\n%s", len(writes), len(invokes), w.hookOrder())
	}
	if writes[0].str("session_id") != invokes[0].str("session_id") || writes[0].str("transcript_path") != invokes[0].str("transcript_path") {
		t.Errorf("the subagent's BeforeTool has session %q, transcript %q; the lead's: %q, %q", writes[0].str("session_id"),
			writes[0].str("transcript_path"), invokes[0].str("session_id"), invokes[0].str("transcript_path"))
	}
	for k := range writes[0].Payload {
		switch k {
		case "session_id", "transcript_path", "cwd", "hook_event_name", "timestamp", "tool_name", "tool_input":
		default:
			t.Errorf("the subagent's BeforeTool has %s=%v: something may name the subagent after all", k, writes[0].Payload[k])
		}
	}
	for _, ev := range []string{"SessionStart", "BeforeAgent", "AfterAgent", "SessionEnd"} {
		if n := len(w.hooksOf(ev, "")); n != 1 {
			t.Errorf("%s ran %d times, want once (the lead's)\n%s", ev, n, w.hookOrder())
		}
	}
	if w.content("src/sub.go") != "" {
		t.Errorf("the subagent's write_file was denied, but src/sub.go exists")
	}
	if reason, ok := subReqs[1].Generate.LastResponse().Blocked(); !ok || reason != "DENY-SUB src/** is claimed" {
		t.Errorf("the subagent's next request has %q, want the deny", subReqs[1].Generate.LastResponse().Output())
	}
	if r := leadReqs[1].Generate.LastResponse(); r.Name != "invoke_agent" || !strings.Contains(r.Output(), "SUB-RESULT") {
		t.Errorf("the lead got %q from invoke_agent, want the subagent's result", r.Output())
	}
}

// A hook's timeout is in milliseconds, and a hook past it is ignored (and
// sent SIGTERM): the tool runs as if it had allowed it. lucid's Gemini
// entries need a timeout well above its slowest hook, or a claim stops
// nothing. The margins are wide for a loaded machine: the quick hook has
// all of 1.5 s to start.
func geminiHookTimeout(t *testing.T) {
	w := newGeminiWorld(t, "BeforeTool")
	w.setHooks([]string{"BeforeTool"}, 1500)
	deny := func(reason string, ms int) hookAnswer {
		return hookAnswer{SleepMS: ms, Stdout: map[string]any{"decision": "deny", "reason": reason}}
	}
	w.answer(map[string]hookAnswer{
		"BeforeTool:write_file": deny("SLOW-DENY", 5000),
		"BeforeTool:replace":    deny("QUICK-DENY", 0),
	})
	lead := &gem.Script{Name: "lead", Marker: "[[lead]]", Steps: []gem.Step{
		gem.WriteFile(w.path("slow.txt"), "SLOW\n"),
		gem.Replace(w.path("notes.txt"), "hello world", "goodbye world"),
		gem.Say("done"),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	res := w.gemini(srv, "[[lead]] do it")
	if res.code != 0 {
		t.Fatalf("gemini -p exited %d\nstderr:\n%s", res.code, clip(res.stderr, 4000))
	}
	if w.content("slow.txt") != "SLOW\n" || !strings.Contains(res.stderr, "Hook timed out after 1500ms") {
		t.Errorf("a hook slower than its 1500 ms timeout: slow.txt is %q, stderr:\n%s\nwant the write done and the timeout named in ms",
			w.content("slow.txt"), clip(res.stderr, 3000))
	}
	if w.content("notes.txt") != "hello world\nline two\n" {
		t.Errorf("a hook inside its timeout denied replace, but notes.txt is %q", w.content("notes.txt"))
	}
}

// Project hooks run in a workspace that ~/.gemini/trustedFolders.json
// trusts, without GEMINI_CLI_TRUST_WORKSPACE, and not in one it does not
// name. The first run in a trusted one records the hooks in
// ~/.gemini/trusted_hooks.json as "NAME:COMMAND" under the workspace's
// path: what `lucid doctor` can read.
func geminiWorkspaceTrust(t *testing.T) {
	w := newGeminiWorld(t, "SessionStart")
	w.trustByEnv = false
	lead := &gem.Script{Name: "lead", Marker: "[[lead]]", Done: gem.Say("done")}
	srv := gem.New(lead)
	defer srv.Close()
	trustedHooks := filepath.Join(w.home, ".gemini", "trusted_hooks.json")

	res := w.gemini(srv, "[[lead]] untrusted")
	if n := len(w.hooks()); n != 0 || res.code != 0 {
		t.Fatalf("untrusted workspace: exit %d, %d project hook calls; want 0 and none\nstderr:\n%s", res.code, n, clip(res.stderr, 3000))
	}
	if _, err := os.Stat(trustedHooks); err == nil {
		t.Errorf("an untrusted workspace's hooks were recorded as trusted")
	}

	w.write(filepath.Join(w.home, ".gemini", "trustedFolders.json"), `{"`+w.repo+`": "TRUST_FOLDER"}`)
	res = w.gemini(srv, "[[lead]] trusted")
	if n := len(w.hooksOf("SessionStart", "")); n != 1 || res.code != 0 {
		t.Fatalf("workspace in trustedFolders.json: exit %d, %d SessionStart calls; want 0 and one\nstderr:\n%s", res.code, n, clip(res.stderr, 3000))
	}
	b, err := os.ReadFile(trustedHooks)
	if err != nil {
		t.Fatalf("after a trusted run: %v", err)
	}
	var trusted map[string][]string
	if err := json.Unmarshal(b, &trusted); err != nil {
		t.Fatalf("trusted_hooks.json: %v\n%s", err, b)
	}
	want := "record-SessionStart:" + w.hookBin + " SessionStart"
	if got := trusted[w.repo]; len(got) != 1 || got[0] != want {
		t.Errorf("trusted_hooks.json = %s, want {%q: [%q]}", b, w.repo, want)
	}
	if !strings.Contains(res.stderr, "project-level hooks have been detected") {
		t.Errorf("the first trusted run did not warn of the project hooks:\n%s", clip(res.stderr, 3000))
	}
}

// Relative paths: BeforeTool shows them as the model gave them; write_file
// and replace resolve them against the workspace (the payload's cwd), and
// run_shell_command runs in dir_path, itself relative to the workspace.
// gemini.Writes follows the same rules.
func geminiRelativePaths(t *testing.T) {
	w := newGeminiWorld(t, "BeforeTool")
	lead := &gem.Script{Name: "lead", Marker: "[[lead]]", Steps: []gem.Step{
		gem.WriteFile("src/rel.go", "package src\n"),
		gem.Replace("notes.txt", "hello world", "goodbye world"),
		gem.CallTool("run_shell_command", map[string]any{"command": "pwd > here.txt", "dir_path": "src"}),
		gem.Say("done"),
	}}
	srv := gem.New(lead)
	defer srv.Close()
	if res := w.gemini(srv, "[[lead]] do it"); res.code != 0 {
		t.Fatalf("gemini -p exited %d\nstderr:\n%s", res.code, clip(res.stderr, 4000))
	}
	calls := w.hooksOf("BeforeTool", "")
	if len(calls) != 3 {
		t.Fatalf("BeforeTool ran %d times, want 3\n%s\n%s", len(calls), w.hookOrder(), srv.Dump())
	}
	if calls[0].input()["file_path"] != "src/rel.go" || calls[1].input()["file_path"] != "notes.txt" || calls[2].input()["dir_path"] != "src" {
		t.Errorf("BeforeTool inputs %v, %v, %v: want the relative paths as given", calls[0].input(), calls[1].input(), calls[2].input())
	}
	for _, c := range calls {
		if c.str("cwd") != w.repo {
			t.Errorf("BeforeTool cwd = %q, want the workspace %q", c.str("cwd"), w.repo)
		}
	}
	if w.content("src/rel.go") != "package src\n" || w.content("notes.txt") != "goodbye world\nline two\n" {
		t.Errorf("relative write_file/replace: src/rel.go %q, notes.txt %q; want both done in the workspace\n%s",
			w.content("src/rel.go"), w.content("notes.txt"), srv.Dump())
	}
	if got := strings.TrimSpace(w.content("src/here.txt")); got != w.path("src") {
		t.Errorf("run_shell_command with dir_path src ran in %q, want %q", got, w.path("src"))
	}
}

// A real compression (the reported prompt tokens past half the model's
// context, and a second prompt to split the history at) summarises the
// history through two side calls without tools, and drops what
// SessionStart added: no hook says so. PreCompress fires as before every
// model call, the same payload; SessionStart does not fire again. What
// shows it is BeforeModel's llm_request: the digest is gone from its
// messages and a <state_snapshot> is there.
func geminiCompression(t *testing.T) {
	w := newGeminiWorld(t)
	w.answer(map[string]hookAnswer{
		"SessionStart": hookContext("SessionStart", "CTX-SESSIONSTART"),
		"AfterAgent":   {Stdout: map[string]any{"decision": "deny", "reason": "AGAIN-MARK go on"}, Once: true},
	})
	// Compression shortens the history, and with it the step count: the
	// steps go by the number of requests instead.
	var mu sync.Mutex
	n := 0
	lead := &gem.Script{Name: "lead", Marker: "[[lead]]", Done: func(*gem.GenerateRequest) gem.Reply {
		mu.Lock()
		defer mu.Unlock()
		n++
		switch {
		case n == 3:
			return gem.Reply{Text: "FIRST-ANSWER"} // the AfterAgent deny prompts again
		case n < 7:
			return gem.Reply{Calls: []gem.Call{{Name: "run_shell_command", Args: map[string]any{"command": fmt.Sprintf("echo STEP-%d", n)}}}}
		}
		return gem.Reply{Text: "SECOND-ANSWER"}
	}}
	srv := gem.New(lead)
	defer srv.Close()
	srv.SideText = func(*gem.GenerateRequest) string { return "<state_snapshot>SCRIPTED-SUMMARY [[lead]]</state_snapshot>" }
	srv.PromptTokens = func(r *gem.Request) int {
		if r.Conversation == "lead" && r.Seq == 5 { // the second request of the second prompt
			return 1000000
		}
		return 1000
	}
	if res := w.gemini(srv, "[[lead]] do it"); res.code != 0 {
		t.Fatalf("gemini -p exited %d\nstderr:\n%s", res.code, clip(res.stderr, 4000))
	}
	var side, before, after []*gem.Request
	for _, r := range srv.Requests() {
		switch {
		case r.Generate == nil:
		case r.Conversation == "":
			side = append(side, r)
		case len(side) == 0:
			before = append(before, r)
		default:
			after = append(after, r)
		}
	}
	if len(side) != 2 || len(after) == 0 || side[0].Stream {
		t.Fatalf("want two side calls (generateContent, the summary and its check) and requests after them\n%s", srv.Dump())
	}
	for _, r := range before {
		if !strings.Contains(string(r.Body), "CTX-SESSIONSTART") {
			t.Errorf("request #%d, before the compression, lacks SessionStart's context", r.Seq)
		}
	}
	for _, r := range after {
		if body := string(r.Body); strings.Contains(body, "CTX-SESSIONSTART") || !strings.Contains(body, "SCRIPTED-SUMMARY") {
			t.Errorf("request #%d, after the compression: SessionStart's context %v, the summary %v; want gone and there",
				r.Seq, strings.Contains(body, "CTX-SESSIONSTART"), strings.Contains(body, "SCRIPTED-SUMMARY"))
		}
	}
	if got := len(w.hooksOf("SessionStart", "")); got != 1 {
		t.Errorf("SessionStart ran %d times, want once: after a compression it does not run again", got)
	}
	pre := w.hooksOf("PreCompress", "")
	if len(pre) != len(before)+len(after) {
		t.Errorf("PreCompress ran %d times for %d model calls", len(pre), len(before)+len(after))
	}
	for _, c := range pre {
		if c.str("trigger") != "auto" || len(c.Payload) != 6 {
			t.Errorf("PreCompress payload %s: want the five common fields and trigger auto, compressed or not", c.Raw)
		}
	}
	models := w.hooksOf("BeforeModel", "")
	if len(models) != len(pre) {
		t.Fatalf("BeforeModel ran %d times, PreCompress %d", len(models), len(pre))
	}
	// llm_request.messages holds the text of each turn.
	last, _ := json.Marshal(models[len(models)-1].Payload["llm_request"])
	if strings.Contains(string(last), "CTX-SESSIONSTART") || !strings.Contains(string(last), "state_snapshot") {
		t.Errorf("the last BeforeModel's llm_request does not show the compression:\n%s", clip(string(last), 3000))
	}
}

// --resume continues the session under the same id, with SessionStart
// (source "resume") and its context in front of the new prompt; the
// resumed history keeps the model's answers but not the old prompt, nor
// the context that came with it.
func geminiResume(t *testing.T) {
	w := newGeminiWorld(t, "SessionStart", "BeforeAgent", "SessionEnd")
	w.answer(map[string]hookAnswer{"SessionStart": hookContext("SessionStart", "CTX-SESSIONSTART")})
	lead := &gem.Script{Name: "lead", Marker: "[[lead]]", Steps: []gem.Step{gem.Say("FIRST-ANSWER"), gem.Say("SECOND-ANSWER")}}
	srv := gem.New(lead)
	defer srv.Close()
	if res := w.gemini(srv, "[[lead]] first prompt"); res.code != 0 {
		t.Fatalf("gemini -p exited %d\nstderr:\n%s", res.code, clip(res.stderr, 3000))
	}
	res := w.gemini(srv, "[[lead]] second prompt", "--resume", "latest")
	if res.code != 0 || !strings.Contains(res.stdout, "SECOND-ANSWER") {
		t.Fatalf("gemini --resume: exit %d, stdout %q\nstderr:\n%s", res.code, res.stdout, clip(res.stderr, 3000))
	}
	starts := w.hooksOf("SessionStart", "")
	if len(starts) != 2 || starts[1].str("source") != "resume" || starts[1].str("session_id") != starts[0].str("session_id") {
		t.Fatalf("SessionStart calls: %q sources %q; want startup then resume, one session", strs(starts, "session_id"), strs(starts, "source"))
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 {
		t.Fatalf("the lead sent %d requests, want 2\n%s", len(reqs), srv.Dump())
	}
	resumed := reqs[1].Generate
	if body := string(reqs[1].Body); strings.Count(body, "CTX-SESSIONSTART") != 1 || strings.Contains(body, "first prompt") ||
		!strings.Contains(body, "FIRST-ANSWER") {
		t.Errorf("the resumed request: SessionStart context %d times, old prompt %v, old answer %v; want once, no, yes",
			strings.Count(body, "CTX-SESSIONSTART"), strings.Contains(body, "first prompt"), strings.Contains(body, "FIRST-ANSWER"))
	}
	if got := resumed.LastUserText(); got != "<hook_context>CTX-SESSIONSTART</hook_context>\n\n[[lead]] second prompt" {
		t.Errorf("the resumed prompt is %q, want SessionStart's context in front of it", got)
	}
}

// What `lucid doctor` must check besides trust: hooksConfig.disabled
// turns off hooks by their name (not their command), and
// hooksConfig.enabled false in the user's settings turns off every hook,
// the project's too.
func geminiHooksDisabled(t *testing.T) {
	w := newGeminiWorld(t, "SessionStart", "SessionEnd")
	lead := &gem.Script{Name: "lead", Marker: "[[lead]]", Done: gem.Say("done")}
	srv := gem.New(lead)
	defer srv.Close()
	edit := func(path string, change func(map[string]any)) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		b, _ = json.MarshalIndent(m, "", "  ")
		w.write(path, string(b))
	}
	events := func(prompt string) []string {
		before := len(w.hooks())
		if res := w.gemini(srv, prompt); res.code != 0 {
			t.Fatalf("gemini -p exited %d\nstderr:\n%s", res.code, clip(res.stderr, 3000))
		}
		var out []string
		for _, c := range w.hooks()[before:] {
			out = append(out, c.Event)
		}
		return out
	}
	project, user := w.path(".gemini/settings.json"), filepath.Join(w.home, ".gemini", "settings.json")

	edit(project, func(m map[string]any) {
		m["hooksConfig"] = map[string]any{"disabled": []string{"record-SessionStart", w.hookBin + " SessionEnd"}}
	})
	if got := events("[[lead]] by name"); strings.Join(got, " ") != "SessionEnd" {
		t.Errorf("with record-SessionStart and SessionEnd's command disabled, the hooks that ran: %q; want SessionEnd alone", got)
	}
	edit(project, func(m map[string]any) { delete(m, "hooksConfig") })
	edit(user, func(m map[string]any) { m["hooksConfig"] = map[string]any{"enabled": false} })
	if got := events("[[lead]] all off"); len(got) != 0 {
		t.Errorf("with hooksConfig.enabled false in the user's settings, hooks ran: %q", got)
	}
}

func ptr[T any](v T) *T { return &v }

func firstStr(cs []geminiHookCall, key string) string {
	if len(cs) == 0 {
		return ""
	}
	return cs[0].str(key)
}

func strs(cs []geminiHookCall, key string) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.str(key))
	}
	return out
}

func callArgs(calls []*gem.FunctionCall) string {
	b, _ := json.Marshal(calls)
	return string(b)
}
