package hooks

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// readLarge keeps what a handler reads, exactly as encoding/json reads the
// whole payload, and drops the bulky members, whatever their escapes and
// wherever the reader's buffers end.
func TestReadLarge(t *testing.T) {
	// Escapes of every kind, one of them astride each buffer boundary.
	content := strings.Repeat(`a"b\c`+"\n\t\u00e9\u2028", 9000) + strings.Repeat("x", 64<<10-1) + `\"`
	payloads := []map[string]any{
		{"session_id": "s", "cwd": "/r", "hook_event_name": "PreToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"content": content, "file_path": `/r/a "b"\c.txt`}, "extra": []any{1.5, true, nil, map[string]any{"k": "}]"}}},
		{"session_id": "s", "agent_id": "a1", "cwd": "/r", "hook_event_name": "PostToolUse", "tool_name": "Bash",
			"tool_input":    map[string]any{"command": "echo '" + content + "' > out", "description": "write"},
			"tool_response": map[string]any{"stdout": content, "bashEditDiff": map[string]any{"changedFiles": []string{"/r/out"}, "shared": true}}},
		{"session_id": "s", "cwd": "/r", "hook_event_name": "UserPromptSubmit", "prompt": content, "permission_mode": "default"},
		{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Edit",
			"tool_input": map[string]any{"old_string": content, "new_string": content, "file_path": "/r/e"}},
	}
	for _, p := range payloads {
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var want Input
		json.Unmarshal(raw, &want)
		want.readTool()
		got, err := readLarge(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", p["tool_name"], err)
		}
		got.readTool()
		if got.SessionID != want.SessionID || got.PermissionMode != want.PermissionMode || got.AgentID != want.AgentID || got.ToolName != want.ToolName || got.Cwd != want.Cwd ||
			got.tool != want.tool || strings.Join(got.changed, ",") != strings.Join(want.changed, ",") {
			t.Errorf("%s: read\n%+v %v\nwant\n%+v %v", p["tool_name"], got.tool, got.changed, want.tool, want.changed)
		}
		if bytes.Contains(got.ToolInput, []byte("a\\\"b")) && p["tool_name"] != "Bash" || bytes.Contains(got.ToolResponse, []byte("stdout")) {
			t.Errorf("%s: a bulky member was kept: %.200s %.200s", p["tool_name"], got.ToolInput, got.ToolResponse)
		}
	}
	for _, bad := range []string{`{"tool_name": "Write", "tool_input": {"content": "cut`, `[1]`, `{"a" 1}`, `{"cwd": tru}`} {
		if _, err := readLarge(strings.NewReader(bad)); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}
