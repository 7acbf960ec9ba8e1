// Package claudeshape reads a hook payload in the shape Claude Code
// defined and other clients (Codex CLI, Qwen Code, Gemini CLI) send too:
// one JSON object whose members lucid reads are session_id, cwd,
// tool_name, tool_input and the like. Each of those clients sends some of
// the members, and its adapter names which it reads: a member it does not
// read is skipped, whatever its value. It reads without reflection
// (internal/jsonread), since every hook call starts with it.
package claudeshape

import (
	"fmt"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Payload is the part of a hook payload lucid reads.
type Payload struct {
	SessionID, Cwd, PermissionMode, Source   string
	AgentID, AgentType, TeammateName, TaskID string
	SubmittedPrompt                          string
	ToolName                                 string
	ToolInput, ToolResponse                  []byte // raw JSON
	StopHookActive                           bool
}

// Members are members of a payload, one bit each.
type Members uint16

// The members lucid reads, by the payload's own names.
const (
	SessionID       Members = 1 << iota // session_id
	Cwd                                 // cwd
	Source                              // source: SessionStart's startup, resume, ...
	ToolName                            // tool_name
	ToolInput                           // tool_input
	StopHookActive                      // stop_hook_active
	PermissionMode                      // permission_mode
	AgentID                             // agent_id
	AgentType                           // agent_type
	TeammateName                        // teammate_name
	TaskID                              // task_id
	ToolResponse                        // tool_response
	SubmittedPrompt                     // submitted_prompt

	// Common are the members every client of this shape sends.
	Common = SessionID | Cwd | Source | ToolName | ToolInput | StopHookActive
)

// Decode reads the members named in read of payload b, as encoding/json
// would read them into the Payload's fields. A member whose value does not
// fit its field makes an error, as does a payload that is no JSON object.
func Decode(b []byte, read Members) (Payload, error) {
	var p Payload
	err := jsonread.FieldsFunc(b, func(key string) any {
		var into any
		var m Members
		switch key {
		case "session_id":
			into, m = &p.SessionID, SessionID
		case "cwd":
			into, m = &p.Cwd, Cwd
		case "source":
			into, m = &p.Source, Source
		case "tool_name":
			into, m = &p.ToolName, ToolName
		case "tool_input":
			into, m = &p.ToolInput, ToolInput
		case "stop_hook_active":
			into, m = &p.StopHookActive, StopHookActive
		case "permission_mode":
			into, m = &p.PermissionMode, PermissionMode
		case "agent_id":
			into, m = &p.AgentID, AgentID
		case "agent_type":
			into, m = &p.AgentType, AgentType
		case "teammate_name":
			into, m = &p.TeammateName, TeammateName
		case "task_id":
			into, m = &p.TaskID, TaskID
		case "tool_response":
			into, m = &p.ToolResponse, ToolResponse
		case "submitted_prompt":
			into, m = &p.SubmittedPrompt, SubmittedPrompt
		}
		if read&m == 0 {
			return nil
		}
		return into
	})
	if err != nil {
		return Payload{}, fmt.Errorf("payload is not a JSON object: %w", err)
	}
	return p, nil
}

// Input is the call as the payload tells it, under lucid's name of its
// event: who calls, from where, with which tool. What the tool does
// (Tool, Paths, Command) and the client's Caps are the adapter's to add.
func (p Payload) Input(event string) client.Input {
	return client.Input{
		Event: event, SessionID: p.SessionID, AgentID: p.AgentID, AgentType: p.AgentType,
		TeammateName: p.TeammateName, Cwd: p.Cwd, PermissionMode: p.PermissionMode, Source: p.Source,
		StopHookActive: p.StopHookActive, ToolName: p.ToolName, ToolInput: p.ToolInput,
	}
}
