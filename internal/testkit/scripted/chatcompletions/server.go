// Package chatcompletions is OpenAI's Chat Completions API of the scripted
// model server: it lets the real GitHub Copilot CLI (1.0.102, provider
// type openai) and Qwen Code (0.24.4) run against a model whose every
// turn a test wrote in advance, and records every request, so the test
// can read exactly what the model was shown (the messages, the tool
// results, and what hooks added to them).
//
// Both clients send only POST /v1/chat/completions, streamed. Each
// conversation (a lead session, each subagent) follows its own Script
// (see Script for how a request finds it). A request without tools, or
// one asking for a summary to compact the history, is a side request: it
// gets plain text and advances no script.
package chatcompletions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Server serves the Chat Completions API on 127.0.0.1 from scripts.
type Server struct {
	// URL (http://127.0.0.1:PORT/v1, for COPILOT_PROVIDER_BASE_URL or
	// OPENAI_BASE_URL), the request log and the wait come from the
	// skeleton.
	*scripted.Server[*Request]

	// SideText answers side requests that no script's Summary answers;
	// nil says "Scripted summary of the conversation so far.". Set it
	// before the client starts.
	SideText func(r *ChatRequest) string

	scripts []*Script

	mu     sync.Mutex
	ids    int
	issued map[string]issue // the reply that made each tool call, by id
	usage  map[*Script]int  // the prompt tokens last reported to each conversation
}

// New starts a server on a free port of 127.0.0.1 that follows the given
// scripts. Close it when done.
func New(scripts ...*Script) *Server {
	s := &Server{scripts: scripts, issued: map[string]issue{}, usage: map[*Script]int{}}
	wrap := func(r scripted.Request) *Request { return &Request{Request: r} }
	s.Server = scripted.New("/v1", wrap, s.serve, detail)
	s.Start()
	return s
}

// detail tells of a chat call for a dump: its conversation and step, and
// what the client added since the model's last turn, cut short.
func detail(r *Request) string {
	if r.Chat == nil {
		return ""
	}
	conv := r.Conversation
	switch {
	case r.Side:
		conv = "(side)"
	case conv == "":
		conv = "(unclaimed)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, " conversation=%s step=%d messages=%d tools=%d interaction=%s\n", conv, r.Step,
		len(r.Chat.Messages), len(r.Chat.Tools), r.Header["x-interaction-type"])
	for _, m := range r.Chat.Tail() {
		fmt.Fprintf(&b, "  %s: %q\n", strings.TrimSpace(m.Role+" "+m.ToolCallID), clip(m.Text(), 400))
	}
	return b.String()
}

var clip = scripted.Clip

func (s *Server) serve(w http.ResponseWriter, hr *http.Request, req *Request) {
	if hr.Method != http.MethodPost || hr.URL.Path != "/v1/chat/completions" {
		s.Unknown(w, req, `{"error":{"message":"not scripted","type":"invalid_request_error"}}`)
		return
	}
	s.chat(w, req)
}

// Side requests are told by what they ask: Copilot's compaction (its
// header, or its prompt), Qwen Code's summarizer, whose last user message
// asks for a <state_snapshot>, and Qwen's memory agent, which runs after a
// turn on the lead's history (its calls' ids too) and would otherwise be
// taken for the lead's next step.
const (
	copilotSummaryPrompt  = "Please create a detailed summary"
	qwenSummaryPrompt     = "<state_snapshot>"
	qwenMemoryPrompt      = "Managed memory has TWO directories."
	opencodeSummaryPrompt = "Here is the conversation so far:"
)

// isSide says whether a request is the client's own, not a step, and
// whether it asks for a summary.
func isSide(req *Request, cr *ChatRequest) (side, summary bool) {
	last := cr.LastUserText()
	summary = req.Header["x-interaction-type"] == "conversation-compaction" ||
		strings.HasPrefix(last, copilotSummaryPrompt) || strings.Contains(last, qwenSummaryPrompt) ||
		strings.HasPrefix(last, opencodeSummaryPrompt)
	return summary || len(cr.Tools) == 0 || strings.Contains(last, qwenMemoryPrompt), summary
}

