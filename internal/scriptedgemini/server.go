// Package scriptedgemini is a scripted Gemini API server for tests: it
// lets the real Gemini CLI client (GOOGLE_GEMINI_BASE_URL pointing here,
// API-key auth) run against a model whose every turn a test wrote in
// advance, and records every request, so the test can read exactly what
// the model was shown: the contents, the tools offered, and what hooks
// added to them.
//
// Gemini CLI 0.61.0 sends a session's model calls as
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse. Each
// conversation (a session, each subagent) follows its own Script, told
// apart by a marker in its first user turn (or, resumed, a later one);
// the step is the number of model turns in the request. A call that
// offers no tools is the client's own (a side request: a check, or the
// summary when it compresses the history) and gets SideText, or, when it
// asks for JSON, an object of its schema's shape. The sibling package
// scriptedapi does the same for the Anthropic Messages API.
package scriptedgemini

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/reqlog"
)

// Server serves the Gemini API on 127.0.0.1 from scripts.
type Server struct {
	URL string // http://127.0.0.1:PORT, for GOOGLE_GEMINI_BASE_URL

	// SideText answers side requests; nil says "Scripted reply.". Set it
	// before the client starts.
	SideText func(r *GenerateRequest) string
	// PromptTokens is the promptTokenCount reported for a request; nil
	// says a quarter of its body's length. Gemini CLI compresses the
	// history once a reported count passes half the model's context.
	PromptTokens func(r *Request) int

	http    *httptest.Server
	scripts []*Script
	log     reqlog.Log[*Request]
}

// New starts a server on a free port of 127.0.0.1 that follows the given
// scripts. Close it when done.
func New(scripts ...*Script) *Server {
	s := &Server{scripts: scripts}
	s.http = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.http.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.http.Close() }

// Requests returns every request received so far, in order of arrival.
func (s *Server) Requests() []*Request { return s.log.All() }

// Conversation returns the generate requests a script answered, in order.
func (s *Server) Conversation(name string) []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.Generate != nil && r.Conversation == name {
			out = append(out, r)
		}
	}
	return out
}

// Problems lists what the server could not answer as scripted: unknown
// requests, requests no script claimed, markers found twice, steps that
// failed. A test should expect none.
func (s *Server) Problems() []string { return s.log.Problems() }

// Wait blocks until cond holds for the requests received (checked at
// each new request) or the timeout passes, and reports whether it held.
func (s *Server) Wait(timeout time.Duration, cond func([]*Request) bool) bool {
	return s.log.Wait(timeout, cond)
}

// Dump writes the request log for a failing test: one line a request, and
// for generate calls the last user turn, cut to a readable length.
func (s *Server) Dump() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&b, "#%d %s %s %s", r.Seq, r.At.Format("15:04:05.000"), r.Method, r.Path)
		if r.Generate == nil {
			fmt.Fprintf(&b, " body=%q\n", clip(string(r.Body), 300))
			continue
		}
		conv := r.Conversation
		if conv == "" {
			conv = "(side)"
		}
		fmt.Fprintf(&b, " conversation=%s step=%d contents=%d tools=%d\n  first user: %q\n  last user: %q\n",
			conv, r.Step, len(r.Generate.Contents), len(r.Generate.ToolNames()),
			clip(r.Generate.FirstUserText(), 200), clip(r.Generate.LastUserText(), 600))
	}
	for _, p := range s.Problems() {
		fmt.Fprintf(&b, "problem: %s\n", p)
	}
	return b.String()
}

var clip = reqlog.Clip

func (s *Server) problem(format string, args ...any) { s.log.Problem(format, args...) }

func (s *Server) record(r *Request) { s.log.Add(r, &r.Seq) }

