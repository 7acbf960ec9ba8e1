package claudeshape

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const all = Common | PermissionMode | AgentID | AgentType | TeammateName | TaskID | ToolResponse | SubmittedPrompt

// Every recorded payload of the clients that send this shape reads as
// encoding/json reads it.
func TestDecodeAsEncodingJSON(t *testing.T) {
	var files []string
	for _, version := range []string{"claude-code-2.1.332", "codex-0.169.0", "gemini-0.61.0", "qwen-code-0.24.4"} {
		more, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "payloads", version, "*.json"))
		files = append(files, more...)
	}
	if len(files) < 100 {
		t.Fatalf("%d recorded payloads", len(files))
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var want struct {
			SessionID       string          `json:"session_id"`
			Cwd             string          `json:"cwd"`
			PermissionMode  string          `json:"permission_mode"`
			Source          string          `json:"source"`
			AgentID         string          `json:"agent_id"`
			AgentType       string          `json:"agent_type"`
			TeammateName    string          `json:"teammate_name"`
			TaskID          string          `json:"task_id"`
			SubmittedPrompt string          `json:"submitted_prompt"`
			ToolName        string          `json:"tool_name"`
			ToolInput       json.RawMessage `json:"tool_input"`
			ToolResponse    json.RawMessage `json:"tool_response"`
			StopHookActive  bool            `json:"stop_hook_active"`
		}
		werr := json.Unmarshal(b, &want)
		got, err := Decode(b, all)
		if (err != nil) != (werr != nil) {
			t.Errorf("%s: %v, encoding/json %v", file, err, werr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, Payload{
			SessionID: want.SessionID, Cwd: want.Cwd, PermissionMode: want.PermissionMode, Source: want.Source,
			AgentID: want.AgentID, AgentType: want.AgentType, TeammateName: want.TeammateName, TaskID: want.TaskID,
			SubmittedPrompt: want.SubmittedPrompt, ToolName: want.ToolName, ToolInput: want.ToolInput,
			ToolResponse: want.ToolResponse, StopHookActive: want.StopHookActive,
		}) {
			t.Errorf("%s:\n got %+v\nwant %+v", file, got, want)
		}
	}
}

// A member the adapter does not read is skipped, whatever its value; one
// it reads must fit, and the payload must be an object (or null).
func TestDecodeReadsOnlyItsMembers(t *testing.T) {
	b := []byte(`{"session_id":"s","agent_id":5,"tool_name":"Bash"}`)
	if p, err := Decode(b, Common); err != nil || p.SessionID != "s" || p.ToolName != "Bash" || p.AgentID != "" {
		t.Errorf("agent_id not read: %+v, %v", p, err)
	}
	if _, err := Decode(b, Common|AgentID); err == nil || !strings.HasPrefix(err.Error(), "payload is not a JSON object: agent_id:") {
		t.Errorf("agent_id read: %v", err)
	}
	for _, s := range []string{"", "[1]", "{", `"s"`} {
		if _, err := Decode([]byte(s), all); err == nil {
			t.Errorf("%q decoded", s)
		}
	}
	if p, err := Decode([]byte("null"), all); err != nil || !reflect.DeepEqual(p, Payload{}) {
		t.Errorf("null: %+v, %v", p, err)
	}
}
