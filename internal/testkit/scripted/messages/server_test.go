package messages

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// post sends a Messages request as the client does and returns the
// response.
func post(t *testing.T, srv *Server, path string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type sseEvent struct {
	name string
	data map[string]any
}

// readStream parses a text/event-stream body.
func readStream(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var name string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("data line is not JSON: %q", line)
			}
			if d["type"] != name {
				t.Errorf("event %q carries data of type %v", name, d["type"])
			}
			out = append(out, sseEvent{name, d})
		}
	}
	return out
}

func userMsg(text string) map[string]any {
	return map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}
}

var someTools = []any{map[string]any{"name": "Bash", "input_schema": map[string]any{"type": "object"}}}

func TestStreamsToolCallThenText(t *testing.T) {
	sc := &Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{
		Call("Bash", map[string]any{"command": "echo hi"}),
		Say("All done."),
	}}
	srv := New(sc)
	defer srv.Close()

	resp := post(t, srv, "/v1/messages?beta=true", map[string]any{
		"model": "m", "stream": true, "tools": someTools,
		"messages": []any{userMsg("[[lead]] go")},
	})
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var names []string
	evs := readStream(t, resp.Body)
	for _, e := range evs {
		names = append(names, e.name)
	}
	want := "message_start content_block_start content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	block := evs[1].data["content_block"].(map[string]any)
	if block["type"] != "tool_use" || block["name"] != "Bash" {
		t.Errorf("block = %v", block)
	}
	delta := evs[2].data["delta"].(map[string]any)
	if delta["type"] != "input_json_delta" || delta["partial_json"] != `{"command":"echo hi"}` {
		t.Errorf("delta = %v", delta)
	}
	if sr := evs[4].data["delta"].(map[string]any)["stop_reason"]; sr != "tool_use" {
		t.Errorf("stop_reason = %v", sr)
	}
	id := block["id"].(string)

	// The next request has one assistant message: step 1, plain text.
	resp = post(t, srv, "/v1/messages?beta=true", map[string]any{
		"model": "m", "stream": true, "tools": someTools,
		"messages": []any{
			userMsg("[[lead]] go"),
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "hi"}}},
		},
	})
	evs = readStream(t, resp.Body)
	if d := evs[2].data["delta"].(map[string]any); d["type"] != "text_delta" || d["text"] != "All done." {
		t.Errorf("text delta = %v", d)
	}
	if sr := evs[4].data["delta"].(map[string]any)["stop_reason"]; sr != "end_turn" {
		t.Errorf("stop_reason = %v", sr)
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 || reqs[0].Step != 0 || reqs[1].Step != 1 {
		t.Fatalf("recorded %d lead requests: %s", len(reqs), srv.Dump())
	}
	if r, ok := reqs[1].Messages.ToolResult(id); !ok || r.ResultText() != "hi" {
		t.Errorf("tool result not read back: %+v", r)
	}
	if p := srv.Problems(); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
}

