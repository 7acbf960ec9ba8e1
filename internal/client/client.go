// Package client is the contract between a coding client's adapter and
// lucid's hook engine: lucid's names of the events, what a client
// registers (Event), what an adapter implements (Client, and where it can,
// ShellReader, ProcessReader, LargeInput), and the one call as lucid sees
// it (Input, with the client's Caps) and lucid's answer (Output) before the
// adapter encodes it. It holds types and names only, so that every adapter,
// the engine and the installers can share it without importing each other.
package client

import "time"

// lucid's own names of the events it handles (Claude Code's spelling). A
// client's adapter maps its own events onto these.
const (
	SessionStart     = "SessionStart"
	SubagentStart    = "SubagentStart"
	UserPromptSubmit = "UserPromptSubmit"
	PreToolUse       = "PreToolUse"
	PostToolUse      = "PostToolUse"
	Stop             = "Stop"
	SubagentStop     = "SubagentStop"
	TaskCompleted    = "TaskCompleted"
	PreCompact       = "PreCompact"
	SessionEnd       = "SessionEnd"
)

// Events are the events lucid handles, in lucid's own names.
var Events = []string{
	SessionStart, SubagentStart, UserPromptSubmit, PreToolUse,
	PostToolUse, Stop, SubagentStop, TaskCompleted, PreCompact,
	SessionEnd,
}

// Event is one event a client registers for lucid, the one table that
// both the hook path and the installer read: the client's own name of it,
// lucid's name of it (the handler that runs), the narrowest matcher its
// handler needs (empty: the event takes none, or every source) and a
// timeout, after which the client goes on without the hook.
type Event struct {
	Name    string // the client's own, as its settings and lucid hook take it
	Lucid   string // lucid's own (PreToolUse, ...)
	Matcher string
	Timeout time.Duration
}

// EventNames are the client's own names of events.
func EventNames(events []Event) []string {
	names := make([]string, len(events))
	for i, e := range events {
		names[i] = e.Name
	}
	return names
}

// Named is a client by its name on the command line (lucid hook
// --client). What else it implements tells lucid more of it: a Title
// method, its name as its users know it (TitleOf); ShellReader and
// ProcessReader, its agents' shells and its own process.
type Named interface {
	Name() string
}

// TitleOf is a client's name as its users know it: its Title, where it
// has one, else its Name.
func TitleOf(c Named) string {
	if t, ok := c.(interface{ Title() string }); ok {
		return t.Title()
	}
	return c.Name()
}

// Client is what differs between the coding clients whose hooks call lucid
// (Claude Code, Codex CLI, Gemini CLI): the names of their events and
// tools, the shape of their payloads, and how they take an answer. An
// adapter decodes a payload into lucid's Input and encodes lucid's Output
// in the client's form; everything between is the same for every client.
type Client interface {
	Named
	// Events are the events the client registers, in its own names and
	// lucid's.
	Events() []Event
	// Decode reads one payload of the client's event into lucid's Input.
	Decode(event string, payload []byte) (Input, error)
	// Encode writes out, the answer to in, as the client honours it: what
	// goes on stdout, a line for stderr, and the exit code.
	Encode(in Input, out *Output) (stdout []byte, stderr string, code int)
}

// LargeInput is implemented by a client whose payloads hold a tool's input
// in another member than tool_input, or its bulky text in other members
// than the engine skips of every client's (content, old_string, ...): a
// payload too large to read whole is read without them.
type LargeInput interface {
	// LargeInput names the payload's member that holds a tool's input and
	// the members of that input which carry a file's content or an
	// edit's text.
	LargeInput() (input string, bulky []string)
}

// Tool is what lucid makes of a tool call.
type Tool int

const (
	ToolOther Tool = iota // nothing lucid looks at (Read, Grep, ...)
	ToolEdit              // writes the files named in Input.Paths (Write, Edit, apply_patch, ...)
	ToolShell             // runs Input.Command in a shell
	ToolAgent             // runs a subagent in the foreground and hands back its result
)

// Input is one hook call as lucid sees it, whichever client made it.
// Unknown fields of a payload are ignored and missing ones are zero.
type Input struct {
	Client         string // the adapter's Name
	Event          string // lucid's name of the event (see Events)
	ProjectDir     string // the folder the session started in, where the client names it
	SessionID      string
	AgentID        string // a subagent's or teammate's own id; empty for a lead
	AgentType      string
	TeammateName   string // TaskCompleted: the teammate whose task it is
	Cwd            string
	PermissionMode string
	Source         string // SessionStart: startup, resume, clear, compact
	StopHookActive bool   // a stop hook already kept the agent going once

	ToolName string // the client's own name of the tool, for messages
	Tool     Tool
	Paths    []string // ToolEdit: the files written, absolute or relative to Cwd
	Command  string   // ToolShell: the command line
	// ToolInput is the client's own tool input, for the adapter that
	// encodes a replacement of it (Output.Command).
	ToolInput []byte

	// PostToolUse: what the call changed that is the caller's own, and,
	// where the client's record of it is shared with other agents'
	// calls that ran at the same time, the changed files that may be
	// another agent's.
	Changed []string
	Unsure  []string

	// Caps are what the client lets through at this call, as its adapter
	// knows.
	Caps Caps
}

