package client_test

import (
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/claude"
	"github.com/lucid-dev/lucid/internal/client/codex"
	"github.com/lucid-dev/lucid/internal/client/copilot"
	"github.com/lucid-dev/lucid/internal/client/gemini"
	"github.com/lucid-dev/lucid/internal/client/qwen"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

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
