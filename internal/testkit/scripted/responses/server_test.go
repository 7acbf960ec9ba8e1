package responses

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// post sends a Responses request as Codex does, with its turn metadata
// header, and returns the decoded event stream.
func post(t *testing.T, srv *Server, thread, source string, input ...any) []map[string]any {
	t.Helper()
	return postKind(t, srv, thread, source, "turn", input...)
}

// postKind is post with a request kind: "turn", or "compaction" (sent
// without tools, as Codex does).
func postKind(t *testing.T, srv *Server, thread, source, kind string, input ...any) []map[string]any {
	t.Helper()
	body := map[string]any{"model": "gpt-5.5", "stream": true, "input": input,
		"tools": []any{map[string]any{"type": "function", "name": "exec_command"}, map[string]any{"type": "web_search"}}}
	if kind == "compaction" {
		body["tools"] = []any{}
	}
	b, _ := json.Marshal(body)
	hr, _ := http.NewRequest(http.MethodPost, srv.URL+"/responses", strings.NewReader(string(b)))
	meta, _ := json.Marshal(map[string]any{"thread_id": thread, "thread_source": source, "request_kind": kind})
	hr.Header.Set("x-codex-turn-metadata", string(meta))
	hr.Header.Set("Authorization", "Bearer secret")
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

// readStream parses a text/event-stream body; every data line's type
// must be its event's name.
func readStream(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	var out []map[string]any
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
			out = append(out, d)
		}
	}
	return out
}

func user(text string) map[string]any {
	return map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}}
}

func types(evs []map[string]any) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e["type"].(string))
	}
	return out
}

