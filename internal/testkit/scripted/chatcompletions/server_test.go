package chatcompletions

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"
)

var someTools = []any{map[string]any{"type": "function", "function": map[string]any{"name": "bash"}},
	map[string]any{"type": "custom", "custom": map[string]any{"name": "apply_patch"}}}

// post sends a streamed chat completions request as both clients do, and
// returns the chunks of the answer; done says the stream ended with
// [DONE].
func post(t *testing.T, srv *Server, header map[string]string, msgs ...any) (chunks []map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "stream_options": map[string]any{"include_usage": true},
		"tools": someTools, "messages": msgs})
	hr, _ := http.NewRequest(http.MethodPost, srv.URL+"/chat/completions", strings.NewReader(string(body)))
	hr.Header.Set("Authorization", "Bearer secret")
	for k, v := range header {
		hr.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, ct)
	}
	return readStream(t, resp.Body)
}

// readStream parses the data lines of an event stream, which must end
// with [DONE].
func readStream(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	var out []map[string]any
	done := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		switch {
		case !ok:
		case data == "[DONE]":
			done = true
		default:
			var d map[string]any
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatalf("data line is not JSON: %q", data)
			}
			if d["object"] != "chat.completion.chunk" {
				t.Errorf("chunk object %v", d["object"])
			}
			out = append(out, d)
		}
	}
	if !done {
		t.Errorf("the stream did not end with [DONE]")
	}
	return out
}

// deltas returns each chunk's delta and finish reason; the last chunk
// (usage, no choices) is left out.
func deltas(chunks []map[string]any) (ds []map[string]any, finish []any) {
	for _, c := range chunks {
		choices := c["choices"].([]any)
		if len(choices) == 0 {
			continue
		}
		ch := choices[0].(map[string]any)
		ds = append(ds, ch["delta"].(map[string]any))
		finish = append(finish, ch["finish_reason"])
	}
	return ds, finish
}

func user(content any) map[string]any { return map[string]any{"role": "user", "content": content} }

func parts(texts ...string) []any {
	var out []any
	for _, t := range texts {
		out = append(out, map[string]any{"type": "text", "text": t})
	}
	return out
}

