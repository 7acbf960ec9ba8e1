package chatcompletions

import (
	"encoding/json"
	"strings"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Request is one HTTP request the client sent, as received. For a chat
// completions call it holds the decoded body; Side says it was a side
// request (no tools, or a compaction summary), whose Conversation is "".
type Request struct {
	scripted.Request
	Chat *ChatRequest
	Side bool
}

// ChatRequest is the part of a chat completions request body that tests
// read: what the model was shown and offered.
type ChatRequest struct {
	Model    string            `json:"model"`
	Messages []Message         `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
	Stream   bool              `json:"stream"`
}

// Message is one message of the conversation: system, user, assistant
// (text and tool calls) or tool (one call's result).
type Message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"` // a string, a list of parts, or null
	ToolCalls  []ToolCall      `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// ToolCall is a call the model made: a function, or a custom (freeform)
// tool whose input is raw text (Copilot's apply_patch).
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"` // "function" or "custom"
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	Custom struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"custom"`
}

// Name is the called tool's name.
func (c ToolCall) Name() string {
	if c.Type == "custom" {
		return c.Custom.Name
	}
	return c.Function.Name
}

// Input is a function call's arguments (JSON text) or a custom call's input.
func (c ToolCall) Input() string {
	if c.Type == "custom" {
		return c.Custom.Input
	}
	return c.Function.Arguments
}

// Text is the message's text: a string content, or its text parts one a
// line.
func (m Message) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	json.Unmarshal(m.Content, &parts)
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// Assistants counts the assistant messages: the step a script is at.
func (r *ChatRequest) Assistants() int { return len(r.Texts("assistant")) }

// Texts returns the texts of the messages of a role, in order.
func (r *ChatRequest) Texts(role string) []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role == role {
			out = append(out, m.Text())
		}
	}
	return out
}

// SystemText is the system messages' text.
func (r *ChatRequest) SystemText() string { return strings.Join(r.Texts("system"), "\n") }

// FirstUserText is the text of the first user message.
func (r *ChatRequest) FirstUserText() string {
	if u := r.Texts("user"); len(u) > 0 {
		return u[0]
	}
	return ""
}

// LastUserText is the text of the last user message.
func (r *ChatRequest) LastUserText() string {
	if u := r.Texts("user"); len(u) > 0 {
		return u[len(u)-1]
	}
	return ""
}

// AllText is everything the model is shown: every message's text, in
// order, the system prompt included.
func (r *ChatRequest) AllText() string {
	var parts []string
	for _, m := range r.Messages {
		parts = append(parts, m.Text())
	}
	return strings.Join(parts, "\n")
}

// Tail is what the client added since the model's last turn: the messages
// after the last assistant message (all of them in a first request).
func (r *ChatRequest) Tail() []Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "assistant" {
			return r.Messages[i+1:]
		}
	}
	return r.Messages
}

// ToolCalls returns the calls the model made so far, oldest first.
func (r *ChatRequest) ToolCalls() []ToolCall {
	var out []ToolCall
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			out = append(out, m.ToolCalls...)
		}
	}
	return out
}

// ToolResult returns the tool message that answers the call id.
func (r *ChatRequest) ToolResult(callID string) (Message, bool) {
	for _, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m, true
		}
	}
	return Message{}, false
}

// LastToolResult returns the last tool message.
func (r *ChatRequest) LastToolResult() (Message, bool) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			return r.Messages[i], true
		}
	}
	return Message{}, false
}

// ToolNames lists the tools offered: {"type":"function","function":{"name"}}
// or {"type":"custom","custom":{"name"}}.
func (r *ChatRequest) ToolNames() []string {
	var out []string
	for _, raw := range r.Tools {
		var t struct {
			Type     string
			Function struct{ Name string }
			Custom   struct{ Name string }
		}
		json.Unmarshal(raw, &t)
		if t.Type == "custom" {
			out = append(out, t.Custom.Name)
		} else {
			out = append(out, t.Function.Name)
		}
	}
	return out
}

// HookContext is what one hook added for the model, as the client put it
// in the conversation.
type HookContext struct {
	Hook string // the event, in the client's own spelling ("postToolUse", "UserPromptSubmit", ...)
	Text string // the hook's text
}

// CopilotHookContexts returns the hook contexts that GitHub Copilot CLI
// 1.0.102 put in the messages, in order: sessionStart's as user messages
// before the prompt (the last of the leading user messages), the
// prompt's <system_reminder> blocks (userPromptSubmitted), a user message
// "Additional context from preToolUse hook:\n" after a tool result, and
// "Additional guidance from postToolUse hooks:\n" (or postToolUseFailure)
// in a tool result or user message.
func CopilotHookContexts(msgs []Message) []HookContext {
	var out []HookContext
	leading := 0
	for leading < len(msgs) && (msgs[leading].Role == "user" || msgs[leading].Role == "system") {
		leading++
	}
	lastLeadingUser := -1
	for i := 0; i < leading; i++ {
		if msgs[i].Role == "user" {
			lastLeadingUser = i
		}
	}
	for i, m := range msgs {
		text := m.Text()
		switch {
		case m.Role == "user" && i < lastLeadingUser:
			out = append(out, HookContext{"sessionStart", text})
			continue
		case m.Role == "user" && strings.HasPrefix(text, preToolPrefix):
			out = append(out, HookContext{"preToolUse", strings.TrimPrefix(text, preToolPrefix)})
			continue
		}
		if m.Role == "user" {
			for _, t := range between(text, "<system_reminder>\n", "\n</system_reminder>") {
				out = append(out, HookContext{"userPromptSubmitted", t})
			}
		}
		if i := strings.Index(text, "Additional guidance from "); i >= 0 {
			hook, rest, ok := strings.Cut(text[i+len("Additional guidance from "):], " hooks:\n")
			if ok {
				out = append(out, HookContext{hook, rest})
			}
		}
	}
	return out
}

const preToolPrefix = "Additional context from preToolUse hook:\n"

// QwenHookContexts returns the hook contexts that Qwen Code 0.24.4 put in
// the messages, in order, with its &lt; &gt; escapes undone: SessionStart's
// in the system message, UserPromptSubmit's parts, and PostToolUse's (and
// PostToolBatch's, PostToolUseFailure's) at the end of a tool result.
// Qwen appends those after a blank line to a tool's text output, but as a
// part of their own (one line on from the output here) to a result made
// of parts, such as the agent tool's; so a tool result's context is what
// follows its first blank line, else its last line, and a result whose
// own output has such lines shows them as context too.
func QwenHookContexts(msgs []Message) []HookContext {
	unescape := strings.NewReplacer("&lt;", "<", "&gt;", ">").Replace
	var out []HookContext
	for _, m := range msgs {
		text := m.Text()
		switch m.Role {
		case "system":
			for _, t := range between(text, "<qwen:session-start-context hidden=\"true\">\nSessionStart additional context:\n", "\n</qwen:session-start-context>") {
				out = append(out, HookContext{"SessionStart", unescape(t)})
			}
		case "user":
			for _, t := range between(text, "<qwen:user-prompt-submit-context>\n", "\n</qwen:user-prompt-submit-context>") {
				out = append(out, HookContext{"UserPromptSubmit", unescape(t)})
			}
		case "tool":
			_, rest, ok := strings.Cut(text, "\n\n")
			if !ok {
				if i := strings.LastIndex(text, "\n"); i >= 0 {
					rest, ok = text[i+1:], i+1 < len(text)
				}
			}
			if ok {
				out = append(out, HookContext{"PostToolUse", unescape(rest)})
			}
		}
	}
	return out
}

// between returns every text between open and close in s.
func between(s, open, close string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(s, open)
		if !ok {
			return out
		}
		t, after, ok := strings.Cut(rest, close)
		if !ok {
			return out
		}
		out = append(out, t)
		s = after
	}
}
