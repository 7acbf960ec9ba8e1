package messages

import (
	"encoding/json"
	"strings"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Request is one HTTP request the client sent, as received. For a
// Messages call it holds the decoded body; its Conversation is "" for a
// side request without tools, and its Step the number of assistant
// messages in it.
type Request struct {
	scripted.Request
	Messages *MessagesRequest
}

// MessagesRequest is the part of a Messages API request body that tests
// read: what the model was shown.
type MessagesRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"` // a string or a list of text blocks
	Messages []Message       `json:"messages"`
	Tools    []Tool          `json:"tools"`
	Stream   bool            `json:"stream"`
}

// Message is one turn of the conversation.
type Message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or a list of blocks
}

// Block is one content block of a message (text, tool_use, tool_result).
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"` // of a tool_result: a string or blocks
	IsError   bool            `json:"is_error,omitempty"`
}

// Tool is one tool the client offered the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Blocks returns the message's content as blocks; a plain string content
// is one text block.
func (m Message) Blocks() []Block {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var bs []Block
	json.Unmarshal(m.Content, &bs)
	return bs
}

// Text is all the text the message shows the model: its text blocks and
// the text inside its tool results, one block a line.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Blocks() {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_result":
			parts = append(parts, b.ResultText())
		}
	}
	return strings.Join(parts, "\n")
}

// ResultText is the text of a tool_result block's content.
func (b Block) ResultText() string { return textOf(b.Content) }

// SystemText is the system prompt as one string.
func (r *MessagesRequest) SystemText() string { return textOf(r.System) }

// textOf reads content that is either a string or a list of blocks, and
// joins the blocks' text, one a line.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []Block
	json.Unmarshal(raw, &bs)
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Assistants counts the assistant messages: the step a script is at.
func (r *MessagesRequest) Assistants() int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// FirstUserText is the text of the first user message, where the client
// puts the prompt of a session or of a subagent.
func (r *MessagesRequest) FirstUserText() string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Text()
		}
	}
	return ""
}

// LastUserText is the text of the last user message: what the client
// added since the model's last turn (tool results, hook context, a stop
// hook's reason).
func (r *MessagesRequest) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text()
		}
	}
	return ""
}

// AllText is everything the model is shown: the system prompt and every
// message's text, in order.
func (r *MessagesRequest) AllText() string {
	parts := []string{r.SystemText()}
	for _, m := range r.Messages {
		parts = append(parts, m.Text())
	}
	return strings.Join(parts, "\n")
}

// Tool returns the offered tool of that name.
func (r *MessagesRequest) Tool(name string) (Tool, bool) {
	for _, t := range r.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// ToolUses returns the tool calls the model made so far in this
// conversation, oldest first.
func (r *MessagesRequest) ToolUses() []Block {
	var out []Block
	for _, m := range r.Messages {
		if m.Role != "assistant" {
			continue
		}
		for _, b := range m.Blocks() {
			if b.Type == "tool_use" {
				out = append(out, b)
			}
		}
	}
	return out
}

// ToolResult returns the result the client sent for the tool call id.
func (r *MessagesRequest) ToolResult(id string) (Block, bool) {
	for _, m := range r.Messages {
		for _, b := range m.Blocks() {
			if b.Type == "tool_result" && b.ToolUseID == id {
				return b, true
			}
		}
	}
	return Block{}, false
}

// Tail is what the client added since the model's last turn: the messages
// after the last assistant message (all of them in a first request).
func (r *MessagesRequest) Tail() []Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "assistant" {
			return r.Messages[i+1:]
		}
	}
	return r.Messages
}

// HookContext is the additionalContext of one hook as the model was shown
// it. Claude Code 2.1.332 sends it as a message of role "system" in
// messages (not in the top-level system prompt), whose text starts
// "<Event> hook additional context: " (the event as in "SessionStart", or
// "PreToolUse:Bash" for a tool's hook); other notes of the client's can
// follow in the same message, after a blank line.
type HookContext struct {
	Hook string // "SessionStart", "PreToolUse:Bash", ...
	Text string // from after the prefix to the end of the message or the next hook's prefix
}

const hookContextMarker = " hook additional context: "

// HookContexts returns the hook contexts in the given messages, in order.
func HookContexts(msgs []Message) []HookContext {
	var out []HookContext
	for _, m := range msgs {
		text := m.Text()
		for {
			i := strings.Index(text, hookContextMarker)
			if i < 0 {
				break
			}
			start := strings.LastIndexAny(text[:i], "\n") + 1
			hook := text[start:i]
			rest := text[i+len(hookContextMarker):]
			end := len(rest)
			if j := strings.Index(rest, hookContextMarker); j >= 0 {
				end = strings.LastIndexAny(rest[:j], "\n") + 1
			}
			out = append(out, HookContext{Hook: hook, Text: rest[:end]})
			text = rest[end:]
		}
	}
	return out
}
