// Package generatecontent is the Gemini API of the scripted model server:
// it lets the real Gemini CLI client (GOOGLE_GEMINI_BASE_URL pointing here,
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
// asks for JSON, an object of its schema's shape.
package generatecontent

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Server serves the Gemini API on 127.0.0.1 from scripts.
type Server struct {
	// URL (http://127.0.0.1:PORT, for GOOGLE_GEMINI_BASE_URL), the
	// request log and the wait come from the skeleton.
	*scripted.Server[*Request]

	// SideText answers side requests; nil says "Scripted reply.". Set it
	// before the client starts.
	SideText func(r *GenerateRequest) string
	// PromptTokens is the promptTokenCount reported for a request; nil
	// says a quarter of its body's length. Gemini CLI compresses the
	// history once a reported count passes half the model's context.
	PromptTokens func(r *Request) int

	scripts []*Script
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

// detail tells of a generate call for a dump: its conversation and step,
// and its first and last user turns, cut to a readable length.
func detail(r *Request) string {
	if r.Generate == nil {
		return ""
	}
	conv := r.Conversation
	if conv == "" {
		conv = "(side)"
	}
	return fmt.Sprintf(" conversation=%s step=%d contents=%d tools=%d\n  first user: %q\n  last user: %q\n",
		conv, r.Step, len(r.Generate.Contents), len(r.Generate.ToolNames()),
		clip(r.Generate.FirstUserText(), 200), clip(r.Generate.LastUserText(), 600))
}

var clip = scripted.Clip

const modelsPrefix = "/v1beta/models/"

func (s *Server) serve(w http.ResponseWriter, hr *http.Request, req *Request) {
	model, method, _ := strings.Cut(strings.TrimPrefix(hr.URL.Path, modelsPrefix), ":")
	isModel := strings.HasPrefix(hr.URL.Path, modelsPrefix) && hr.Method == http.MethodPost
	switch {
	case isModel && (method == "streamGenerateContent" || method == "generateContent"):
		req.Model, req.Stream = model, method == "streamGenerateContent"
		s.generate(w, req)
	case isModel && method == "countTokens":
		s.Add(req)
		writeJSON(w, map[string]any{"totalTokens": len(req.Body)/4 + 1})
	case hr.Method == http.MethodGet && strings.HasPrefix(hr.URL.Path, "/v1beta/models"):
		s.Add(req)
		writeJSON(w, map[string]any{"models": []any{}})
	default:
		// Whatever else the client asks is logged, so a test can see it.
		s.Unknown(w, req, `{"error":{"code":404,"message":"not scripted","status":"NOT_FOUND"}}`)
	}
}

// generate answers a generateContent call, streamed or not, from the
// script that claims it.
func (s *Server) generate(w http.ResponseWriter, req *Request) {
	var gr GenerateRequest
	if err := json.Unmarshal(req.Body, &gr); err != nil {
		s.Add(req)
		s.Problem("request #%d: body is not a generateContent request: %v", req.Seq, err)
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
		s.Add(req)
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
		s.Add(req)
		switch {
		case err != nil:
			s.Problem("request #%d: %v", req.Seq, err)
			reply = Reply{Text: "No script for this conversation."}
		default:
			var ok bool
			if reply, ok = sc.Answer(req.Step, &gr); !ok {
				reply = Reply{Text: "Done."}
			}
		}
	}
	parts, err := reply.parts()
	if err != nil {
		s.Problem("request #%d: %v", req.Seq, err)
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
	scripted.WriteEvents(w, fmt.Appendf(nil, "data: %s\r\n\r\n", data))
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
		found, second := scripted.Claim(s.scripts, text)
		if second != nil {
			return found, fmt.Errorf("markers of %q and %q both in the user's text", found.Name, second.Name)
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

var writeJSON = scripted.WriteJSON
