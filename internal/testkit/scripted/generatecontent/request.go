package generatecontent

import (
	"encoding/json"
	"strings"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Request is one HTTP request the client sent, as received.
type Request struct {
	scripted.Request

	// For a generate call (streamed or not): the model named in the path
	// and the decoded body. Conversation is "" for a side request and for
	// a request no script claimed; Step is the number of model turns in
	// it.
	Model    string
	Stream   bool
	Generate *GenerateRequest
}

// GenerateRequest is the part of a generateContent body that tests read:
// what the model was shown.
type GenerateRequest struct {
	Contents          []Content       `json:"contents"`
	SystemInstruction *Content        `json:"systemInstruction,omitempty"`
	Tools             []ToolSet       `json:"tools,omitempty"`
	GenerationConfig  json.RawMessage `json:"generationConfig,omitempty"`
}

// Content is one turn: role "user" (the prompt, hook context, function
// responses) or "model".
type Content struct {
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one piece of a turn; exactly one of its fields is set.
type Part struct {
	Text             string            `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	FunctionCall     *FunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *FunctionResponse `json:"functionResponse,omitempty"`
}

// FunctionCall is a tool call of the model, as the client sends it back
// in the history (with the id it gave the call).
type FunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// FunctionResponse is a tool's result. Gemini CLI 0.61.0 puts a run
// tool's text in Response["output"] and a refused or failed one's in
// Response["error"].
type FunctionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

// ToolSet is one entry of the request's tools.
type ToolSet struct {
	FunctionDeclarations []FunctionDeclaration `json:"functionDeclarations"`
}

// FunctionDeclaration is one tool the client offered the model.
type FunctionDeclaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

// Output is the function response's text: its output, or its error.
func (f *FunctionResponse) Output() string {
	for _, k := range []string{"output", "error"} {
		if s, ok := f.Response[k].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(f.Response)
	return string(b)
}

// Blocked reports whether the client refused to run the tool because a
// hook said so, and with which reason.
func (f *FunctionResponse) Blocked() (reason string, ok bool) {
	s, _ := f.Response["error"].(string)
	return strings.CutPrefix(s, "Tool execution blocked: ")
}

// Text is the turn's text parts (thoughts left out), one a line.
func (c Content) Text() string {
	var parts []string
	for _, p := range c.Parts {
		if p.Text != "" && !p.Thought {
			parts = append(parts, p.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Models counts the model turns: the step a script is at.
func (r *GenerateRequest) Models() int {
	n := 0
	for _, c := range r.Contents {
		if c.Role == "model" {
			n++
		}
	}
	return n
}

// FirstUserText is the text of the first user turn: the session context
// and the prompt (a subagent's: the prompt it was invoked with).
func (r *GenerateRequest) FirstUserText() string {
	for _, c := range r.Contents {
		if c.Role == "user" {
			return c.Text()
		}
	}
	return ""
}

// UserText is the text of every user turn (function responses left
// out), one part a line.
func (r *GenerateRequest) UserText() string {
	var parts []string
	for _, c := range r.Contents {
		if c.Role == "user" {
			if t := c.Text(); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// LastUserText is the text of the last user turn, with the output of its
// function responses.
func (r *GenerateRequest) LastUserText() string {
	for i := len(r.Contents) - 1; i >= 0; i-- {
		c := r.Contents[i]
		if c.Role != "user" {
			continue
		}
		var parts []string
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				parts = append(parts, p.FunctionResponse.Output())
			case p.Text != "" && !p.Thought:
				parts = append(parts, p.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// AllText is everything the request shows the model besides the system
// instruction and tools: every text part and function response.
func (r *GenerateRequest) AllText() string {
	var parts []string
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				parts = append(parts, p.FunctionResponse.Output())
			case p.Text != "" && !p.Thought:
				parts = append(parts, p.Text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// SystemText is the system instruction's text.
func (r *GenerateRequest) SystemText() string {
	if r.SystemInstruction == nil {
		return ""
	}
	return r.SystemInstruction.Text()
}

// ToolNames lists the tools offered, in the order offered.
func (r *GenerateRequest) ToolNames() []string {
	var out []string
	for _, ts := range r.Tools {
		for _, f := range ts.FunctionDeclarations {
			out = append(out, f.Name)
		}
	}
	return out
}

// Tool returns the declaration of the named tool, if offered.
func (r *GenerateRequest) Tool(name string) (FunctionDeclaration, bool) {
	for _, ts := range r.Tools {
		for _, f := range ts.FunctionDeclarations {
			if f.Name == name {
				return f, true
			}
		}
	}
	return FunctionDeclaration{}, false
}

// Responses lists every function response in the request, in order.
func (r *GenerateRequest) Responses() []*FunctionResponse {
	var out []*FunctionResponse
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				out = append(out, p.FunctionResponse)
			}
		}
	}
	return out
}

// LastResponse is the last function response, or nil.
func (r *GenerateRequest) LastResponse() *FunctionResponse {
	rs := r.Responses()
	if len(rs) == 0 {
		return nil
	}
	return rs[len(rs)-1]
}

// Calls lists the model's function calls in the history, in order.
func (r *GenerateRequest) Calls() []*FunctionCall {
	var out []*FunctionCall
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if p.FunctionCall != nil {
				out = append(out, p.FunctionCall)
			}
		}
	}
	return out
}

// HookContext is one `<hook_context>` block that Gemini CLI put in front
// of the model for a hook's additionalContext, and where it was found.
type HookContext struct {
	Content int    // index in Contents
	Where   string // "text" (a user text part) or "function_response" (appended to a tool's output)
	Tool    string // the function's name, for Where == "function_response"
	Text    string // what the hook said, without the tags
}

const (
	openTag  = "<hook_context>"
	closeTag = "</hook_context>"
)

// HookContexts finds every hook context in the turns, in order.
// SessionStart's is in front of the prompt's text part, BeforeAgent's is
// a text part of its own, AfterTool's ends the function's output.
func HookContexts(contents []Content) []HookContext {
	var out []HookContext
	for i, c := range contents {
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				for _, t := range tagged(p.FunctionResponse.Output()) {
					out = append(out, HookContext{Content: i, Where: "function_response", Tool: p.FunctionResponse.Name, Text: t})
				}
			case p.Text != "" && !p.Thought:
				for _, t := range tagged(p.Text) {
					out = append(out, HookContext{Content: i, Where: "text", Text: t})
				}
			}
		}
	}
	return out
}

// tagged returns what each <hook_context> block in s holds.
func tagged(s string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(s, openTag)
		if !ok {
			return out
		}
		body, after, ok := strings.Cut(rest, closeTag)
		if !ok {
			return out
		}
		out = append(out, body)
		s = after
	}
}
