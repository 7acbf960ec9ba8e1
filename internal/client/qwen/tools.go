package qwen

import (
	"encoding/json"

	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Qwen Code 0.24.4's tools that write files, and its subagent tool, as its
// hooks name them. The others it offers (read_file, grep_search, glob,
// web_fetch, todo_write...) write nothing in the work tree; a subagent's
// writes come through these same names.
const (
	WriteFile    = "write_file"
	Edit         = "edit"
	Replace      = "replace" // edit's older name
	NotebookEdit = "notebook_edit"
	ShellTool    = "run_shell_command"
	Monitor      = "monitor" // runs a shell command in the background
	AgentTool    = "agent"
)

// qwenInput is the part of a Qwen tool's input that says where it writes:
// file_path (write_file, edit), notebook_path (notebook_edit), or command
// and directory, where it runs (run_shell_command, monitor).
type qwenInput struct {
	FilePath, NotebookPath, Command, Directory string
}

// decode reads input, a tool's raw JSON input, as encoding/json would
// (internal/jsonread: this runs in every Qwen tool hook).
func (in *qwenInput) decode(input []byte) error {
	return jsonread.Fields(input, map[string]any{
		"file_path": &in.FilePath, "notebook_path": &in.NotebookPath,
		"command": &in.Command, "directory": &in.Directory,
	})
}

// Writes returns the paths that a Qwen Code tool call writes, from
// PreToolUse's tool_name and tool_input; cwd is the payload's cwd (the
// folder qwen started in, absolute). Qwen gives absolute paths; a relative
// one is read against cwd. A shell command goes through shell.Writes,
// run where ShellCommand says. Input the client would refuse (not an
// object, a path that is not a string) and tools that write nothing give
// nil.
func Writes(tool string, input json.RawMessage, cwd string) []shell.Write {
	switch tool {
	case WriteFile, Edit, Replace, NotebookEdit:
		var in qwenInput
		if in.decode(input) != nil {
			return nil
		}
		path := in.FilePath
		if tool == NotebookEdit {
			path = in.NotebookPath
		}
		if path == "" {
			return nil
		}
		return []shell.Write{{Path: realpath.InDir(cwd, path), By: tool}}
	case ShellTool, Monitor:
		if command, dir, ok := ShellCommand(input, cwd); ok {
			return shell.Writes(command, dir)
		}
	}
	return nil
}

// ShellCommand reads a run_shell_command or monitor input: the command,
// and the folder it runs in (directory, or cwd). ok is false for input the
// client would refuse.
func ShellCommand(input json.RawMessage, cwd string) (command, dir string, ok bool) {
	var in qwenInput
	if in.decode(input) != nil {
		return "", "", false
	}
	dir = cwd
	if in.Directory != "" {
		dir = realpath.InDir(cwd, in.Directory)
	}
	return in.Command, dir, true
}