// Caps is a set of what a client lets through, or leaves out, at one hook
// call, which the engine works around; its adapter sets them per call.
type Caps uint16

const (
	// Mute: the model is shown no context from this call (Gemini's
	// BeforeTool, Qwen Code's SubagentStart), so the news, or a start's
	// digest, waits for the next event that can carry it.
	Mute Caps = 1 << iota
	// NewsAfter: PostToolUse carries the delta (a client whose PreToolUse
	// is mute).
	NewsAfter
	// GateLead: the lead's Stop runs the stop gate (a client whose agents
	// are leads, with no subagents to ask).
	GateLead
	// Unrecorded: the client says nothing of what a shell command
	// changed, so lucid watches the claimed files itself.
	Unrecorded
	// NoRestart: the client starts no session anew after it compacts a
	// lead's conversation (no SessionStart with source compact), so
	// PreCompact marks the lead's record as a subagent's.
	NoRestart
	// NoPrompt: UserPromptSubmit came before a model call that carries no
	// prompt of the user's (Qwen Code's after each tool result), so the
	// news goes, and the reminder a prompt gets does not.
	NoPrompt
	// WarnAfter: PostToolUse says what lucid said of the call at its
	// PreToolUse, which showed the model nothing (a claim of its file in
	// another work tree).
	WarnAfter
	// KeepClaims: this Stop or SubagentStop may not end the turn (the
	// model's text is complete, and tool calls may follow in the same
	// step): the stop gate runs, where one more turn can still be asked
	// for, and the claims stay until the real end.
	KeepClaims
	// PowerShell: Input.Command is a PowerShell command line (Copilot
	// CLI's powershell tool, Codex CLI's shell on Windows), read by the
	// PowerShell reader rather than bash's; lucid signs none of its
	// commands, since the stamp is bash's syntax.
	PowerShell
	// NoAfter: the client has no PostToolUse (Crush), so lich's marker of
	// an edit is written at its PreToolUse, once lucid lets it run: the
	// edit is about to happen, and nothing comes after it to say it did.
	NoAfter
	// NoStart: the client has no start event (Crush), so a new agent's
	// first call that can carry context gives it the digest, where the
	// others give it at SessionStart.
	NoStart
)

// Has reports whether every one of k is in the set.
func (c Caps) Has(k Caps) bool { return c&k == k }

// If is c where on holds, and none otherwise: an adapter's caps that
// depend on the call, as in NewsAfter.If(sub) | GateLead.
func (c Caps) If(on bool) Caps {
	if on {
		return c
	}
	return 0
}

// Output is lucid's answer to one hook call, before the client's adapter
// encodes it. A nil Output prints nothing at all.
type Output struct {
	Context string // text for the model
	Deny    string // the tool call is refused, with this reason
	// Block keeps the agent going (a stop) or its task open
	// (TaskCompleted), with this reason as its next instruction.
	Block string
	// Command, when set, replaces a shell tool's command (lucid commands
	// signed with LUCID_AGENT); Permission ("allow" or "ask") and its
	// reason go with it.
	Command          string
	Permission       string
	PermissionReason string
}

// Shell is what the environment of a process says of the agent's shell it
// runs in: a command a client runs for its agent (the shell tool), as
// opposed to one of the client's hooks or a person's terminal.
type Shell struct {
	Client string // the client whose agent's shell it is
	// Agent is the agent's id, when the client names it in the shell's
	// environment (Codex CLI); Session is its session, when only that is
	// named (Claude Code, which names no subagent).
	Agent, Session string
}

// ShellReader is implemented by a client whose agents' shells and hooks
// can be told apart by their environment.
type ShellReader interface {
	// AgentShell reports whether getenv is the environment of a command
	// the client runs for an agent, and what it says of the agent.
	AgentShell(getenv func(string) string) (Shell, bool)
	// OwnHook reports whether getenv is, positively, the environment the
	// client gives its own hooks (a client run from another's agent
	// shell inherits that shell's environment, and names its hooks anew);
	// known is false for a client that marks its hooks with nothing.
	OwnHook(getenv func(string) string) (own, known bool)
	// ShellVars are the variables of the environment from which
	// AgentShell names the agent itself, or tells its shell: where the
	// client signs lucid commands from the shell alone (no stamp), a line
	// that sets or removes one could pass its lucid commands off as
	// another agent's, or a person's. nil where the stamp signs them
	// (a line that removes the shell's marks hides nothing from RunsUnder,
	// which reads the shell's own environment above the line).
	ShellVars() []string
}

// ProcessReader is implemented by a client that knows its own process
// among those a command runs under, by its program's name and words.
type ProcessReader interface {
	ClientProcess(name string, args []string) bool
}
