package chatcompletions

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Script is what the model says in one conversation: a lead session, or
// a subagent. The server gives a conversation's first request to the
// script whose Marker appears in the earliest user message that holds
// any script's marker (the session's prompt, or the prompt of the task or
// agent call that started the subagent), at the step of the number of
// assistant messages in it. Once the model made a tool call, the call's
// id, which the history keeps, tells the script and the step, also after
// a compaction took the prompt and earlier turns out. Summary, when set,
// answers the conversation's side requests for a summary (compaction).
type Script = scripted.Script[*ChatRequest, Reply]

// Step makes the model's answer to one request.
type Step = scripted.Step[*ChatRequest, Reply]

// Reply is one turn of the model: text, then tool calls. With calls the
// turn finishes for "tool_calls", without for "stop".
type Reply struct {
	Text  string
	Calls []Call
	// Usage is the prompt_tokens reported for the request (100 when 0):
	// a large figure makes the client compact (Qwen Code near 255000).
	Usage int
}

// Call is one tool call. Args is marshalled as JSON, except for a Custom
// (freeform) tool, whose input is Args as a string.
type Call struct {
	Name   string
	Args   any
	Custom bool
}

// Say is a step that answers with text and ends the turn.
func Say(text string) Step { return func(*ChatRequest) Reply { return Reply{Text: text} } }

// CallTool is a step that calls one tool.
func CallTool(name string, args any) Step {
	return Calls(Call{Name: name, Args: args})
}

// Calls is a step that makes the given calls in one turn.
func Calls(calls ...Call) Step { return func(*ChatRequest) Reply { return Reply{Calls: calls} } }

// Bash is a step that calls Copilot's bash tool, synchronously.
func Bash(command string) Step {
	return CallTool("bash", map[string]any{"command": command, "description": "scripted command", "mode": "sync"})
}

// Create is a step that calls Copilot's create tool (a new file).
func Create(path, text string) Step {
	return CallTool("create", map[string]any{"path": path, "file_text": text})
}

// Edit is a step that calls Copilot's edit tool, for old by new once.
func Edit(path, old, new string) Step {
	return CallTool("edit", map[string]any{"path": path, "old_str": old, "new_str": new})
}

// Task is a step that starts a Copilot subagent (agent type "task",
// "general-purpose", ...) and waits for it; its prompt is prompt: put the
// subagent script's marker in it.
func Task(agentType, prompt string) Step {
	return CallTool("task", map[string]any{"description": "scripted subagent", "prompt": prompt, "agent_type": agentType,
		"name": "scripted", "mode": "sync"})
}

// ApplyPatch is a step that calls Copilot's freeform apply_patch tool
// (offered to gpt-5 models instead of create and edit).
func ApplyPatch(patch string) Step {
	return Calls(Call{Name: "apply_patch", Args: patch, Custom: true})
}

// Shell is a step that calls Qwen Code's run_shell_command.
func Shell(command string) Step {
	return CallTool("run_shell_command", map[string]any{"command": command, "description": "scripted command"})
}

// WriteFile is a step that calls Qwen Code's write_file (an absolute path).
func WriteFile(path, content string) Step {
	return CallTool("write_file", map[string]any{"file_path": path, "content": content})
}

// ReadFile is a step that calls Qwen Code's read_file (an absolute path).
func ReadFile(path string) Step {
	return CallTool("read_file", map[string]any{"file_path": path})
}

// EditFile is a step that calls Qwen Code's edit, for old by new once;
// Qwen refuses to edit a file the session has not read_file'd.
func EditFile(path, old, new string) Step {
	return CallTool("edit", map[string]any{"file_path": path, "old_string": old, "new_string": new})
}

// Agent is a step that starts a Qwen Code subagent of a type
// ("general-purpose", ...) in the foreground, whose prompt is prompt: put
// the subagent script's marker in it.
func Agent(agentType, prompt string) Step {
	return CallTool("agent", map[string]any{"description": "scripted subagent", "prompt": prompt,
		"subagent_type": agentType, "run_in_background": false})
}

// toolCall is the call as a chat completions tool call, with its id.
func (c Call) toolCall(index int, id string) (map[string]any, error) {
	if c.Custom {
		input, _ := c.Args.(string)
		return map[string]any{"index": index, "id": id, "type": "custom",
			"custom": map[string]any{"name": c.Name, "input": input}}, nil
	}
	// A model writes "a > b" as is, not as "a \u003e b".
	var args bytes.Buffer
	enc := json.NewEncoder(&args)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c.Args); err != nil {
		return nil, err
	}
	return map[string]any{"index": index, "id": id, "type": "function",
		"function": map[string]any{"name": c.Name, "arguments": strings.TrimSuffix(args.String(), "\n")}}, nil
}