// completed returns the items of the response.completed event.
func completed(t *testing.T, evs []map[string]any) []map[string]any {
	t.Helper()
	last := evs[len(evs)-1]
	if last["type"] != "response.completed" {
		t.Fatalf("the stream does not end with response.completed: %v", types(evs))
	}
	var out []map[string]any
	for _, it := range last["response"].(map[string]any)["output"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

func TestStreamsCallsThenText(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"
	lead := &Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{
		Calls(Exec("echo hi"), ApplyPatch(patch)),
		Say("All done."),
	}}
	srv := New(lead)
	defer srv.Close()

	evs := post(t, srv, "T1", "user", user("<environment_context>...</environment_context>"), user("[[lead]] go"))
	want := []string{"response.created",
		"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done",
		"response.output_item.added", "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "response.output_item.done",
		"response.completed"}
	if got := types(evs); !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %v\nwant %v", got, want)
	}
	items := completed(t, evs)
	if items[0]["type"] != "function_call" || items[0]["name"] != "exec_command" || items[0]["arguments"] != `{"cmd":"echo hi"}` {
		t.Errorf("first item: %v", items[0])
	}
	if items[1]["type"] != "custom_tool_call" || items[1]["name"] != "apply_patch" || items[1]["input"] != patch {
		t.Errorf("second item: %v", items[1])
	}
	if items[0]["call_id"] == items[1]["call_id"] || evs[1]["item"].(map[string]any)["status"] != "in_progress" {
		t.Errorf("call ids must differ and added items be in progress: %v", evs[1])
	}

	// The next request carries both calls of the response and their
	// outputs: step 1.
	evs = post(t, srv, "T1", "user", user("[[lead]] go"),
		map[string]any{"type": "function_call", "id": items[0]["id"], "name": "exec_command", "call_id": "c1", "arguments": "{}"},
		map[string]any{"type": "function_call_output", "call_id": "c1", "output": "hi"},
		map[string]any{"type": "custom_tool_call", "id": items[1]["id"], "name": "apply_patch", "call_id": "c2", "input": patch},
		map[string]any{"type": "custom_tool_call_output", "call_id": "c2", "output": "Done!"},
		map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": "CTX"}}})
	items = completed(t, evs)
	if len(items) != 1 || items[0]["type"] != "message" || items[0]["content"].([]any)[0].(map[string]any)["text"] != "All done." {
		t.Fatalf("step 1: %v", items)
	}

	reqs := srv.Conversation("lead")
	if len(reqs) != 2 || reqs[1].Step != 1 || reqs[0].Thread != "T1" || reqs[0].Subagent {
		t.Fatalf("recorded: %+v\n%s", reqs, srv.Dump())
	}
	r := reqs[1].Responses
	if out, ok := r.Output("c1"); !ok || out.Text() != "hi" {
		t.Errorf("Output(c1) = %v, %v", out, ok)
	}
	if got := r.Developer(); !reflect.DeepEqual(got, []string{"CTX"}) {
		t.Errorf("Developer() = %q", got)
	}
	if tail := r.Tail(); len(tail) != 2 || tail[1].Role != "developer" {
		t.Errorf("Tail() = %v", tail)
	}
	if got := r.ToolNames(); !reflect.DeepEqual(got, []string{"exec_command", "web_search"}) {
		t.Errorf("ToolNames() = %q", got)
	}
	if _, ok := reqs[0].Header["authorization"]; ok {
		t.Error("the API key was recorded")
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

// A subagent's conversation is its own: found by the marker in the spawn
// message, kept by its thread when the marker is gone (a compacted
// history), and its spawner can wait for it by the id Codex returned.
func TestConversationsByMarkerThenThread(t *testing.T) {
	lead := &Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{
		Calls(Spawn("[[sub]] say hi")),
		WaitSpawned(5000),
	}}
	sub := &Script{Name: "sub", Marker: "[[sub]]", Steps: []Step{Say("hi from sub")}, Done: Say("sub again")}
	srv := New(lead, sub)
	defer srv.Close()

	items := completed(t, post(t, srv, "L", "user", user("[[lead]] spawn one")))
	if items[0]["name"] != "spawn_agent" || items[0]["namespace"] != "multi_agent_v1" || items[0]["arguments"] != `{"message":"[[sub]] say hi"}` {
		t.Fatalf("spawn: %v", items[0])
	}
	items = completed(t, post(t, srv, "S", "subagent", user("[[sub]] say hi")))
	if items[0]["type"] != "message" {
		t.Fatalf("sub: %v", items)
	}
	// The lead's history now holds the sub's marker in a call, not in a
	// user message; a notification quoting it comes after the lead's prompt.
	items = completed(t, post(t, srv, "L", "user", user("[[lead]] spawn one"),
		map[string]any{"type": "function_call", "name": "spawn_agent", "call_id": "c1", "arguments": `{"message":"[[sub]] say hi"}`},
		map[string]any{"type": "function_call_output", "call_id": "c1", "output": `{"agent_id":"S-123","nickname":"Descartes"}`},
		user("<subagent_notification>[[sub]] done</subagent_notification>")))
	if items[0]["name"] != "wait_agent" || items[0]["arguments"] != `{"targets":["S-123"],"timeout_ms":5000}` {
		t.Fatalf("wait: %v", items[0])
	}
	post(t, srv, "S", "subagent", user("A summary of the conversation so far."),
		map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": "hi from sub"}}})

	if n := len(srv.Conversation("lead")); n != 2 {
		t.Errorf("lead requests: %d\n%s", n, srv.Dump())
	}
	subs := srv.Conversation("sub")
	if len(subs) != 2 || !subs[0].Subagent || subs[1].Thread != "S" {
		t.Errorf("sub requests: %+v\n%s", subs, srv.Dump())
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

func TestProblems(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]"})
	defer srv.Close()
	post(t, srv, "X", "user", user("no marker here"))
	resp, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /models: %d", resp.StatusCode)
	}
	hr, _ := http.NewRequest(http.MethodPost, srv.URL+"/responses", strings.NewReader("x"))
	hr.Header.Set("Content-Encoding", "zstd")
	resp, err = http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	p := srv.Problems()
	if len(p) != 3 || !strings.Contains(p[0], "no script's marker") || !strings.Contains(p[1], "GET /v1/models") || !strings.Contains(p[2], `"zstd"`) {
		t.Errorf("problems: %q", p)
	}
	if !srv.Wait(time.Second, func(r []*Request) bool { return len(r) == 3 }) {
		t.Errorf("Wait did not see the three requests")
	}
	if srv.Wait(50*time.Millisecond, func(r []*Request) bool { return len(r) == 4 }) {
		t.Errorf("Wait saw a request that never came")
	}
}

func TestLargeUsageIsReported(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{
		func(*ResponsesRequest) Reply { return Reply{Text: "big", InputTokens: 900000} },
	}})
	defer srv.Close()
	evs := post(t, srv, "X", "user", user("[[lead]]"))
	usage := evs[len(evs)-1]["response"].(map[string]any)["usage"].(map[string]any)
	if usage["input_tokens"] != float64(900000) || usage["total_tokens"] != float64(900005) {
		t.Errorf("usage: %v", usage)
	}
}

// A compaction request gets the script's summary and is no step; after it
// the history holds none of the model's outputs, and the steps go on
// where they were.
func TestCompactionKeepsTheStep(t *testing.T) {
	lead := &Script{Name: "lead", Marker: "[[lead]]", Summary: "SUMMARY", Steps: []Step{
		Calls(Exec("echo one")),
		Say("after the compaction"),
	}}
	srv := New(lead)
	defer srv.Close()
	items := completed(t, post(t, srv, "L", "user", user("[[lead]] go")))
	call := map[string]any{"type": "function_call", "id": items[0]["id"], "name": "exec_command", "call_id": "c1", "arguments": "{}"}
	out := map[string]any{"type": "function_call_output", "call_id": "c1", "output": "one"}
	items = completed(t, postKind(t, srv, "L", "user", "compaction", user("[[lead]] go"), call, out, user(compactionPrompt+" Summarize.")))
	if text := items[0]["content"].([]any)[0].(map[string]any)["text"]; text != "SUMMARY" {
		t.Fatalf("the compaction request got %q, want the script's summary", text)
	}
	items = completed(t, post(t, srv, "L", "user", user("[[lead]] go"), user("Here is the summary: SUMMARY")))
	if text := items[0]["content"].([]any)[0].(map[string]any)["text"]; text != "after the compaction" {
		t.Fatalf("after the compaction the script answered %q, want step 1's text", text)
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 || !reqs[1].Compaction || reqs[2].Compaction || reqs[2].Step != 1 {
		t.Errorf("recorded:\n%s", srv.Dump())
	}
}
