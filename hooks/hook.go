package hooks

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/proctree"
	"github.com/lucid-dev/lucid/internal/settings"
)

// MaxPayload is the largest hook payload read whole; a larger one (a
// Write of a big file) is streamed, and only what lucid reads is kept.
const MaxPayload = 16 << 20

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

// Client is what differs between the coding clients whose hooks call lucid
// (Claude Code, Codex CLI, Gemini CLI): the names of their events and
// tools, the shape of their payloads, and how they take an answer. An
// adapter decodes a payload into lucid's Input and encodes lucid's Output
// in the client's form; everything between is the same for every client.
type Client interface {
	// Name is the client's name on the command line (lucid hook --client).
	Name() string
	// Events are the events the client registers, in its own names and
	// lucid's.
	Events() []Event
	// Decode reads one payload of the client's event into lucid's Input.
	Decode(event string, payload []byte) (Input, error)
	// Encode writes out, the answer to in, as the client honours it: what
	// goes on stdout, a line for stderr, and the exit code.
	Encode(in Input, out *Output) (stdout []byte, stderr string, code int)
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
	// another agent's (see ownShellChanges).
	Changed []string
	Unsure  []string

	// What the client lets through at this event, as its adapter knows.
	//   Mute: the model is shown no context from it (Gemini's BeforeTool,
	//   Qwen Code's SubagentStart), so the news, or a start's digest,
	//   waits for the next event that can carry it.
	//   NewsAfter: PostToolUse carries the delta (a client whose
	//   PreToolUse is mute).
	//   GateLead: the lead's Stop runs the stop gate (a client whose
	//   agents are leads, with no subagents to ask).
	//   Unrecorded: the client says nothing of what a shell command
	//   changed, so lucid watches the claimed files itself (shellwatch.go).
	//   NoRestart: the client starts no session anew after it compacts
	//   a lead's conversation (no SessionStart with source compact), so
	//   PreCompact marks the lead's record as a subagent's.
	//   NoPrompt: UserPromptSubmit came before a model call that carries
	//   no prompt of the user's (Qwen Code's after each tool result), so
	//   the news goes, and the reminder a prompt gets does not.
	//   WarnAfter: PostToolUse says what lucid said of the call at its
	//   PreToolUse, which showed the model nothing (a claim of its file
	//   in another work tree).
	//   KeepClaims: this Stop or SubagentStop may not end the turn (the
	//   model's text is complete, and tool calls may follow in the same
	//   step): the stop gate runs, where one more turn can still be asked
	//   for, and the claims stay until the real end.
	Mute, NewsAfter, GateLead, Unrecorded, NoRestart, NoPrompt, WarnAfter, KeepClaims bool

	shellVars []string // PreToolUse of a shell: every client's ShellVars (Run)
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

// escape escapes the control characters of every text the model or the
// user reads (internal/escape): whatever a handler took from the log, a
// claim or a payload reaches them printable. Command replaces the tool's
// input, and stays byte for byte.
func (o *Output) escape() {
	o.Context = escape.Text(o.Context)
	o.Deny = escape.Text(o.Deny)
	o.Block = escape.Text(o.Block)
	o.PermissionReason = escape.Text(o.PermissionReason)
}

// Run handles one hook call of client, one of clients: the payload on
// stdin, the answer on stdout. It is fail-open: any trouble of lucid's own
// is one line on stderr, nothing on stdout, and exit 0, so the agent's
// work goes on.
func Run(client Client, clients []Client, event string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// A bad file can fail a handler twice over (the plan check, then the
	// digest): the user reads the line once.
	stderr = &onceWriter{w: stderr}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "lucid hook %s: internal error: %v\n", event, p)
			code = 0
		}
	}()
	i := slices.IndexFunc(client.Events(), func(e Event) bool { return e.Name == event })
	if i < 0 {
		fmt.Fprintf(stderr, "lucid hook: unknown event %q of %s (known: %v)\n", event, client.Name(), EventNames(client.Events()))
		return 0
	}
	timeout := client.Events()[i].Timeout
	payload, large, err := readPayload(stdin, shapeOf(client))
	if err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v\n", event, err)
		return 0
	}
	in, err := client.Decode(event, payload)
	if err == nil && large && in.Tool == ToolEdit && len(in.Paths) == 0 {
		err = fmt.Errorf("payload over 16 MiB names no file for %s: not checked", in.ToolName)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v\n", event, err)
		return 0
	}
	in.Client = client.Name()
	if in.Event == PreToolUse && in.Tool == ToolShell {
		in.shellVars = shellVars(clients)
	}
	if in.Unrecorded && in.Event == PostToolUse {
		in.Changed = namedWrites(in)
	}
	out, c, err := handle(in, clients, timeout, stderr)
	// What a call took from the log (its cursor's move) is saved only
	// once its answer is ready to go out, and dropped with it: a hook that
	// fails delivers nothing and loses nothing.
	defer c.release()
	if err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v\n", event, err)
		out = nil
	}
	out = lichMode(in, out, stderr)
	var b []byte
	line := ""
	if out != nil {
		out.escape()
		b, line, code = client.Encode(in, out)
	}
	if err := c.commit(); err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v (the news waits for the next call)\n", event, err)
		if out != nil && out.Context != "" {
			out.Context = ""
			b, line, code = client.Encode(in, out)
		}
	}
	if line != "" {
		fmt.Fprintln(stderr, line)
	}
	if len(b) > 0 {
		stdout.Write(b)
	}
	return code
}

