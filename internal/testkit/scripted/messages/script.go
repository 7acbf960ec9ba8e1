package messages

import (
	"encoding/json"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Script is what the model says in one conversation. The server gives a
// request to the script whose Marker appears in the request's first user
// message (the session's prompt, or the prompt of the Agent call that
// started the subagent), and picks the step by counting the assistant
// messages in it.
type Script = scripted.Script[*MessagesRequest, Reply]

// Step makes the model's answer to one request.
type Step = scripted.Step[*MessagesRequest, Reply]

// Reply is one turn of the model: text, then tool calls. With tool calls
// the turn stops for "tool_use", without for "end_turn".
type Reply struct {
	Text  string
	Tools []ToolCall
	// InputTokens is the prompt's size the reply reports (10 when 0): a
	// large one makes the client compact the conversation.
	InputTokens int
}

// ToolCall is a tool_use block. Input is marshalled as JSON.
type ToolCall struct {
	Name  string
	Input any
}

// Say is a step that answers with text and ends the turn.
func Say(text string) Step {
	return func(*MessagesRequest) Reply { return Reply{Text: text} }
}

// Call is a step that calls one tool.
func Call(name string, input any) Step {
	return func(*MessagesRequest) Reply { return Reply{Tools: []ToolCall{{Name: name, Input: input}}} }
}

// stopReason is how a reply's turn ends.
func (r Reply) stopReason() string {
	if len(r.Tools) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

// blocks is the reply as Messages API content blocks, ids from next.
func (r Reply) blocks(next func() string) ([]map[string]any, error) {
	var out []map[string]any
	if r.Text != "" || len(r.Tools) == 0 {
		text := r.Text
		if text == "" {
			text = "Done."
		}
		out = append(out, map[string]any{"type": "text", "text": text})
	}
	for _, t := range r.Tools {
		in, err := json.Marshal(t.Input)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"type": "tool_use", "id": next(), "name": t.Name, "input": json.RawMessage(in)})
	}
	return out, nil
}