// chat answers POST /v1/chat/completions from the script that claims it.
func (s *Server) chat(w http.ResponseWriter, req *Request) {
	var cr ChatRequest
	if err := json.Unmarshal(req.Body, &cr); err != nil {
		s.Add(req)
		s.Problem("request #%d: body is not a chat completions request: %v", req.Seq, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Chat = &cr
	side, summary := isSide(req, &cr)
	req.Side = side
	sc, step, err := s.claim(&cr)
	req.Step = step
	var reply Reply
	switch {
	case req.Side:
		s.Add(req)
		switch {
		case summary && sc != nil && sc.Summary != "":
			reply.Text = sc.Summary
		case s.SideText != nil:
			reply.Text = s.SideText(&cr)
		default:
			reply.Text = "Scripted summary of the conversation so far."
		}
	case err != nil:
		s.Add(req)
		s.Problem("request #%d: %v", req.Seq, err)
		reply = Reply{Text: "No script for this conversation."}
	default:
		req.Conversation = sc.Name
		s.Add(req)
		var ok bool
		if reply, ok = sc.Answer(req.Step, &cr); !ok {
			reply = Reply{Text: "Done."}
		}
	}
	if reply.Usage == 0 {
		reply.Usage = 100
	}
	s.mu.Lock()
	switch {
	case req.Side && sc != nil && s.usage[sc] > reply.Usage:
		// Qwen Code takes the summary's prompt tokens for the size of the
		// history it compacts, and gives up a compaction that would not
		// shrink the conversation's last reported size.
		reply.Usage = s.usage[sc]
	case !req.Side && sc != nil:
		s.usage[sc] = reply.Usage
	}
	s.mu.Unlock()
	calls := make([]map[string]any, 0, len(reply.Calls))
	for i, c := range reply.Calls {
		tc, err := c.toolCall(i, s.nextID(issue{sc, req.Step}))
		if err != nil {
			s.Problem("request #%d: call %s: %v", req.Seq, c.Name, err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		calls = append(calls, tc)
	}
	text := reply.Text
	if text == "" && len(calls) == 0 {
		text = "Done."
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	prompt := reply.Usage
	usage := map[string]any{"prompt_tokens": prompt, "completion_tokens": 10, "total_tokens": prompt + 10}
	model := cr.Model
	if model == "" {
		model = "scripted"
	}
	id, created := fmt.Sprintf("chatcmpl-scripted-%04d", req.Seq), time.Now().Unix()
	// head starts an answer or one chunk of a streamed answer.
	head := func(object string, choices []any) map[string]any {
		return map[string]any{"id": id, "object": object, "created": created, "model": model, "choices": choices}
	}
	if !cr.Stream {
		msg := map[string]any{"role": "assistant", "content": nilIfEmpty(text)}
		if len(calls) > 0 {
			for _, c := range calls {
				delete(c, "index")
			}
			msg["tool_calls"] = calls
		}
		resp := head("chat.completion", []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}})
		resp["usage"] = usage
		writeJSON(w, resp)
		return
	}
	writeStream(w, head, text, calls, finish, usage)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// issue is where the server made a tool call: the conversation's script
// and the step.
type issue struct {
	script *Script
	step   int
}

// claim finds a request's script and step. Both clients keep the ids of
// the calls the server made, so the last assistant message whose call the
// server knows tells the script and the step it answered, and the
// assistant messages after it count on from there: this holds after a
// compaction took the prompt (and its marker) and earlier turns out of
// the history. A request without such a call goes to the script whose
// marker is in the earliest user message holding one, at the step of its
// number of assistant messages.
func (s *Server) claim(cr *ChatRequest) (*Script, int, error) {
	s.mu.Lock()
	after := 0
	for i := len(cr.Messages) - 1; i >= 0; i-- {
		m := cr.Messages[i]
		if m.Role != "assistant" {
			continue
		}
		for _, c := range m.ToolCalls {
			if is, ok := s.issued[c.ID]; ok && is.script != nil {
				s.mu.Unlock()
				return is.script, is.step + 1 + after, nil
			}
		}
		after++
	}
	s.mu.Unlock()
	for _, text := range cr.Texts("user") {
		found, second := scripted.Claim(s.scripts, text)
		if second != nil {
			return nil, after, fmt.Errorf("markers of %q and %q both in the user message %q", found.Name, second.Name, clip(text, 200))
		}
		if found != nil {
			return found, after, nil
		}
	}
	// After a compaction that left no call and no prompt (opencode's),
	// the summary the script wrote holds its marker.
	for _, text := range cr.Texts("assistant") {
		if found, second := scripted.Claim(s.scripts, text); found != nil && second == nil {
			return found, after, nil
		}
	}
	return nil, after, fmt.Errorf("no script's marker in a user message; the first is %q", clip(cr.FirstUserText(), 200))
}

// nextID numbers tool calls across the server, so ids are unique in every
// conversation, and keeps the step that made the call.
func (s *Server) nextID(is issue) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	id := fmt.Sprintf("call_%03d", s.ids)
	s.issued[id] = is
	return id
}

var writeJSON = scripted.WriteJSON

// writeStream sends a reply as chat.completion.chunk events: the role,
// the text, each tool call whole in one chunk, the finish reason, the
// usage (stream_options.include_usage), then [DONE].
func writeStream(w http.ResponseWriter, head func(string, []any) map[string]any, text string, calls []map[string]any, finish string, usage map[string]any) {
	var b bytes.Buffer
	write := func(c map[string]any) {
		j, _ := json.Marshal(c)
		fmt.Fprintf(&b, "data: %s\n\n", j)
	}
	chunk := func(choices []any) { write(head("chat.completion.chunk", choices)) }
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}}
	}
	chunk(delta(map[string]any{"role": "assistant", "content": ""}, nil))
	if text != "" {
		chunk(delta(map[string]any{"content": text}, nil))
	}
	for _, c := range calls {
		chunk(delta(map[string]any{"tool_calls": []any{c}}, nil))
	}
	chunk(delta(map[string]any{}, finish))
	last := head("chat.completion.chunk", []any{})
	last["usage"] = usage
	write(last)
	b.WriteString("data: [DONE]\n\n")
	scripted.WriteEvents(w, b.Bytes())
}