func TestStreamsToolCallsThenText(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"
	lead := &Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{
		Bash("echo hi > out.txt"),
		ApplyPatch(patch),
		func(*ChatRequest) Reply { return Reply{Text: "All done.", Usage: 255000} },
	}}
	srv := New(lead)
	defer srv.Close()

	chunks := post(t, srv, nil, map[string]any{"role": "system", "content": "sys"}, user("[[lead]] go"))
	ds, finish := deltas(chunks)
	if len(ds) != 3 || ds[0]["role"] != "assistant" || finish[2] != "tool_calls" || finish[0] != nil {
		t.Fatalf("chunks: %v", chunks)
	}
	call := ds[1]["tool_calls"].([]any)[0].(map[string]any)
	fn := call["function"].(map[string]any)
	if call["id"] != "call_001" || call["type"] != "function" || fn["name"] != "bash" ||
		fn["arguments"] != `{"command":"echo hi > out.txt","description":"scripted command","mode":"sync"}` {
		t.Errorf("call: %v", call)
	}
	if u := chunks[len(chunks)-1]["usage"].(map[string]any); u["prompt_tokens"] != float64(100) {
		t.Errorf("default usage: %v", u)
	}

	// Step 1: the history holds the call and its result.
	history := []any{user("[[lead]] go"),
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}},
		map[string]any{"role": "tool", "tool_call_id": "call_001", "content": "hi"}}
	ds, _ = deltas(post(t, srv, nil, history...))
	call = ds[1]["tool_calls"].([]any)[0].(map[string]any)
	if call["id"] != "call_002" || call["type"] != "custom" ||
		!reflect.DeepEqual(call["custom"], map[string]any{"name": "apply_patch", "input": patch}) {
		t.Errorf("custom call: %v", call)
	}

	// Step 2: text, and the usage the step set.
	history = append(history, map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}},
		map[string]any{"role": "tool", "tool_call_id": "call_002", "content": parts("Added 1 file(s): a.txt")})
	chunks = post(t, srv, nil, history...)
	ds, finish = deltas(chunks)
	if len(ds) != 3 || ds[1]["content"] != "All done." || finish[2] != "stop" {
		t.Fatalf("text chunks: %v", chunks)
	}
	if u := chunks[len(chunks)-1]["usage"].(map[string]any); u["prompt_tokens"] != float64(255000) {
		t.Errorf("usage: %v", u)
	}

	reqs := srv.Conversation("lead")
	if len(reqs) != 3 || reqs[2].Step != 2 {
		t.Fatalf("recorded:\n%s", srv.Dump())
	}
	r := reqs[2].Chat
	if calls := r.ToolCalls(); len(calls) != 2 || calls[1].Name() != "apply_patch" || calls[1].Input() != patch {
		t.Errorf("ToolCalls() = %+v", calls)
	}
	if m, ok := r.ToolResult("call_001"); !ok || m.Text() != "hi" {
		t.Errorf("ToolResult(call_001) = %+v", m)
	}
	if m, ok := r.LastToolResult(); !ok || m.Text() != "Added 1 file(s): a.txt" {
		t.Errorf("LastToolResult() = %+v", m)
	}
	if got := r.ToolNames(); !reflect.DeepEqual(got, []string{"bash", "apply_patch"}) {
		t.Errorf("ToolNames() = %q", got)
	}
	if _, ok := reqs[0].Header["authorization"]; ok {
		t.Error("the API key was recorded")
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

// A subagent's prompt is its first user message, so it goes to its own
// script; the lead's later requests, which quote the subagent's marker in
// a call and a result only, stay with the lead. A compaction is a side
// request that leaves the steps alone.
func TestConversationsAndSideRequests(t *testing.T) {
	lead := &Script{Name: "lead", Marker: "[[lead]]", Summary: "LEAD SUMMARY", Steps: []Step{
		Task("general-purpose", "[[sub]] do it"),
		Say("lead done"),
	}}
	sub := &Script{Name: "sub", Marker: "[[sub]]", Steps: []Step{Say("sub done")}}
	srv := New(lead, sub)
	defer srv.Close()
	srv.SideText = func(*ChatRequest) string { return "side text" }

	text := func(chunks []map[string]any) any {
		ds, _ := deltas(chunks)
		if len(ds) < 2 {
			return nil
		}
		return ds[1]["content"]
	}
	// Copilot sends sessionStart's context as a user message before the
	// prompt.
	ds, _ := deltas(post(t, srv, map[string]string{"x-interaction-type": "conversation-user"}, user("session context"), user("[[lead]] go")))
	call := ds[1]["tool_calls"].([]any)[0].(map[string]any)
	if got := text(post(t, srv, map[string]string{"x-interaction-type": "conversation-subagent"}, user(parts("[[sub]] do it")))); got != "sub done" {
		t.Errorf("sub answered %v", got)
	}
	history := []any{user("[[lead]] go"),
		map[string]any{"role": "assistant", "tool_calls": []any{call}},
		map[string]any{"role": "tool", "tool_call_id": call["id"], "content": "[[sub]] sub done"}}
	compact := append(append([]any{}, history...), user(copilotSummaryPrompt+" of the conversation so far."))
	if got := text(post(t, srv, map[string]string{"x-interaction-type": "conversation-compaction"}, compact...)); got != "LEAD SUMMARY" {
		t.Errorf("compaction answered %v", got)
	}
	qwenSummary := append(append([]any{}, history...), user(parts("First, reason in your <analysis> block. Then, produce the <state_snapshot> XML.")))
	if got := text(post(t, srv, nil, qwenSummary...)); got != "LEAD SUMMARY" {
		t.Errorf("Qwen's summarizer got %v", got)
	}
	memory := append(append([]any{}, history...), user(parts(qwenMemoryPrompt+" Choose which one...")))
	if got := text(post(t, srv, nil, memory...)); got != "side text" {
		t.Errorf("Qwen's memory agent got %v", got)
	}
	opencodeSummary := append(append([]any{}, history...), user(opencodeSummaryPrompt+"\n\n<conversation>..."))
	if got := text(post(t, srv, nil, opencodeSummary...)); got != "LEAD SUMMARY" {
		t.Errorf("opencode's compaction got %v", got)
	}
	if got := text(post(t, srv, nil, history...)); got != "lead done" {
		t.Errorf("lead step 1 answered %v", got)
	}
	// After opencode's compaction only the summary holds the marker.
	afterCompaction := []any{user("What did we do so far?"), map[string]any{"role": "assistant", "content": "[[lead]] summary"}, user("Continue")}
	if got := text(post(t, srv, nil, afterCompaction...)); got != "lead done" {
		t.Errorf("after opencode's compaction the lead's step 1 answered %v", got)
	}
	// Without tools and without a marker: a side request too.
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"title?"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var plain struct {
		Choices []struct {
			Message      struct{ Content string }
			FinishReason string `json:"finish_reason"`
		}
	}
	json.NewDecoder(resp.Body).Decode(&plain)
	resp.Body.Close()
	if len(plain.Choices) != 1 || plain.Choices[0].Message.Content != "side text" || plain.Choices[0].FinishReason != "stop" {
		t.Errorf("unstreamed side answer: %+v", plain)
	}

	if n := len(srv.Conversation("lead")); n != 3 {
		t.Errorf("lead requests: %d\n%s", n, srv.Dump())
	}
	if n := len(srv.Conversation("sub")); n != 1 {
		t.Errorf("sub requests: %d\n%s", n, srv.Dump())
	}
	side := 0
	for _, r := range srv.Requests() {
		if r.Side {
			side++
		}
	}
	if side != 5 {
		t.Errorf("%d side requests, want 5:\n%s", side, srv.Dump())
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

func TestProblems(t *testing.T) {
	srv := New(&Script{Name: "a", Marker: "[[a]]"}, &Script{Name: "b", Marker: "[[b]]"})
	defer srv.Close()
	post(t, srv, nil, user("no marker"))
	post(t, srv, nil, user("[[a]] and [[b]]"))
	resp, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /models: %d", resp.StatusCode)
	}
	p := srv.Problems()
	if len(p) != 3 || !strings.Contains(p[0], "no script's marker") || !strings.Contains(p[1], "both") || !strings.Contains(p[2], "GET /v1/models") {
		t.Errorf("problems: %q", p)
	}
}

// load reads a recorded request body (the Copilot fixtures wrap it with
// the path and headers).
func load(t *testing.T, name string) *ChatRequest {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var wrapped struct{ Body json.RawMessage }
	if json.Unmarshal(b, &wrapped) == nil && wrapped.Body != nil {
		b = wrapped.Body
	}
	var r ChatRequest
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestCopilotHookContexts(t *testing.T) {
	r := load(t, "copilot-after-context-hooks.json")
	want := []HookContext{
		{"sessionStart", "CTX-SESSIONSTART from sessionStart hook"},
		{"postToolUse", "CTX-POSTTOOL-bash from postToolUse hook"},
		{"preToolUse", "CTX-PRETOOL-bash from preToolUse hook"},
		{"postToolUse", "CTX-POSTTOOL-create from postToolUse hook"},
		{"preToolUse", "CTX-PRETOOL-create from preToolUse hook"},
	}
	if got := CopilotHookContexts(r.Messages); !reflect.DeepEqual(got, want) {
		t.Errorf("contexts:\n got %q\nwant %q", got, want)
	}
	if r.Assistants() != 3 || !strings.Contains(r.FirstUserText(), "CTX-SESSIONSTART") {
		t.Errorf("Assistants %d, first user %q", r.Assistants(), r.FirstUserText())
	}
	if c := r.ToolCalls(); len(c) != 3 || c[2].Name() != "edit" || !strings.Contains(c[2].Input(), `"old_str"`) {
		t.Errorf("ToolCalls() = %+v", c)
	}

	r = load(t, "copilot-prompt-with-context.json")
	want = []HookContext{{"userPromptSubmitted", "CTX-UPS additional"}}
	if got := CopilotHookContexts(r.Messages); !reflect.DeepEqual(got, want) {
		t.Errorf("prompt contexts: %q", got)
	}
	r = load(t, "copilot-compaction.json")
	if !strings.HasPrefix(r.LastUserText(), copilotSummaryPrompt) {
		t.Errorf("the compaction request's last user text: %q", clip(r.LastUserText(), 80))
	}
}

func TestQwenHookContexts(t *testing.T) {
	r := load(t, "qwen-ctx-all-events.json")
	ups := HookContext{"UserPromptSubmit", "CTX-UserPromptSubmit <b>&amp;"}
	want := []HookContext{
		{"SessionStart", "CTX-SessionStart <b>&amp;"},
		ups,
		{"PostToolUse", "CTX-PostToolUse <b>&amp;\n\nCTX-PostToolBatch <b>&amp;"}, ups,
		{"PostToolUse", "CTX-PostToolUse <b>&amp;\n\nCTX-PostToolBatch <b>&amp;"}, ups,
		{"PostToolUse", "CTX-PostToolUseFailure <b>&amp;\n\nCTX-PostToolBatch <b>&amp;"}, ups,
	}
	if got := QwenHookContexts(r.Messages); !reflect.DeepEqual(got, want) {
		t.Errorf("contexts:\n got %q\nwant %q", got, want)
	}
	// The hook wrote "<b>&amp;": Qwen escapes < and > only. The parts of the first user message, and tool results as parts.
	if u := r.FirstUserText(); !strings.Contains(u, "\ndo it\n<qwen:user-prompt-submit-context>") {
		t.Errorf("first user text: %q", clip(u, 300))
	}
	if m, ok := r.ToolResult("call_002"); !ok || !strings.HasPrefix(m.Text(), "Successfully created") {
		t.Errorf("ToolResult(call_002) = %+v", m)
	}
	if m, ok := r.LastToolResult(); !ok || m.ToolCallID != "call_003" {
		t.Errorf("LastToolResult() = %+v", m)
	}
	// The agent tool's result as Qwen 0.24.4 sent it, the context one line
	// on. A denied call's result is the reason alone: no context.
	msgs := []Message{
		{Role: "tool", ToolCallID: "call_004", Content: json.RawMessage(`[{"type":"text","text":"SUB-DONE\nCTX &lt;b&gt;"}]`)},
		{Role: "tool", ToolCallID: "call_005", Content: json.RawMessage(`[{"type":"text","text":"denied by lucid"}]`)},
	}
	if got := QwenHookContexts(msgs); !reflect.DeepEqual(got, []HookContext{{"PostToolUse", "CTX <b>"}}) {
		t.Errorf("agent result contexts: %q", got)
	}
	r = load(t, "qwen-summarizer.json")
	if !strings.Contains(r.LastUserText(), qwenSummaryPrompt) {
		t.Errorf("the summarizer's last user text: %q", r.LastUserText())
	}
}

// After a compaction the history lost the prompt, its marker and the
// first turns; the ids of the server's calls that it kept tell the script
// and the step. The summary reports the conversation's last prompt size,
// which Qwen Code takes for the size of what it compacted.
func TestCompactionKeepsTheStep(t *testing.T) {
	lead := &Script{Name: "lead", Marker: "[[lead]]", Summary: "SUMMARY", Steps: []Step{
		Shell("echo one"),
		func(*ChatRequest) Reply {
			return Reply{Calls: []Call{{Name: "run_shell_command", Args: map[string]any{"command": "echo two"}}}, Usage: 255000}
		},
		Say("three"),
	}}
	srv := New(lead)
	defer srv.Close()
	call := func(chunks []map[string]any) map[string]any {
		ds, _ := deltas(chunks)
		return ds[1]["tool_calls"].([]any)[0].(map[string]any)
	}
	turn := func(c map[string]any, result string) []any {
		return []any{map[string]any{"role": "assistant", "tool_calls": []any{c}},
			map[string]any{"role": "tool", "tool_call_id": c["id"], "content": parts(result)}}
	}
	one := call(post(t, srv, nil, user(parts("[[lead]] go"))))
	two := call(post(t, srv, nil, append([]any{user(parts("[[lead]] go"))}, turn(one, "one")...)...))
	if two["id"] != "call_002" {
		t.Fatalf("step 1 made %v", two)
	}
	history := append(append([]any{user(parts("[[lead]] go"))}, turn(one, "one")...), turn(two, "two")...)
	summarize := append(history, user(parts("Then, produce the <state_snapshot> XML.")))
	chunks := post(t, srv, nil, summarize...)
	if ds, _ := deltas(chunks); ds[1]["content"] != "SUMMARY" {
		t.Errorf("summary: %v", ds)
	}
	if u := chunks[len(chunks)-1]["usage"].(map[string]any); u["prompt_tokens"] != float64(255000) {
		t.Errorf("the summary's usage: %v", u)
	}
	compacted := append([]any{user(parts("SUMMARY\n\nResume the prior task."))}, turn(two, "two")...)
	if ds, _ := deltas(post(t, srv, nil, compacted...)); ds[1]["content"] != "three" {
		t.Errorf("after the compaction: %v\n%s", ds, srv.Dump())
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 || reqs[2].Step != 2 {
		t.Errorf("recorded:\n%s", srv.Dump())
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}
