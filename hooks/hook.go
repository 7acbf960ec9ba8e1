package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// MaxPayload is the largest hook payload read; a larger one is ignored.
const MaxPayload = 16 << 20

// Events are the Claude Code events `lucid hook` handles, in Claude Code's
// spelling.
var Events = []string{
	"SessionStart", "SubagentStart", "UserPromptSubmit", "PreToolUse",
	"PostToolUse", "Stop", "SubagentStop", "TaskCompleted", "TeammateIdle",
	"PreCompact", "SessionEnd",
}

// Input is the part of a hook payload lucid reads. Unknown fields are
// ignored and missing ones are zero.
type Input struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	Event          string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	AgentID        string          `json:"agent_id"`
	AgentType      string          `json:"agent_type"`
	Source         string          `json:"source"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	StopHookActive bool            `json:"stop_hook_active"`
	TeammateName   string          `json:"teammate_name"` // TaskCompleted, TeammateIdle

	// Read from ToolInput and ToolResponse once, by readTool, for
	// lucid's handlers and the lich mode alike.
	tool    toolInput
	changed []string // what the tool call changed (PostToolUse)
	// unnamed holds, for a Bash command whose bashEditDiff is shared with
	// other commands that ran at the same time, the changed files that its
	// own command does not name: maybe its, maybe another agent's
	// (see ownShellChanges).
	unnamed []string
}

// Output is the one JSON object a hook prints, in the form Claude Code
// honours: what carries meaning goes inside hookSpecificOutput, except a
// stop hook's decision and reason.
type Output struct {
	Specific *Specific `json:"hookSpecificOutput,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Reason   string    `json:"reason,omitempty"`

	// blockReason, for events that honour no JSON decision
	// (TaskCompleted), is said on stderr with exit 2, which keeps the task
	// open and shows the model the reason.
	blockReason string
}

// Specific is hookSpecificOutput.
type Specific struct {
	HookEventName            string          `json:"hookEventName"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
}

// Run handles one hook call: the payload on stdin, at most one JSON object
// on stdout. It is fail-open: any trouble of lucid's own is one line on
// stderr, nothing on stdout, and exit 0, so the agent's work goes on.
func Run(event string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "lucid hook %s: internal error: %v\n", event, p)
			code = 0
		}
	}()
	if !knownEvent(event) {
		fmt.Fprintf(stderr, "lucid hook: unknown event %q (known: %v)\n", event, Events)
		return 0
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, MaxPayload+1))
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "lucid hook %s: reading the payload: %v\n", event, err)
		return 0
	case len(payload) > MaxPayload:
		fmt.Fprintf(stderr, "lucid hook %s: payload over 16 MiB ignored\n", event)
		return 0
	case len(bytes.TrimSpace(payload)) == 0:
		fmt.Fprintf(stderr, "lucid hook %s: empty payload ignored\n", event)
		return 0
	}
	var in Input
	if err := json.Unmarshal(payload, &in); err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: payload is not a JSON object: %v\n", event, err)
		return 0
	}
	in.Event = event
	in.readTool()
	out, err := handle(in)
	if err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v\n", event, err)
		out = nil
	}
	out = lichMode(in, out, stderr)
	if out == nil {
		return 0
	}
	if out.blockReason != "" {
		fmt.Fprintln(stderr, out.blockReason)
		return 2
	}
	b, err := json.Marshal(out)
	if err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v\n", event, err)
		return 0
	}
	stdout.Write(append(b, '\n'))
	return 0
}

func knownEvent(e string) bool {
	for _, k := range Events {
		if k == e {
			return true
		}
	}
	return false
}

// call is one hook call in a repository that uses lucid.
type call struct {
	in    Input
	repo  *gitstore.Repo
	agent string // gitstore.AgentID of the caller
	now   time.Time
	held  *gitstore.Lock
}

// lock takes the repository's lock unless this call holds it already, and
// returns what releases it: a handler that holds the lock can call helpers
// that take it too.
func (c *call) lock() (func(), error) {
	if c.held != nil {
		return func() {}, nil
	}
	l, err := c.repo.Lock()
	if err != nil {
		return nil, err
	}
	c.held = l
	return func() { c.held = nil; l.Unlock() }, nil
}

// handle finds the repository and runs the event's handler. Outside a
// repository with .lucid/ it does nothing.
func handle(in Input) (*Output, error) {
	dir := in.Cwd
	if dir == "" {
		dir = os.Getenv("CLAUDE_PROJECT_DIR")
	}
	if dir == "" {
		return nil, nil
	}
	repo, err := gitstore.Find(dir)
	if err != nil || !repo.Initialised() {
		return nil, nil
	}
	if in.SessionID == "" {
		return nil, fmt.Errorf("payload has no session_id")
	}
	c := &call{in: in, repo: repo, agent: gitstore.AgentID(in.SessionID, in.AgentID), now: time.Now()}
	switch in.Event {
	case "SessionStart", "SubagentStart":
		return c.start()
	case "UserPromptSubmit":
		return c.userPrompt()
	case "PreToolUse":
		return c.preToolUse()
	case "PostToolUse":
		return c.postToolUse()
	case "SubagentStop":
		return c.subagentStop()
	case "TaskCompleted":
		return c.taskCompleted()
	case "TeammateIdle":
		return c.teammateIdle()
	case "PreCompact":
		return c.preCompact()
	case "Stop":
		return c.stop()
	default: // SessionEnd
		return c.sessionEnd()
	}
}

// context wraps text as additionalContext for the call's event; nil for
// no text, so that nothing at all is printed.
func (c *call) context(text string) *Output {
	if text == "" {
		return nil
	}
	return &Output{Specific: &Specific{HookEventName: c.in.Event, AdditionalContext: text}}
}
