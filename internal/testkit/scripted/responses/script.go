package responses

import (
	"encoding/json"
	"regexp"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// Script is what the model says in one conversation: a lead session, or
// a subagent. A conversation's first request goes to the script whose
// Marker appears in the earliest user message that holds any script's
// marker (the session's prompt, or the message of the spawn_agent call
// that started the subagent); its later requests follow its thread id, so
// a compacted history that lost the marker stays with its script. The
// step is the number of the model's responses in the request's input,
// plus those a compaction took out of it. Summary answers Codex's
// compaction requests.
type Script = scripted.Script[*ResponsesRequest, Reply]

// Step makes the model's answer to one request.
type Step = scripted.Step[*ResponsesRequest, Reply]

// Reply is one response of the model: text, then calls, in that order.
// With calls, Codex runs them and asks again; with text alone the turn
// ends.
type Reply struct {
	Text  string
	Calls []Call
	// InputTokens is the usage reported for the request (10 when 0): a
	// large figure makes Codex compact its history.
	InputTokens int
}

// Call is one tool call: a function (Arguments marshalled as JSON) or,
// with Custom, a freeform tool whose input is Input (apply_patch).
type Call struct {
	Name      string
	Namespace string // "multi_agent_v1" for spawn_agent and wait_agent
	Arguments any
	Custom    bool
	Input     string
}

// Say is a step that answers with text and ends the turn.
func Say(text string) Step { return func(*ResponsesRequest) Reply { return Reply{Text: text} } }

// Calls is a step that makes the given calls.
func Calls(calls ...Call) Step {
	return func(*ResponsesRequest) Reply { return Reply{Calls: calls} }
}

// Exec calls the shell tool (exec_command; hooks see it as Bash).
func Exec(cmd string) Call {
	return Call{Name: "exec_command", Arguments: map[string]any{"cmd": cmd}}
}

// ApplyPatch calls the apply_patch tool (freeform) with a patch.
func ApplyPatch(patch string) Call { return Call{Name: "apply_patch", Custom: true, Input: patch} }

// Spawn starts a subagent whose first user message is message: put the
// subagent script's marker in it. Codex 0.169.0 runs spawn_agent with the
// gpt-5.5 model although it offers it only behind tool_search.
func Spawn(message string) Call {
	return Call{Name: "spawn_agent", Namespace: "multi_agent_v1", Arguments: map[string]any{"message": message}}
}

// WaitSpawned is a step that waits for every subagent the conversation
// spawned, by the ids the spawn_agent outputs returned.
func WaitSpawned(timeoutMS int) Step {
	return func(r *ResponsesRequest) Reply {
		return Reply{Calls: []Call{{Name: "wait_agent", Namespace: "multi_agent_v1",
			Arguments: map[string]any{"targets": SpawnedAgents(r), "timeout_ms": timeoutMS}}}}
	}
}

var agentIDField = regexp.MustCompile(`"agent_id"\s*:\s*"([^"]+)"`)

// SpawnedAgents returns the ids of the subagents the conversation spawned,
// read from the spawn_agent outputs (`{"agent_id": ..., "nickname": ...}`).
func SpawnedAgents(r *ResponsesRequest) []string {
	ids := []string{}
	for _, c := range r.Calls() {
		if c.Name != "spawn_agent" {
			continue
		}
		if out, ok := r.Output(c.CallID); ok {
			if m := agentIDField.FindStringSubmatch(out.Text()); m != nil {
				ids = append(ids, m[1])
			}
		}
	}
	return ids
}

// item is a call as a Responses output item, completed.
func (c Call) item(id, callID string) (map[string]any, error) {
	if c.Custom {
		return map[string]any{"type": "custom_tool_call", "id": id, "call_id": callID, "name": c.Name,
			"input": c.Input, "status": "completed"}, nil
	}
	args, err := json.Marshal(c.Arguments)
	if err != nil {
		return nil, err
	}
	it := map[string]any{"type": "function_call", "id": id, "call_id": callID, "name": c.Name,
		"arguments": string(args), "status": "completed"}
	if c.Namespace != "" {
		it["namespace"] = c.Namespace
	}
	return it, nil
}
