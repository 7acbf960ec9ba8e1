package guard

import (
	"bytes"
	"encoding/json"
	"path/filepath"
)

// Gemini CLI 0.61.0's tools that write files, as its BeforeTool hook names
// them. The others it offers (read_file, glob, grep_search, web_fetch,
// write_todos, invoke_agent, complete_task...) write nothing in the work
// tree; a subagent's writes come through these same names.
const (
	GeminiWriteFile = "write_file"
	GeminiReplace   = "replace"
	GeminiShell     = "run_shell_command"
)

// geminiInput is the part of a Gemini tool's input that says where it
// writes.
type geminiInput struct {
	FilePath string `json:"file_path"` // write_file, replace
	Command  string `json:"command"`   // run_shell_command
	DirPath  string `json:"dir_path"`  // run_shell_command: where it runs
}

// GeminiWrites returns the paths that a Gemini CLI tool call writes, from
// BeforeTool's tool_name and tool_input; cwd is the payload's cwd (the
// workspace, absolute). Gemini resolves a relative file_path and dir_path
// against the workspace, and so does this; a shell command goes through
// ShellWrites, run in dir_path. Input the client would refuse (not an
// object, a path that is not a string) and tools that write nothing give
// nil: the client runs nothing for them either.
func GeminiWrites(tool string, input json.RawMessage, cwd string) []ShellWrite {
	var in geminiInput
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	switch tool {
	case GeminiWriteFile, GeminiReplace:
		if in.FilePath == "" {
			return nil
		}
		return []ShellWrite{{Path: resolveIn(cwd, in.FilePath), By: tool}}
	case GeminiShell:
		dir := cwd
		if in.DirPath != "" {
			dir = resolveIn(cwd, in.DirPath)
		}
		return ShellWrites(in.Command, dir)
	}
	return nil
}

func resolveIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// GeminiStampShell signs the lucid commands of a run_shell_command input
// (StampLucid) and returns the whole input to send back as BeforeTool's
// hookSpecificOutput.tool_input: Gemini CLI replaces the tool's input with
// it rather than merging, so every other argument is kept as it came, and
// nil is returned when there is nothing to sign (or the input is not an
// object with a string command), so that the input is left alone.
func GeminiStampShell(input json.RawMessage, agent string) (json.RawMessage, Stamp) {
	var fields map[string]json.RawMessage
	var command string
	if json.Unmarshal(input, &fields) != nil || json.Unmarshal(fields["command"], &command) != nil {
		return nil, Stamp{Command: command}
	}
	st := StampLucid(command, agent)
	if !st.Found {
		return nil, st
	}
	fields["command"] = marshalPlain(st.Command)
	return marshalPlain(fields), st
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
