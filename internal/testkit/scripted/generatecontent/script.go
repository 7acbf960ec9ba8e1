package generatecontent

import (
	"encoding/json"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Script is what the model says in one conversation: a session, or a
// subagent that invoke_agent started. The server gives a request to the
// script whose Marker appears in the request's first user turn (the
// session context and the prompt, or the subagent's prompt; for a resumed
// session, whose first turn has lost the prompt, in a later one), and
// picks the step by counting the model turns in it.
//
// Gemini CLI keeps one conversation across the turns of a session: the
// prompt that an AfterAgent deny sends starts a new user turn in the same
// history, so it is answered by the next step of the same script.
type Script = scripted.Script[*GenerateRequest, Reply]

// Step makes the model's answer to one request.
type Step = scripted.Step[*GenerateRequest, Reply]

// Reply is one turn of the model: text, then function calls.
type Reply struct {
	Text  string
	Calls []Call
}

// Call is one function call. Args is marshalled as JSON (an object).
type Call struct {
	Name string
	Args any
}

// Say is a step that answers with text and ends the turn.
func Say(text string) Step {
	return func(*GenerateRequest) Reply { return Reply{Text: text} }
}

// CallTool is a step that calls one tool.
func CallTool(name string, args any) Step {
	return func(*GenerateRequest) Reply { return Reply{Calls: []Call{{Name: name, Args: args}}} }
}

// WriteFile is a step that calls write_file, which 0.61.0 wants with an
// absolute path.
func WriteFile(path, content string) Step {
	return CallTool("write_file", map[string]any{"file_path": path, "content": content})
}

// Replace is a step that calls replace, once, for old by new in the file.
func Replace(path, old, new string) Step {
	return CallTool("replace", map[string]any{"file_path": path, "instruction": "replace the text",
		"old_string": old, "new_string": new})
}

// Shell is a step that calls run_shell_command.
func Shell(command string) Step {
	return CallTool("run_shell_command", map[string]any{"command": command, "description": "scripted command"})
}

// parts is the reply as Gemini API parts.
func (r Reply) parts() ([]map[string]any, error) {
	var out []map[string]any
	if r.Text != "" || len(r.Calls) == 0 {
		text := r.Text
		if text == "" {
			text = "Done."
		}
		out = append(out, map[string]any{"text": text})
	}
	for _, c := range r.Calls {
		args, err := json.Marshal(c.Args)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": json.RawMessage(args)}})
	}
	return out, nil
}
