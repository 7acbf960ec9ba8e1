package generatecontent

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

const streamPath = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"

// post sends a body as the client does and returns the response's body.
func post(t *testing.T, srv *Server, path, body string) (string, *http.Response) {
	t.Helper()
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), resp
}

// streamParts reads a streamed answer as Gemini CLI does: every `data:`
// line a chunk, the parts of all chunks joined.
func streamParts(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(body, "\n") {
		data, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "data: ")
		if !ok {
			continue
		}
		var chunk struct {
			Candidates []struct {
				Content struct {
					Role  string           `json:"role"`
					Parts []map[string]any `json:"parts"`
				} `json:"content"`
				FinishReason string `json:"finishReason"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			t.Fatalf("data line is not JSON: %q", line)
		}
		if len(chunk.Candidates) != 1 || chunk.Candidates[0].Content.Role != "model" || chunk.Candidates[0].FinishReason != "STOP" {
			t.Fatalf("chunk is not one finished model candidate: %s", data)
		}
		out = append(out, chunk.Candidates[0].Content.Parts...)
	}
	if len(out) == 0 {
		t.Fatalf("no data in the stream: %q", body)
	}
	return out
}

// A request body in 0.61.0's shape: the session context and the prompt in
// the first user turn, then the history.
func body(history ...string) string {
	first := `{"role":"user","parts":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"},{"text":"<hook_context>DIGEST</hook_context>\n\n[[lead]] do it"},{"text":"<hook_context>DELTA</hook_context>"}]}`
	return `{"contents":[` + strings.Join(append([]string{first}, history...), ",") +
		`],"systemInstruction":{"parts":[{"text":"You are a CLI agent."}]},` +
		`"tools":[{"functionDeclarations":[{"name":"write_file","description":"w","parametersJsonSchema":{"type":"object"}},{"name":"run_shell_command","description":"s"}]}],` +
		`"generationConfig":{"temperature":1}}`
}

const (
	modelCall = `{"role":"model","parts":[{"functionCall":{"id":"write_file_1_0","name":"write_file","args":{"file_path":"/r/a.go","content":"x"}},"thoughtSignature":"skip_thought_signature_validator"}]}`
	denied    = `{"role":"user","parts":[{"functionResponse":{"id":"write_file_1_0","name":"write_file","response":{"error":"Tool execution blocked: src/** is claimed"}}}]}`
	ran       = `{"role":"user","parts":[{"functionResponse":{"id":"write_file_1_0","name":"write_file","response":{"output":"Successfully wrote.\n\n<hook_context>AFTER</hook_context>"}}}]}`
)

func TestScriptStepsFollowModelTurns(t *testing.T) {
	var seen *GenerateRequest
	lead := &Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{
		WriteFile("/r/a.go", "package a\n"),
		func(r *GenerateRequest) Reply {
			seen = r
			reason, _ := r.LastResponse().Blocked()
			return Reply{Text: "told: " + reason}
		},
	}}
	srv := New(lead)
	defer srv.Close()

	out, resp := post(t, srv, streamPath, body())
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}
	parts := streamParts(t, out)
	fc, _ := parts[0]["functionCall"].(map[string]any)
	if len(parts) != 1 || fc["name"] != "write_file" {
		t.Fatalf("step 0 answered %v, want one write_file call", parts)
	}
	if args, _ := fc["args"].(map[string]any); args["file_path"] != "/r/a.go" || args["content"] != "package a\n" {
		t.Errorf("write_file args = %v", fc["args"])
	}

	out, _ = post(t, srv, streamPath, body(modelCall, denied))
	if parts := streamParts(t, out); parts[0]["text"] != "told: src/** is claimed" {
		t.Errorf("step 1 answered %v, want the deny reason quoted", parts)
	}
	if seen == nil || seen.Models() != 1 {
		t.Fatalf("step 1 saw %v", seen)
	}

	// Past the script: "Done.", and the test can count it.
	out, _ = post(t, srv, streamPath, body(modelCall, denied, `{"role":"model","parts":[{"text":"told"}]}`, `{"role":"user","parts":[{"text":"again"}]}`))
	if parts := streamParts(t, out); parts[0]["text"] != "Done." {
		t.Errorf("past the script: %v, want Done.", parts)
	}

	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("lead conversation has %d requests, want 3:\n%s", len(reqs), srv.Dump())
	}
	for i, r := range reqs {
		if r.Step != i || r.Model != "gemini-2.5-flash" || !r.Stream {
			t.Errorf("request %d: step %d model %q stream %v", i, r.Step, r.Model, r.Stream)
		}
	}
	if got := reqs[0].Generate.ToolNames(); strings.Join(got, ",") != "write_file,run_shell_command" {
		t.Errorf("ToolNames = %v", got)
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

func TestHookContextsFindEachPlace(t *testing.T) {
	var gr GenerateRequest
	if err := json.Unmarshal([]byte(body(modelCall, ran)), &gr); err != nil {
		t.Fatal(err)
	}
	got := HookContexts(gr.Contents)
	want := []HookContext{
		{Content: 0, Where: "text", Text: "DIGEST"},
		{Content: 0, Where: "text", Text: "DELTA"},
		{Content: 2, Where: "function_response", Tool: "write_file", Text: "AFTER"},
	}
	if len(got) != len(want) {
		t.Fatalf("HookContexts = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("context %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, ok := gr.LastResponse().Blocked(); ok {
		t.Errorf("a tool that ran reads as blocked")
	}
	if !strings.Contains(gr.LastUserText(), "Successfully wrote.") {
		t.Errorf("LastUserText = %q", gr.LastUserText())
	}
}

func TestSideRequests(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]"})
	defer srv.Close()
	srv.SideText = func(*GenerateRequest) string { return "a title" }

	// No marker, no tools: side text.
	out, _ := post(t, srv, streamPath, `{"contents":[{"role":"user","parts":[{"text":"Name this chat."}]}]}`)
	if parts := streamParts(t, out); parts[0]["text"] != "a title" {
		t.Errorf("side request answered %v", parts)
	}

	// A JSON check (next speaker): an object of the schema's shape.
	out, _ = post(t, srv, "/v1beta/models/gemini-2.5-flash:generateContent",
		`{"contents":[{"role":"user","parts":[{"text":"who speaks next?"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string","enum":["user","model"]},"ok":{"type":"boolean"}}}}}`)
	var resp struct {
		Candidates []struct {
			Content struct {
				Parts []struct{ Text string } `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil || len(resp.Candidates) != 1 {
		t.Fatalf("generateContent answer %q: %v", out, err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(resp.Candidates[0].Content.Parts[0].Text), &obj); err != nil {
		t.Fatalf("JSON check answered %q", resp.Candidates[0].Content.Parts[0].Text)
	}
	if obj["next_speaker"] != "user" || obj["ok"] != false || obj["reasoning"] != "scripted" {
		t.Errorf("JSON check answered %v", obj)
	}

	// The summary of a compression quotes the prompt, marker and all, but
	// offers no tools: a side request, not the lead's next step.
	out, _ = post(t, srv, "/v1beta/models/gemini-2.5-flash:generateContent",
		`{"contents":[{"role":"user","parts":[{"text":"[[lead]] do it"}]},{"role":"user","parts":[{"text":"generate the <state_snapshot>"}]}]}`)
	if !strings.Contains(out, "a title") {
		t.Errorf("a compression summary answered %s, want the side text", out)
	}
	if n := len(srv.Conversation("lead")); n != 0 {
		t.Errorf("the lead's script answered %d side requests", n)
	}

	post(t, srv, "/v1beta/models/gemini-2.5-flash:countTokens", `{"contents":[]}`)
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("side requests made problems: %v", p)
	}

	// A conversation with tools but no script is a problem, and so is a
	// path the client should not ask.
	post(t, srv, streamPath, strings.Replace(body(), "[[lead]]", "[[nobody]]", 1))
	if _, resp := post(t, srv, "/v1/other", `{}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path answered %d", resp.StatusCode)
	}
	p := srv.Problems()
	if len(p) != 2 || !strings.Contains(p[0], "no script's marker") || !strings.Contains(p[1], "/v1/other") {
		t.Errorf("problems = %q", p)
	}
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("recorded %d requests, want 6", n)
	}
	if d := srv.Dump(); !strings.Contains(d, "(side)") || !strings.Contains(d, "problem:") {
		t.Errorf("Dump lacks the side request or the problems:\n%s", d)
	}
}

// A resumed session's first turn has only the session context: the
// marker of the new prompt, later, claims it.
func TestResumedConversationClaimedLater(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{Say("first"), Say("second")}},
		&Script{Name: "other", Marker: "[[other]]"})
	defer srv.Close()
	resumed := `{"contents":[{"role":"user","parts":[{"text":"<session_context>ctx</session_context>"}]},` +
		`{"role":"model","parts":[{"text":"first"}]},{"role":"user","parts":[{"text":"<hook_context>D</hook_context>\n\n[[lead]] and again"}]}],` +
		`"tools":[{"functionDeclarations":[{"name":"write_file"}]}]}`
	out, _ := post(t, srv, streamPath, resumed)
	if parts := streamParts(t, out); parts[0]["text"] != "second" {
		t.Errorf("resumed conversation answered %v, want its step 1", parts)
	}
	// The first turn wins over a later mention of another marker.
	post(t, srv, streamPath, strings.Replace(body(modelCall, ran), "Successfully wrote.", "[[other]] said", 1))
	if n := len(srv.Conversation("lead")); n != 2 {
		t.Errorf("lead answered %d requests, want 2:\n%s", n, srv.Dump())
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

func TestPromptTokensReported(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]"})
	defer srv.Close()
	srv.PromptTokens = func(r *Request) int { return 600000 + r.Step }
	out, _ := post(t, srv, streamPath, body(modelCall, ran))
	data, _ := strings.CutPrefix(strings.TrimSpace(out), "data: ")
	var resp struct {
		Usage struct {
			Prompt int `json:"promptTokenCount"`
			Total  int `json:"totalTokenCount"`
		} `json:"usageMetadata"`
	}
	if err := json.Unmarshal([]byte(data), &resp); err != nil || resp.Usage.Prompt != 600001 || resp.Usage.Total != 600006 {
		t.Errorf("usageMetadata of %s: %+v (%v), want promptTokenCount 600001", out, resp.Usage, err)
	}
}

func TestWaitWakesOnRequest(t *testing.T) {
	srv := New(&Script{Name: "lead", Marker: "[[lead]]", Steps: []Step{Say("hi")}})
	defer srv.Close()
	go func() {
		if resp, err := http.Post(srv.URL+streamPath, "application/json", strings.NewReader(body())); err == nil {
			resp.Body.Close()
		}
	}()
	if !srv.Wait(10*time.Second, func(rs []*Request) bool { return len(rs) == 1 }) {
		t.Fatal("Wait did not see the request")
	}
	if srv.Wait(50*time.Millisecond, func(rs []*Request) bool { return len(rs) == 2 }) {
		t.Fatal("Wait saw a request that was never sent")
	}
}
