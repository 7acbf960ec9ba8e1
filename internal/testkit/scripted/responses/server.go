// Package responses is the OpenAI Responses API of the scripted model
// server: it lets the real Codex CLI (0.169.0) run against a model whose
// every response a test wrote in advance, and records every request, so
// the test can read exactly what the model was shown (the messages, what
// hooks added as developer messages, the tools' outputs).
//
// It serves POST /v1/responses as a server-sent event stream, the only
// request Codex sends to a provider with wire_api = "responses". Each
// conversation (the lead session, each subagent) follows its own Script
// (see Script for how a request finds it).
package responses

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Server serves the Responses API on 127.0.0.1 from scripts.
type Server struct {
	// URL (http://127.0.0.1:PORT/v1, for a model provider's base_url),
	// the request log and the wait come from the skeleton.
	*scripted.Server[*Request]

	scripts []*Script

	mu      sync.Mutex
	threads map[string]*thread // by thread id
}

// New starts a server on a free port of 127.0.0.1 that follows the given
// scripts. Close it when done.
func New(scripts ...*Script) *Server {
	s := &Server{scripts: scripts, threads: map[string]*thread{}}
	wrap := func(r scripted.Request) *Request { return &Request{Request: r} }
	s.Server = scripted.New("/v1", wrap, s.serve, detail)
	s.Start()
	return s
}

// detail tells of a Responses call for a dump: its conversation, step and
// thread, and what the client added since the model's last output, cut
// short.
func detail(r *Request) string {
	if r.Responses == nil {
		return ""
	}
	var b strings.Builder
	conv := r.Conversation
	if conv == "" {
		conv = "(unclaimed)"
	}
	fmt.Fprintf(&b, " conversation=%s step=%d thread=%s subagent=%v kind=%s compaction=%v items=%d\n", conv, r.Step,
		r.Thread, r.Subagent, r.RequestKind, r.Compaction, len(r.Responses.Input))
	for _, it := range r.Responses.Tail() {
		fmt.Fprintf(&b, "  %s %s%s: %q\n", it.Type, it.Role, it.Name, clip(it.Text()+it.Input+it.Arguments, 400))
	}
	return b.String()
}

var clip = scripted.Clip

func (s *Server) serve(w http.ResponseWriter, hr *http.Request, req *Request) {
	if hr.Method != http.MethodPost || hr.URL.Path != "/v1/responses" {
		s.Unknown(w, req, `{"error":{"message":"not scripted","type":"invalid_request_error"}}`)
		return
	}
	s.responses(w, req)
}

// turnMetadata is what tests use of the x-codex-turn-metadata header.
type turnMetadata struct {
	ThreadID     string `json:"thread_id"`
	ThreadSource string `json:"thread_source"`
	RequestKind  string `json:"request_kind"`
}

// thread is what the server keeps of one conversation thread of Codex.
type thread struct {
	script *Script
	// compacted counts the steps that compactions took out of the
	// history: the thread's step is compacted plus the steps in the input.
	compacted int
}

// compactionPrompt starts the user message Codex 0.169.0 asks for a
// summary with, when it compacts a history itself (its request kind
// "compaction").
const compactionPrompt = "You are performing a CONTEXT CHECKPOINT COMPACTION."