const modelsPrefix = "/v1beta/models/"

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	req := &Request{At: time.Now(), Method: hr.Method, Path: hr.URL.RequestURI(), Body: body}
	model, method, _ := strings.Cut(strings.TrimPrefix(hr.URL.Path, modelsPrefix), ":")
	isModel := strings.HasPrefix(hr.URL.Path, modelsPrefix) && hr.Method == http.MethodPost
	switch {
	case isModel && (method == "streamGenerateContent" || method == "generateContent"):
		req.Model, req.Stream = model, method == "streamGenerateContent"
		s.generate(w, req)
	case isModel && method == "countTokens":
		s.record(req)
		writeJSON(w, map[string]any{"totalTokens": len(body)/4 + 1})
	case hr.Method == http.MethodGet && strings.HasPrefix(hr.URL.Path, "/v1beta/models"):
		s.record(req)
		writeJSON(w, map[string]any{"models": []any{}})
	default:
		// Whatever else the client asks is logged, so a test can see it.
		s.record(req)
		s.problem("unknown request %s %s", hr.Method, req.Path)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"code":404,"message":"not scripted","status":"NOT_FOUND"}}`)
	}
}

// generate answers a generateContent call, streamed or not, from the
// script that claims it.
func (s *Server) generate(w http.ResponseWriter, req *Request) {
	var gr GenerateRequest
	if err := json.Unmarshal(req.Body, &gr); err != nil {
		s.record(req)
		s.problem("request #%d: body is not a generateContent request: %v", req.Seq, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Generate = &gr
	req.Step = gr.Models()
	var reply Reply
	if len(gr.ToolNames()) == 0 {
		// Only an agent's conversation offers tools. A call without them
		// is the client's own (a JSON check, the summary and its check when
		// it compresses the history), even when it quotes the prompt.
		s.record(req)
		if schema := wantsJSON(gr.GenerationConfig); schema != nil {
			reply = Reply{Text: jsonAnswer(schema)}
		} else {
			text := "Scripted reply."
			if s.SideText != nil {
				text = s.SideText(&gr)
			}
			reply = Reply{Text: text}
		}
	} else {
		sc, err := s.claim(&gr)
		if sc != nil {
			req.Conversation = sc.Name
		}
		s.record(req)
		switch {
		case err != nil:
			s.problem("request #%d: %v", req.Seq, err)
			reply = Reply{Text: "No script for this conversation."}
		case req.Step < len(sc.Steps):
			reply = sc.Steps[req.Step](&gr)
		case sc.Done != nil:
			reply = sc.Done(&gr)
		default:
			reply = Reply{Text: "Done."}
		}
	}
	parts, err := reply.parts()
	if err != nil {
		s.problem("request #%d: %v", req.Seq, err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	prompt := len(req.Body)/4 + 1
	if s.PromptTokens != nil {
		prompt = s.PromptTokens(req)
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": prompt, "candidatesTokenCount": 5, "totalTokenCount": prompt + 5},
		"modelVersion":  req.Model,
		"responseId":    fmt.Sprintf("scripted-%04d", req.Seq),
	}
	if !req.Stream {
		writeJSON(w, resp)
		return
	}
	// One server-sent event holds the whole turn: the client joins the
	// chunks of a stream, and one chunk is a stream it must handle too.
	data, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fmt.Fprintf(w, "data: %s\r\n\r\n", data)
}

// claim finds the one script whose marker is in the first user turn, or,
// when none is, in a later user text: a resumed session (--resume) keeps
// only the session context in its first turn and drops the old prompt.
// With two markers it returns the first and an error; with none, nil and
// an error.
func (s *Server) claim(gr *GenerateRequest) (*Script, error) {
	first := gr.FirstUserText()
	texts := []string{first, gr.UserText()}
	for _, text := range texts {
		var found *Script
		for _, sc := range s.scripts {
			if sc.Marker == "" || !strings.Contains(text, sc.Marker) {
				continue
			}
			if found != nil {
				return found, fmt.Errorf("markers of %q and %q both in the user's text", found.Name, sc.Name)
			}
			found = sc
		}
		if found != nil {
			return found, nil
		}
	}
	return nil, fmt.Errorf("no script's marker in the user's text; the first turn is %q", clip(first, 200))
}

// wantsJSON returns the response schema of a call that asks for JSON
// (an empty one when it names none), or nil.
func wantsJSON(config json.RawMessage) map[string]any {
	var gc struct {
		MimeType   string         `json:"responseMimeType"`
		JSONSchema map[string]any `json:"responseJsonSchema"`
		Schema     map[string]any `json:"responseSchema"`
	}
	if json.Unmarshal(config, &gc) != nil {
		return nil
	}
	switch {
	case gc.JSONSchema != nil:
		return gc.JSONSchema
	case gc.Schema != nil:
		return gc.Schema
	case gc.MimeType == "application/json":
		return map[string]any{}
	}
	return nil
}

// jsonAnswer is an object of the schema's shape: each property its enum's
// first value or its type's zero, and "user" for next_speaker (the check
// after a turn, so that the client does not talk on by itself).
func jsonAnswer(schema map[string]any) string {
	props, _ := schema["properties"].(map[string]any)
	obj := map[string]any{}
	for k, v := range props {
		p, _ := v.(map[string]any)
		typ, _ := p["type"].(string)
		if enum, ok := p["enum"].([]any); ok && len(enum) > 0 {
			obj[k] = enum[0]
			continue
		}
		switch strings.ToLower(typ) {
		case "boolean":
			obj[k] = false
		case "number", "integer":
			obj[k] = 0
		case "array":
			obj[k] = []any{}
		case "object":
			obj[k] = map[string]any{}
		default:
			obj[k] = "scripted"
		}
	}
	if _, ok := props["next_speaker"]; ok {
		obj["next_speaker"] = "user"
	}
	b, _ := json.Marshal(obj)
	return string(b)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