// namedWrites is what a call changed, as far as its input says, for a
// client that keeps no record of it (Codex CLI, Gemini CLI): the files an
// edit tool names, and those a shell command writes by the shell analysis.
// The watch of claimed files tells the rest (shellwatch.go).
func namedWrites(in Input) []string {
	changed := slices.Clone(in.Paths)
	if in.Tool == ToolShell {
		for _, w := range shell.Writes(in.Command, in.Cwd) {
			changed = append(changed, w.Path)
		}
	}
	return changed
}

// onceWriter passes each distinct write on once.
type onceWriter struct {
	w    io.Writer
	seen map[string]bool
}

func (o *onceWriter) Write(b []byte) (int, error) {
	if o.seen[string(b)] {
		return len(b), nil
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[string(b)] = true
	return o.w.Write(b)
}

// call is one hook call.
type call struct {
	in Input
	// repo is the work tree the session is in; nil outside any. Unless
	// home, it has no .lucid/ checked out (or the session is in no
	// repository at all), and only the guard runs: its tools may still
	// write into guarded work trees.
	repo  *gitstore.Repo
	home  bool
	agent string // agentstore.AgentID of the caller
	now   time.Time
	held  *gitstore.Lock

	// claims is where the call's claims are read and ended: the
	// repository's files, or a test's fake.
	claims claims.Store

	stderr io.Writer // where warn writes

	// pending is the caller's record as the answer leaves it (its cursor
	// past the news given), saved by commit once the answer is out; the
	// lock is held from the read of the news until then, so that two hooks
	// of one agent at once do not both deliver an entry.
	pending *agentstore.Record
	// looked is the caller's record as its delta read it, without the
	// lock: what a later look of the same call may start from.
	looked *agentstore.Record

	// found caches the work tree that holds each folder a call writes in
	// (nil: none), since a command may write many files of one folder.
	found map[string]*gitstore.Repo

	// committed is the ids of the log as the commit committedAt holds it,
	// read once a call (see unknown).
	committed   *logstore.IDSet
	committedAt string

	// lockBy is when the call stops waiting for the repository's lock, all
	// its waits together (lockBudget): past it, what needs the lock fails
	// open, and what can be decided without it (a claim's denial) still is.
	lockBy time.Time
	// lockErr is why the call could not take the lock within its budget.
	lockErr error

	// clients are the clients lucid serves, for their titles.
	clients []Client
	// settings are the settings of each work tree the call writes in, by
	// its top, read once (settingsOf).
	settings map[string]settings.Settings
	// sets are the claims the guard read for the call's writes, by the
	// common git dir of their repository.
	sets map[string]*claims.ClaimSet
	// noticesTaken is how many bytes of the caller's waiting notices its
	// answer carries: they leave the file once it is out (commit).
	noticesTaken int
	// told is, by "agent path", the time of each change of another
	// agent's that the answer tells of: a notice that the same agent began
	// editing the same file by then says nothing more.
	told map[string]int64
}

// warn reports an error that does not stop the call (a plan entry or an
// agent's record not saved) as one line on stderr: the hook goes on, and
// the user can see what was lost.
func (c *call) warn(err error) {
	if err != nil {
		fmt.Fprintf(c.stderr, "lucid hook %s: %v\n", c.in.Event, err)
	}
}

// lockBudget is how long one hook call may wait for the repository's lock,
// all its waits together, well inside the timeout its client registered
// for the event: the agent waits for a tool call's, a prompt's and a
// stop's hooks, and all of Claude Code's SessionEnd hooks share about
// 1.5 s (registered with 2 s). A start (registered with 15 s) may wait
// longest; an event with no timeout known waits as a tool call's.
func lockBudget(timeout time.Duration) time.Duration {
	switch {
	case timeout >= 15*time.Second:
		return 3 * time.Second
	case timeout > 0 && timeout < 10*time.Second:
		return timeout / 4
	}
	return time.Second
}

// hold takes the repository's lock until the call's commit or release,
// unless the call holds it already.
func (c *call) hold() error {
	if c.held != nil {
		return nil
	}
	if c.lockErr != nil {
		// Its budget spent on one wait: the same line, which the user
		// reads once, rather than another wait.
		return c.lockErr
	}
	l, err := c.repo.LockWithin(max(time.Until(c.lockBy), 0))
	if err != nil {
		c.lockErr = err
		return err
	}
	c.held = l
	return nil
}

// commit saves what the call's answer gave the caller (its record with the
// cursor moved), then lets the lock go. A nil call commits nothing.
func (c *call) commit() error {
	if c == nil {
		return nil
	}
	if c.pending != nil {
		rec := *c.pending
		c.pending = nil
		if err := agentstore.Save(c.repo, rec); err != nil {
			return err
		}
	}
	if c.noticesTaken > 0 {
		// Given once more at worst: the news it came with is out.
		c.warn(agentstore.TakeNotices(c.repo, c.agent, c.noticesTaken))
		c.noticesTaken = 0
	}
	return nil
}

// release lets go of the lock if the call still holds it; what was not
// committed is dropped.
func (c *call) release() {
	if c != nil && c.held != nil {
		c.held.Unlock()
		c.held = nil
	}
}

// lock takes the repository's lock unless this call holds it already, and
// returns what releases it: a handler that holds the lock can call helpers
// that take it too.
func (c *call) lock() (func(), error) {
	if c.held != nil {
		return func() {}, nil
	}
	if err := c.hold(); err != nil {
		return nil, err
	}
	return c.release, nil
}

// handle finds the repository and runs the event's handler. Outside a
// repository with .lucid/ it does nothing. It returns the call, whose
// commit saves what the answer gave.
func handle(in Input, clients []Client, timeout time.Duration, stderr io.Writer) (*Output, *call, error) {
	dir := in.Cwd
	if dir == "" {
		dir = in.ProjectDir
	}
	var repo *gitstore.Repo
	if dir != "" {
		repo, _ = gitstore.Find(dir)
	}
	home := repo != nil && repo.Initialised()
	// Outside a lucid work tree the session's tools may still write into
	// one (by an absolute path, from a nested repository, from a linked
	// work tree whose branch predates lucid): the guard runs all the same.
	writing := (in.Event == PreToolUse || in.Event == PostToolUse) && (in.Tool == ToolEdit || in.Tool == ToolShell)
	if !home && !writing {
		return nil, nil, nil
	}
	if in.SessionID == "" {
		return nil, nil, fmt.Errorf("payload has no session_id")
	}
	now := time.Now()
	c := &call{in: in, repo: repo, home: home, agent: agentstore.AgentID(in.SessionID, in.AgentID), now: now, stderr: stderr, claims: claims.Disk{}, clients: clients}
	if repo != nil {
		repo.LockWait = lockBudget(timeout)
		c.lockBy = now.Add(repo.LockWait)
	}
	out, err := c.run()
	return out, c, err
}

// run runs the event's handler.
func (c *call) run() (*Output, error) {
	switch c.in.Event {
	case SessionStart, SubagentStart:
		return c.start()
	case UserPromptSubmit:
		return c.userPrompt()
	case PreToolUse:
		return c.preToolUse()
	case PostToolUse:
		return c.postToolUse()
	case SubagentStop:
		return c.subagentStop()
	case TaskCompleted:
		return c.taskCompleted()
	case PreCompact:
		return c.preCompact()
	case Stop:
		return c.stop()
	default: // SessionEnd
		return c.sessionEnd()
	}
}

// context is text for the model as the call's answer; nil for no text,
// so that nothing at all is printed.
func (c *call) context(text string) *Output {
	if text == "" {
		return nil
	}
	return &Output{Context: text}
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

// shellVars are the ShellVars of every client: whichever client's agent
// runs a line, a variable of another's may decide who lucid takes it for.
func shellVars(clients []Client) []string {
	var vars []string
	for _, c := range clients {
		if r, ok := c.(ShellReader); ok {
			vars = append(vars, r.ShellVars()...)
		}
	}
	return vars
}

// AgentShell is the agent's shell the environment getenv belongs to,
// asked of each client; ok is false in a person's terminal or a hook.
func AgentShell(clients []Client, getenv func(string) string) (Shell, bool) {
	for _, c := range clients {
		if r, ok := c.(ShellReader); ok {
			if sh, ok := r.AgentShell(getenv); ok {
				return sh, true
			}
		}
	}
	return Shell{}, false
}

// RunsUnder is the agent's shell the running process is, or descends
// from: its own environment says (getenv), or, where a line erased that
// (env -i, env -u, a wrapper that clears it), the environment one of the
// processes above it was started with, which no line of the agent's can
// change. ok is false in a person's terminal; also where the system's
// processes cannot be read (proctree), the running environment alone
// decides.
func RunsUnder(clients []Client, getenv func(string) string) (Shell, bool) {
	if sh, ok := AgentShell(clients, getenv); ok {
		return sh, true
	}
	procs, _ := proctree.Ancestors()
	for _, p := range procs {
		if p.Env != nil {
			if sh, ok := AgentShell(clients, p.Getenv); ok {
				return sh, true
			}
		}
		// The agent's shell may have replaced itself by the command (bash
		// runs a line's last command in its own process), with its
		// environment changed: the client is then the parent.
		for _, c := range clients {
			if r, ok := c.(ProcessReader); ok && r.ClientProcess(p.Name, p.Args) {
				return Shell{Client: titleOf(c)}, true
			}
		}
	}
	return Shell{}, false
}

// ProcessReader is implemented by a client that knows its own process
// among those a command runs under, by its program's name and words.
type ProcessReader interface {
	ClientProcess(name string, args []string) bool
}

// RunsProgram reports whether a process whose program is name, started
// with args, runs one of programs: as the program itself, or as the
// script an interpreter (node) runs, named by its path's last part or by
// a folder of it (the package it comes from).
func RunsProgram(name string, args []string, programs ...string) bool {
	for _, p := range programs {
		if name == p || strings.HasPrefix(name, p+"-") {
			return true
		}
		for _, a := range args[min(len(args), 1):min(len(args), 3)] {
			if slash := strings.ReplaceAll(a, `\`, "/"); strings.HasSuffix(slash, "/"+p) || strings.Contains(slash, "/"+p+"/") || a == p {
				return true
			}
		}
	}
	return false
}

// titleOf is a client's name as its users know it.
func titleOf(c Client) string {
	if t, ok := c.(interface{ Title() string }); ok {
		return t.Title()
	}
	return c.Name()
}

// PersonRuns says why the running process is not a person's command, or
// "": it runs in or under an agent's shell (RunsUnder), or it was
// detached from whatever started it (an orphan: setsid, a double fork),
// which a person's terminal never does and an agent's line would do to
// hide its shell. name is the command, for the reason.
func PersonRuns(clients []Client, getenv func(string) string, name string) string {
	if sh, ok := RunsUnder(clients, getenv); ok {
		return fmt.Sprintf("lucid %s is a person's command, and this runs in a %s agent's shell: ask the user to run it", name, sh.Client)
	}
	if proctree.Orphan() {
		return fmt.Sprintf("lucid %s is a person's command, and this process was detached from what started it (setsid, or a parent that exited), so lucid cannot tell that a person runs it: run it from your terminal", name)
	}
	return ""
}

// ForgedHook is why `lucid hook` run with the environment getenv is not a
// hook of client but a command an agent ran in its shell (a payload with
// another agent's id piped into lucid hook SessionEnd would end that
// agent's claims, into PreToolUse move its cursor), or "".
func ForgedHook(client Client, clients []Client, getenv func(string) string) string {
	r, ok := client.(ShellReader)
	if !ok {
		return ""
	}
	own, known := r.OwnHook(getenv)
	if own {
		return ""
	}
	sh, ok := r.AgentShell(getenv)
	if !ok && known {
		// A client that marks its hooks, unmarked here: another
		// client's agent shell runs this.
		sh, ok = AgentShell(clients, getenv)
	}
	// A client that marks nothing (Codex CLI) may itself run inside another
	// client's agent shell, whose environment its hooks inherit: only its
	// own shell's marks tell.
	if !ok {
		return ""
	}
	return fmt.Sprintf("lucid hook runs here in a %s agent's shell, not as a hook of its client: refused, since a hook speaks for the agent its payload names. Hooks are the client's to run; record with lucid fact|decision|note, end your claims with lucid release", sh.Client)
}