func TestConversationsByMarker(t *testing.T) {
	lead := &Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{Say("lead says")}}
	sub := &Script{Name: "sub", Marker: "[[sub]]", Steps: []Step{Say("sub says")}}
	srv := New(lead, sub)
	defer srv.Close()
	for _, c := range []struct{ prompt, want string }{
		{"[[sub]] work", "sub says"},
		{"[[lead]] lead", "lead says"},
	} {
		resp := post(t, srv, "/v1/messages", map[string]any{"tools": someTools, "messages": []any{userMsg(c.prompt)}})
		var msg struct {
			Content    []Block `json:"content"`
			StopReason string  `json:"stop_reason"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
			t.Fatal(err)
		}
		if len(msg.Content) != 1 || msg.Content[0].Text != c.want || msg.StopReason != "end_turn" {
			t.Errorf("%s: got %+v", c.prompt, msg)
		}
	}
	if len(srv.Conversation("sub")) != 1 || len(srv.Conversation("lead")) != 1 {
		t.Errorf("conversations not told apart:\n%s", srv.Dump())
	}
}

func TestSideRequestsAndStrangers(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]"})
	defer srv.Close()
	srv.SideText = func(*MessagesRequest) string { return "a title" }

	// No tools: a side request, answered with text, claimed by nobody.
	resp := post(t, srv, "/v1/messages", map[string]any{"messages": []any{userMsg("[[lead]] name this")}})
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"a title"`) {
		t.Errorf("side request answered %s", body)
	}
	// Past its script's end a conversation is told "Done.".
	resp = post(t, srv, "/v1/messages", map[string]any{"tools": someTools, "messages": []any{userMsg("[[lead]] x")}})
	body, _ = io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"Done."`) {
		t.Errorf("past the end: %s", body)
	}
	if len(srv.Problems()) != 0 {
		t.Errorf("problems so far: %v", srv.Problems())
	}
	// No marker, and an unknown path: both are problems a test sees.
	post(t, srv, "/v1/messages", map[string]any{"tools": someTools, "messages": []any{userMsg("who am I")}})
	if r := post(t, srv, "/v1/other", map[string]any{}); r.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path: status %d", r.StatusCode)
	}
	if p := srv.Problems(); len(p) != 2 || !strings.Contains(p[0], "no script") || !strings.Contains(p[1], "/v1/other") {
		t.Errorf("problems = %q", p)
	}
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("recorded %d requests, want 4", n)
	}
}

func TestWaitWakesOnRequest(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]"})
	defer srv.Close()
	if srv.Wait(10*time.Millisecond, func(r []*Request) bool { return len(r) > 0 }) {
		t.Fatal("Wait held with no request")
	}
	go func() {
		resp, err := http.Post(srv.URL+"/v1/messages", "application/json",
			strings.NewReader(`{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"[[lead]] go"}]}`))
		if err == nil {
			resp.Body.Close()
		}
	}()
	if !srv.Wait(10*time.Second, func(r []*Request) bool { return len(srv.Conversation("lead")) == 1 }) {
		t.Fatal("Wait did not see the request")
	}
}

// The shape of hook context as Claude Code 2.1.332 sends it: a message of
// role "system" after the tool result, possibly holding the client's own
// notes after the hook's text.
func TestHookContexts(t *testing.T) {
	var r MessagesRequest
	err := json.Unmarshal([]byte(`{"messages":[
		{"role":"user","content":[{"type":"text","text":"[[lead]] go"}]},
		{"role":"system","content":"SessionStart hook additional context: # digest\nline two\n\n\n# Environment\nplatform"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"out"}]},
		{"role":"system","content":[{"type":"text","text":"PreToolUse:Bash hook additional context: lucid: 1 new log entry\nPostToolUse:Bash hook additional context: second"}]}
	]}`), &r)
	if err != nil {
		t.Fatal(err)
	}
	all := HookContexts(r.Messages)
	if len(all) != 3 {
		t.Fatalf("got %d contexts: %+v", len(all), all)
	}
	if all[0].Hook != "SessionStart" || !strings.HasPrefix(all[0].Text, "# digest\nline two") {
		t.Errorf("first = %+v", all[0])
	}
	if all[1].Hook != "PreToolUse:Bash" || all[1].Text != "lucid: 1 new log entry\n" {
		t.Errorf("second = %+v", all[1])
	}
	if all[2].Hook != "PostToolUse:Bash" || all[2].Text != "second" {
		t.Errorf("third = %+v", all[2])
	}
	tail := HookContexts(r.Tail())
	if len(tail) != 2 || tail[0].Hook != "PreToolUse:Bash" {
		t.Errorf("tail contexts = %+v", tail)
	}
	if got := r.Assistants(); got != 1 {
		t.Errorf("Assistants = %d", got)
	}
	if !strings.Contains(r.LastUserText(), "out") {
		t.Errorf("LastUserText = %q", r.LastUserText())
	}
}
