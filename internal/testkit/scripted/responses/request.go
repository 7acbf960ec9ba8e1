package responses

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Request is one HTTP request the client sent, as received.
type Request struct {
	scripted.Request

	// For POST /v1/responses: the decoded body, and whether Codex asked
	// for a summary of the history to compact it (the script's Summary
	// answers, and the steps go on after it). Conversation is "" when no
	// script answered; Step counts the model's responses in the input
	// plus those a compaction took out of it.
	Responses  *ResponsesRequest
	Compaction bool
	// From the x-codex-turn-metadata header: the thread (a subagent's
	// own id, or the session's), whether a subagent sent it, and what
	// kind of request Codex says it is ("turn", or a compaction's).
	Thread      string
	Subagent    bool
	RequestKind string
}

// ResponsesRequest is the part of a Responses API request body that tests
// read: what the model was shown and offered.
type ResponsesRequest struct {
	Model  string            `json:"model"`
	Input  []Item            `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
	Stream bool              `json:"stream"`
}

// Item is one entry of a request's input: a message (user, developer,
// assistant), a call the model made, or a call's output.
type Item struct {
	Type      string          `json:"type"`
	ID        string          `json:"id,omitempty"`
	Role      string          `json:"role,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"` // of a message: a string or parts
	Name      string          `json:"name,omitempty"`
	Namespace string          `json:"namespace,omitempty"`
	Arguments string          `json:"arguments,omitempty"` // of a function_call, JSON text
	Input     string          `json:"input,omitempty"`     // of a custom_tool_call (apply_patch's patch)
	CallID    string          `json:"call_id,omitempty"`
	Output    json.RawMessage `json:"output,omitempty"` // of a *_call_output: a string or parts
}

// IsModelOutput says whether the model produced the item: what counts for
// the step of a script.
func (it Item) IsModelOutput() bool {
	switch it.Type {
	case "function_call", "custom_tool_call", "local_shell_call":
		return true
	case "message":
		return it.Role == "assistant"
	}
	return false
}

// Text is a message's text, or a call output's, its parts one a line.
func (it Item) Text() string {
	if strings.HasSuffix(it.Type, "_output") {
		return textOf(it.Output)
	}
	return textOf(it.Content)
}

func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// Steps counts the model's responses in the input: the step a script is
// at. Codex keeps the ids of output items, and the scripted server's ids
// name the response ("item_scripted_0007_1"), so the calls of one
// response count once; any other output item counts alone.
func (r *ResponsesRequest) Steps() int {
	n := 0
	seen := map[string]bool{}
	for _, it := range r.Input {
		if !it.IsModelOutput() {
			continue
		}
		if m := scriptedID.FindStringSubmatch(it.ID); m != nil {
			if seen[m[1]] {
				continue
			}
			seen[m[1]] = true
		}
		n++
	}
	return n
}

var scriptedID = regexp.MustCompile(`^(?:msg|item)_scripted_(\d+)_\d+$`)

// Messages returns the texts of the input's messages of a role ("user",
// "developer", "assistant"), in order.
func (r *ResponsesRequest) Messages(role string) []string {
	var out []string
	for _, it := range r.Input {
		if it.Type == "message" && it.Role == role {
			out = append(out, it.Text())
		}
	}
	return out
}

// Developer returns the developer messages: where Codex 0.169.0 puts what
// hooks return as additionalContext (and its own instructions).
func (r *ResponsesRequest) Developer() []string { return r.Messages("developer") }

// Tail is what the client added since the model's last output: the items
// after it (all of them in a first request).
func (r *ResponsesRequest) Tail() []Item {
	for i := len(r.Input) - 1; i >= 0; i-- {
		if r.Input[i].IsModelOutput() {
			return r.Input[i+1:]
		}
	}
	return r.Input
}

// Output returns the output the client sent for a call id.
func (r *ResponsesRequest) Output(callID string) (Item, bool) {
	for _, it := range r.Input {
		if strings.HasSuffix(it.Type, "_output") && it.CallID == callID {
			return it, true
		}
	}
	return Item{}, false
}

// Calls returns the calls the model made so far in the conversation.
func (r *ResponsesRequest) Calls() []Item {
	var out []Item
	for _, it := range r.Input {
		if it.Type == "function_call" || it.Type == "custom_tool_call" {
			out = append(out, it)
		}
	}
	return out
}

// ToolNames lists the tools offered, by name ("exec_command",
// "apply_patch", ...) or, for a built-in without a name, by type.
func (r *ResponsesRequest) ToolNames() []string {
	var out []string
	for _, raw := range r.Tools {
		var t struct{ Type, Name string }
		json.Unmarshal(raw, &t)
		if t.Name == "" {
			t.Name = t.Type
		}
		out = append(out, t.Name)
	}
	return out
}

// AllText is every message's and output's text, in order: everything the
// model is shown but the instructions.
func (r *ResponsesRequest) AllText() string {
	var parts []string
	for _, it := range r.Input {
		if it.Type == "message" || strings.HasSuffix(it.Type, "_output") {
			parts = append(parts, it.Text())
		}
	}
	return strings.Join(parts, "\n")
}
