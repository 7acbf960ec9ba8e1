// Package messages is the Anthropic Messages API of the scripted model
// server: it lets the real Claude Code client run against a model whose
// every turn a test wrote in advance, and records every request, so the
// test can read exactly what the model was shown (the system prompt, the
// messages, and what hooks added to them).
//
// Each conversation (a lead session, each subagent) follows its own
// Script, told apart by a marker in its first user message; the step is
// the number of assistant messages in the request. Requests without tools
// (titles, summaries) are side requests and get plain text.
package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Server serves the Messages API on 127.0.0.1 from scripts.
type Server struct {
	// URL (http://127.0.0.1:PORT, for ANTHROPIC_BASE_URL), the request
	// log and the wait come from the skeleton.
	*scripted.Server[*Request]

	// SideText answers side requests (no tools); nil says "Scripted
	// reply.". Set it before the client starts.
	SideText func(r *MessagesRequest) string

	scripts []*Script

	mu  sync.Mutex
	ids int
}

// New starts a server on a free port of 127.0.0.1 that follows the given
// scripts. Close it when done.
func New(scripts ...*Script) *Server {
	s := &Server{scripts: scripts}
	wrap := func(r scripted.Request) *Request { return &Request{Request: r} }
	s.Server = scripted.New("", wrap, s.serve, detail)
	s.Start()
	return s
}

// detail tells of a Messages call for a dump: its conversation and step,
// and its first and last user messages, cut to a readable length.
func detail(r *Request) string {
	if r.Messages == nil {
		return ""
	}
	conv := r.Conversation
	if conv == "" {
		conv = "(side)"
		if len(r.Messages.Tools) > 0 {
			conv = "(unclaimed)"
		}
	}
	return fmt.Sprintf(" conversation=%s step=%d messages=%d tools=%d\n  first user: %q\n  last user: %q\n",
		conv, r.Step, len(r.Messages.Messages), len(r.Messages.Tools),
		clip(r.Messages.FirstUserText(), 200), clip(r.Messages.LastUserText(), 600))
}

var clip = scripted.Clip

func (s *Server) nextID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("toolu_scripted_%04d", s.ids)
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request, req *Request) {
	switch {
	case hr.Method == http.MethodPost && hr.URL.Path == "/v1/messages":
		s.messages(w, req)
	case hr.Method == http.MethodPost && hr.URL.Path == "/v1/messages/count_tokens":
		s.Add(req)
		writeJSON(w, map[string]any{"input_tokens": len(req.Body)/4 + 1})
	case hr.URL.Path == "/" && (hr.Method == http.MethodHead || hr.Method == http.MethodGet):
		s.Add(req)
		w.WriteHeader(http.StatusOK)
	default:
		// Whatever else the client asks is logged, so a test can see it.
		s.Unknown(w, req, `{"type":"error","error":{"type":"not_found_error","message":"not scripted"}}`)
	}
}

// messages answers POST /v1/messages from the script that claims it.
func (s *Server) messages(w http.ResponseWriter, req *Request) {
	var mr MessagesRequest
	if err := json.Unmarshal(req.Body, &mr); err != nil {
		s.Add(req)
		s.Problem("request #%d: body is not a Messages request: %v", req.Seq, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Messages = &mr
	req.Step = mr.Assistants()
	var reply Reply
	if len(mr.Tools) == 0 {
		text := "Scripted reply."
		if s.SideText != nil {
			text = s.SideText(&mr)
		}
		reply = Reply{Text: text}
		s.Add(req)
	} else {
		sc, err := s.claim(&mr)
		if sc != nil {
			req.Conversation = sc.Name
		}
		s.Add(req)
		switch {
		case err != nil:
			s.Problem("request #%d: %v", req.Seq, err)
			reply = Reply{Text: "No script for this conversation."}
		default:
			var ok bool
			if reply, ok = sc.Answer(req.Step, &mr); !ok {
				reply = Reply{Text: "Done."}
			}
		}
	}
	blocks, err := reply.blocks(s.nextID)
	if err != nil {
		s.Problem("request #%d: %v", req.Seq, err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	model := mr.Model
	if model == "" {
		model = "claude-scripted"
	}
	msgID := fmt.Sprintf("msg_scripted_%04d", req.Seq)
	if mr.Stream {
		writeStream(w, msgID, model, blocks, reply.stopReason(), reply.InputTokens)
		return
	}
	writeJSON(w, map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model,
		"content": blocks, "stop_reason": reply.stopReason(), "stop_sequence": nil,
		"usage": usage(reply.InputTokens, 1),
	})
}

// claim finds the one script whose marker is in the first user message.
func (s *Server) claim(mr *MessagesRequest) (*Script, error) {
	first := mr.FirstUserText()
	found, second := scripted.Claim(s.scripts, first)
	switch {
	case second != nil:
		return found, fmt.Errorf("markers of %q and %q both in the first user message", found.Name, second.Name)
	case found == nil:
		return nil, fmt.Errorf("no script's marker in the first user message %q", clip(first, 200))
	}
	return found, nil
}

// usage is what the reply says it cost: 10 input tokens unless the reply
// says more (to make the client compact its conversation).
func usage(in, out int) map[string]any {
	if in == 0 {
		in = 10
	}
	return map[string]any{"input_tokens": in, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

var writeJSON = scripted.WriteJSON

// writeStream sends a message as the Messages API streams it:
// message_start, each block as start/delta/stop (a tool's input as one
// input_json_delta), message_delta with the stop reason, message_stop.
func writeStream(w http.ResponseWriter, id, model string, blocks []map[string]any, stop string, inTokens int) {
	var b bytes.Buffer
	event := func(name string, data map[string]any) {
		data["type"] = name
		j, _ := json.Marshal(data)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, j)
	}
	event("message_start", map[string]any{"message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage(inTokens, 1),
	}})
	for i, bl := range blocks {
		switch bl["type"] {
		case "text":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": bl["text"]}})
		case "tool_use":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": bl["id"], "name": bl["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
				"type": "input_json_delta", "partial_json": string(bl["input"].(json.RawMessage))}})
		}
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{})
	scripted.WriteEvents(w, b.Bytes())
}