// responses answers POST /v1/responses from the script that claims it.
func (s *Server) responses(w http.ResponseWriter, req *Request) {
	var rr ResponsesRequest
	if err := json.Unmarshal(req.Body, &rr); err != nil {
		s.Add(req)
		s.Problem("request #%d: body is not a Responses request: %v", req.Seq, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Responses = &rr
	var meta turnMetadata
	json.Unmarshal([]byte(req.Header["x-codex-turn-metadata"]), &meta)
	req.Thread, req.RequestKind = meta.ThreadID, meta.RequestKind
	req.Subagent = meta.ThreadSource == "subagent" || req.Header["x-codex-parent-thread-id"] != ""
	users := rr.Messages("user")
	req.Compaction = meta.RequestKind == "compaction" ||
		(len(rr.Tools) == 0 && len(users) > 0 && strings.HasPrefix(users[len(users)-1], compactionPrompt))

	th, err := s.claim(req)
	if th != nil {
		req.Conversation = th.script.Name
		s.mu.Lock()
		req.Step = th.compacted + rr.Steps()
		if req.Compaction {
			th.compacted = req.Step
		}
		s.mu.Unlock()
	}
	s.Add(req)
	var reply Reply
	switch {
	case err != nil:
		s.Problem("request #%d: %v", req.Seq, err)
		reply = Reply{Text: "No script for this conversation."}
	case req.Compaction:
		reply = Reply{Text: th.script.Summary}
		if reply.Text == "" {
			reply.Text = "Scripted summary of the conversation so far."
		}
	default:
		var ok bool
		if reply, ok = th.script.Answer(req.Step, &rr); !ok {
			reply = Reply{Text: "Done."}
		}
	}
	if err := writeStream(w, req.Seq, reply); err != nil {
		s.Problem("request #%d: %v", req.Seq, err)
	}
}

// claim finds the conversation's thread: the one of its thread id, else a
// new one for the script whose marker is in the earliest user message
// holding one.
func (s *Server) claim(req *Request) (*thread, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if th := s.threads[req.Thread]; th != nil && req.Thread != "" {
		return th, nil
	}
	for _, text := range req.Responses.Messages("user") {
		found, second := scripted.Claim(s.scripts, text)
		if second != nil {
			return nil, fmt.Errorf("markers of %q and %q both in the user message %q", found.Name, second.Name, clip(text, 200))
		}
		if found != nil {
			th := &thread{script: found}
			if req.Thread != "" {
				s.threads[req.Thread] = th
			}
			return th, nil
		}
	}
	return nil, fmt.Errorf("no script's marker in any user message (thread %q)", req.Thread)
}

// writeStream sends a reply as the Responses API streams it, which Codex
// 0.169.0 reads: response.created; per output item output_item.added, its
// deltas and done events, output_item.done; then response.completed with
// every item and the usage.
func writeStream(w http.ResponseWriter, seq int, reply Reply) error {
	var b bytes.Buffer
	event := func(data map[string]any) {
		j, _ := json.Marshal(data)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", data["type"], j)
	}
	rid := fmt.Sprintf("resp_scripted_%04d", seq)
	event(map[string]any{"type": "response.created", "response": map[string]any{
		"id": rid, "object": "response", "status": "in_progress", "output": []any{}}})
	var items []any
	idx := 0
	if reply.Text != "" || len(reply.Calls) == 0 {
		text := reply.Text
		if text == "" {
			text = "Done."
		}
		id := fmt.Sprintf("msg_scripted_%04d_%d", seq, idx)
		event(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": map[string]any{
			"type": "message", "id": id, "role": "assistant", "status": "in_progress", "content": []any{}}})
		part := map[string]any{"item_id": id, "output_index": idx, "content_index": 0}
		event(with(part, "type", "response.content_part.added", "part", map[string]any{"type": "output_text", "text": "", "annotations": []any{}}))
		event(with(part, "type", "response.output_text.delta", "delta", text))
		event(with(part, "type", "response.output_text.done", "text", text))
		done := map[string]any{"type": "message", "id": id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
		event(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": done})
		items = append(items, done)
		idx++
	}
	for _, c := range reply.Calls {
		id := fmt.Sprintf("item_scripted_%04d_%d", seq, idx)
		done, err := c.item(id, fmt.Sprintf("call_scripted_%04d_%d", seq, idx))
		if err != nil {
			return fmt.Errorf("call %s: %v", c.Name, err)
		}
		added := with(done, "status", "in_progress")
		at := map[string]any{"item_id": id, "output_index": idx}
		if c.Custom {
			added["input"] = ""
			event(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": added})
			event(with(at, "type", "response.custom_tool_call_input.delta", "delta", c.Input))
			event(with(at, "type", "response.custom_tool_call_input.done", "input", c.Input))
		} else {
			added["arguments"] = ""
			event(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": added})
			event(with(at, "type", "response.function_call_arguments.delta", "delta", done["arguments"]))
			event(with(at, "type", "response.function_call_arguments.done", "arguments", done["arguments"]))
		}
		event(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": done})
		items = append(items, done)
		idx++
	}
	in := reply.InputTokens
	if in == 0 {
		in = 10
	}
	event(map[string]any{"type": "response.completed", "response": map[string]any{
		"id": rid, "object": "response", "status": "completed", "output": items,
		"usage": map[string]any{"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": in + 5}}})
	return scripted.WriteEvents(w, b.Bytes())
}

// with is a copy of m with the key/value pairs set.
func with(m map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(m)+len(kv)/2)
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}
