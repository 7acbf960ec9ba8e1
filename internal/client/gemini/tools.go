package gemini

import (
	"bytes"
	"encoding/json"

	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Gemini CLI 0.61.0's tools that write files, as its BeforeTool hook names
// them. The others it offers (read_file, glob, grep_search, web_fetch,
// write_todos, invoke_agent, complete_task...) write nothing in the work
// tree; a subagent's writes come through these same names.
const (
	WriteFile = "write_file"
	Replace   = "replace"
	ShellTool = "run_shell_command"
)

// geminiInput is the part of a Gemini tool's input that says where it
// writes: file_path (write_file, replace), or command and dir_path, where
// it runs (run_shell_command).
type geminiInput struct {
	FilePath, Command, DirPath string
}

// decode reads input, a tool's raw JSON input, as encoding/json would
// (internal/jsonread: this runs in every Gemini tool hook).
func (in *geminiInput) decode(input []byte) error {
	return jsonread.Fields(input, map[string]any{"file_path": &in.FilePath, "command": &in.Command, "dir_path": &in.DirPath})
}

// Writes returns the paths that a Gemini CLI tool call writes, from
// BeforeTool's tool_name and tool_input; cwd is the payload's cwd (the
// workspace, absolute). Gemini resolves a relative file_path and dir_path
// against the workspace, and so does this; a shell command goes through
// shell.Writes, run where ShellTool says. Input the client would refuse
// (not an object, a path that is not a string) and tools that write
// nothing give nil: the client runs nothing for them either.
func Writes(tool string, input json.RawMessage, cwd string) []shell.Write {
	switch tool {
	case WriteFile, Replace:
		var in geminiInput
		if in.decode(input) != nil || in.FilePath == "" {
			return nil
		}
		return []shell.Write{{Path: realpath.InDir(cwd, in.FilePath), By: tool}}
	case ShellTool:
		if command, dir, ok := ShellCommand(input, cwd); ok {
			return shell.Writes(command, dir)
		}
	}
	return nil
}

// ShellCommand reads a run_shell_command input: the command, and
// the folder it runs in (dir_path, relative to the workspace cwd, or cwd
// itself). ok is false for input the client would refuse.
func ShellCommand(input json.RawMessage, cwd string) (command, dir string, ok bool) {
	var in geminiInput
	if in.decode(input) != nil {
		return "", "", false
	}
	dir = cwd
	if in.DirPath != "" {
		dir = realpath.InDir(cwd, in.DirPath)
	}
	return in.Command, dir, true
}

// WithCommand returns a run_shell_command input with its command
// replaced (a lucid command signed, say) and every other field as it came:
// BeforeTool's hookSpecificOutput.tool_input replaces the tool's whole
// input rather than merging into it. nil when the input is not an object.
func WithCommand(input json.RawMessage, command string) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(input, &fields) != nil || fields == nil {
		return nil
	}
	fields["command"] = marshalPlain(command)
	return marshalPlain(fields)
}

// marshalPlain is json.Marshal without the HTML escapes (> as \u003e),
// which a shell command is full of and a reader of the hook's answer
// should not have to decode. The values here always marshal.
func marshalPlain(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
