package crush

import (
	"encoding/json"

	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Crush's tools that write files, its shell and its subagent tool, as its
// hooks name them (internal/agent/tools). lsp_rename writes wherever the
// language server finds the symbol, which its input does not say; the
// others it offers (view, ls, grep, glob, fetch, job_output...) write
// nothing in the work tree.
const (
	Write         = "write"
	Edit          = "edit"
	MultiEdit     = "multiedit"
	Download      = "download"
	ReplaceSymbol = "lsp_replace_symbol"
	Bash          = "bash"
	AgentTool     = "agent"
)

// crushInput is the part of a Crush tool's input that says where it
// writes: file_path (the write tools), or command and working_dir, where
// it runs (bash).
type crushInput struct {
	FilePath, Command, WorkingDir string
}

// decode reads input, a tool's raw JSON input, as encoding/json would.
func (in *crushInput) decode(input []byte) error {
	return jsonread.Fields(input, map[string]any{
		"file_path": &in.FilePath, "command": &in.Command, "working_dir": &in.WorkingDir,
	})
}

// Writes returns the paths that a Crush tool call writes, from
// PreToolUse's tool_name and tool_input; cwd is the payload's cwd (the
// folder crush started in). A relative path is read against cwd, as
// Crush does. A shell command goes through shell.Writes, run where
// ShellCommand says. Input Crush would refuse and tools that write
// nothing give nil.
func Writes(tool string, input json.RawMessage, cwd string) []shell.Write {
	switch tool {
	case Write, Edit, MultiEdit, Download, ReplaceSymbol:
		var in crushInput
		if in.decode(input) != nil || in.FilePath == "" {
			return nil
		}
		return []shell.Write{{Path: realpath.InDir(cwd, in.FilePath), By: tool}}
	case Bash:
		if command, dir, ok := ShellCommand(input, cwd); ok {
			return shell.Writes(command, dir)
		}
	}
	return nil
}

// ShellCommand reads a bash input: the command, and the folder it runs in
// (working_dir, or cwd). ok is false for input Crush would refuse.
func ShellCommand(input json.RawMessage, cwd string) (command, dir string, ok bool) {
	var in crushInput
	if in.decode(input) != nil {
		return "", "", false
	}
	dir = cwd
	if in.WorkingDir != "" {
		dir = realpath.InDir(cwd, in.WorkingDir)
	}
	return in.Command, dir, true
}
