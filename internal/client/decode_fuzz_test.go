// Package client_test fuzzes and times the adapters of every client together: they
// are the first code that reads what a client (or anyone who can write a
// hook's stdin) sends.
package client_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/claude"
	"github.com/lucid-dev/lucid/internal/client/codex"
	"github.com/lucid-dev/lucid/internal/client/copilot"
	"github.com/lucid-dev/lucid/internal/client/gemini"
	"github.com/lucid-dev/lucid/internal/client/qwen"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// FuzzDecode: any payload decodes or is refused by every adapter without
// a panic, decoding costs memory in proportion to the payload, and what it
// reads out of the payload is no bigger than the payload.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "payloads", "*", "*.json"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add("PostToolUse", b)
		}
	}
	f.Add("PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"x"}}`))
	f.Add("PostToolUse", []byte(`{"tool_name":"Bash","tool_response":{"bashEditDiff":{"changedFiles":["/a"],"shared":true}}}`))
	f.Add("PreToolUse", []byte(`{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}}`))
	f.Add("BeforeTool", []byte(`{"tool_name":"run_shell_command","tool_input":{"command":"echo > a","dir_path":"d"}}`))
	f.Add("PostToolUse", []byte(`{"tool_name":"Write","tool_input":[1,2],"tool_response":"x"}`))
	f.Add("SessionStart", []byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`))
	f.Add("preToolUse", []byte(`{"sessionId":"s","toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}`))
	clients := []client.Client{claude.Client{}, codex.Client{}, gemini.Client{}, copilot.Client{}, qwen.Client{}}
	f.Fuzz(func(t *testing.T, event string, payload []byte) {
		for _, c := range clients {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			in, err := c.Decode(event, payload)
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(64*len(payload))+1<<20 {
				t.Fatalf("%s: decoding %d bytes allocated %d", c.Name(), len(payload), grew)
			}
			if err != nil {
				continue
			}
			n := len(in.Command)
			for _, p := range in.Paths {
				n += len(p)
			}
			if n > 3*len(payload)+4096 { // U+FFFD for an invalid byte; paths joined to cwd
				t.Fatalf("%s: %d bytes of paths and commands out of a %d-byte payload", c.Name(), n, len(payload))
			}
			if _, _, code := c.Encode(in, &client.Output{Context: "x", Deny: "y"}); code != 0 {
				t.Fatalf("%s: a deny exits %d", c.Name(), code)
			}
		}
	})
}

// BenchmarkDecode: what each adapter costs a hook to read a payload its
// client sent (recorded), the tool events that run on every write.
func BenchmarkDecode(b *testing.B) {
	for _, bc := range []struct {
		name           string
		c              client.Client
		version, event string
		file           string
	}{
		{"claude/Edit", claude.Client{}, "claude-code-2.1.332", client.PreToolUse, "PreToolUse-Edit-lead.json"},
		{"claude/PostBash", claude.Client{}, "claude-code-2.1.332", client.PostToolUse, "PostToolUse-Bash-lead.json"},
		{"codex/apply_patch", codex.Client{}, "codex-0.169.0", client.PreToolUse, "PreToolUse-apply_patch.json"},
		{"gemini/write_file", gemini.Client{}, "gemini-0.61.0", gemini.BeforeTool, "BeforeTool-write_file.json"},
		{"qwen/shell", qwen.Client{}, "qwen-code-0.24.4", client.PreToolUse, "PreToolUse-run_shell_command.json"},
		{"copilot/bash", copilot.Client{}, "copilot-cli-1.0.102", copilot.PreToolUse, "preToolUse-bash.json"},
	} {
		payload := clienttest.Recorded(b, bc.version, bc.file)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.c.Decode(bc.event, payload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
