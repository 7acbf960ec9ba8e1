package hooks

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/settings"
)

// MaxPayload is the largest hook payload read whole; a larger one (a
// Write of a big file) is streamed, and only what lucid reads is kept.
const MaxPayload = 16 << 20

// escapeOutput escapes the control characters of every text the model or the
// user reads (internal/escape): whatever a handler took from the log, a
// claim or a payload reaches them printable. Command replaces the tool's
// input, and stays byte for byte.
func escapeOutput(o *client.Output) {
	o.Context = escape.Text(o.Context)
	o.Deny = escape.Text(o.Deny)
	o.Block = escape.Text(o.Block)
	o.PermissionReason = escape.Text(o.PermissionReason)
}

// Run handles one hook call of cl, one of clients, whose agents are named
// as naming says: the payload on stdin, the answer on stdout. It is fail-open: any trouble of lucid's own
// is one line on stderr, nothing on stdout, and exit 0, so the agent's
// work goes on.
func Run(cl client.Client, clients []client.Client, naming present.Naming, event string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// A bad file can fail a handler twice over (the plan check, then the
	// digest): the user reads the line once.
	stderr = &onceWriter{w: stderr}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "lucid hook %s: internal error: %v\n", event, p)
			code = 0
		}
	}()
	i := slices.IndexFunc(cl.Events(), func(e client.Event) bool { return e.Name == event })
	if i < 0 {
		fmt.Fprintf(stderr, "lucid hook: unknown event %q of %s (known: %v)\n", event, cl.Name(), client.EventNames(cl.Events()))
		return 0
	}
	timeout := cl.Events()[i].Timeout
	payload, large, err := readPayload(stdin, shapeOf(cl))
	if err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v\n", event, err)
		return 0
	}
	in, err := cl.Decode(event, payload)
	if err == nil && large && in.Tool == client.ToolEdit && len(in.Paths) == 0 {
		err = fmt.Errorf("payload over 16 MiB names no file for %s: not checked", in.ToolName)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v\n", event, err)
		return 0
	}
	in.Client = cl.Name()
	if runtime.GOOS == "windows" {
		// Once, for every use of the session's folder: the repository
		// found from it, the paths joined to it, the shell's start.
		in.Cwd, in.ProjectDir = nativeDir(in.Cwd), nativeDir(in.ProjectDir)
	}
	if in.Caps.Has(client.Unrecorded) && in.Event == client.PostToolUse {
		in.Changed = namedWrites(in)
	}
	out, c, err := handle(in, clients, naming, timeout, stderr)
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
		escapeOutput(out)
		b, line, code = cl.Encode(in, out)
	}
	if err := c.commit(); err != nil {
		fmt.Fprintf(stderr, "lucid hook %s: %v (the news waits for the next call)\n", event, err)
		if out != nil && out.Context != "" {
			out.Context = ""
			b, line, code = cl.Encode(in, out)
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

// nativeDir is the folder dir in native's spelling; "" (no folder given)
// stays "".
func nativeDir(dir string) string {
	if dir == "" {
		return ""
	}
	return native("", dir)
}

// namedWrites is what a call changed, as far as its input says, for a
// client that keeps no record of it (Codex CLI, Gemini CLI): the files an
// edit tool names, and those a shell command writes by the shell analysis.
// The watch of claimed files tells the rest (shellwatch.go).
func namedWrites(in client.Input) []string {
	changed := slices.Clone(in.Paths)
	if in.Tool == client.ToolShell {
		for _, w := range analyzeShell(in).Writes {
			changed = append(changed, w.Path)
		}
	}
	return changed
}

// analyzeShell reads a shell tool's command line with the reader of the
// shell that runs it: a PowerShell line pays for the PowerShell reader,
// and a bash line for bash's alone.
func analyzeShell(in client.Input) shell.Analysis {
	if in.Caps.Has(client.PowerShell) {
		return shell.PowerShell(in.Command, in.Cwd)
	}
	return shell.Analyze(in.Command, in.Cwd)
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
	in client.Input
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
	clients []client.Client
	// naming is how the answer names agents.
	naming present.Naming
	// settings are the settings of each work tree the call writes in, by
	// its top, read once (settingsOf).
	settings map[string]settings.Settings
	// sets are the claims the guard read for the call's writes, by the
	// common git dir of their repository.
	sets map[string]*claims.Set
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
func handle(in client.Input, clients []client.Client, naming present.Naming, timeout time.Duration, stderr io.Writer) (*client.Output, *call, error) {
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
	writing := (in.Event == client.PreToolUse || in.Event == client.PostToolUse) && (in.Tool == client.ToolEdit || in.Tool == client.ToolShell)
	if !home && !writing {
		return nil, nil, nil
	}
	if in.SessionID == "" {
		return nil, nil, fmt.Errorf("payload has no session_id")
	}
	now := time.Now()
	c := &call{in: in, repo: repo, home: home, agent: agentstore.AgentID(in.SessionID, in.AgentID), now: now, stderr: stderr, claims: claims.Disk{}, clients: clients, naming: naming}
	if repo != nil {
		repo.LockWait = lockBudget(timeout)
		c.lockBy = now.Add(repo.LockWait)
	}
	out, err := c.run()
	return out, c, err
}

// run runs the event's handler.
func (c *call) run() (*client.Output, error) {
	switch c.in.Event {
	case client.SessionStart, client.SubagentStart:
		return c.start()
	case client.UserPromptSubmit:
		return c.userPrompt()
	case client.PreToolUse:
		return c.preToolUse()
	case client.PostToolUse:
		return c.postToolUse()
	case client.SubagentStop:
		return c.subagentStop()
	case client.TaskCompleted:
		return c.taskCompleted()
	case client.PreCompact:
		return c.preCompact()
	case client.Stop:
		return c.stop()
	default: // SessionEnd
		return c.sessionEnd()
	}
}

// context is text for the model as the call's answer; nil for no text,
// so that nothing at all is printed.
func (c *call) context(text string) *client.Output {
	if text == "" {
		return nil
	}
	return &client.Output{Context: text}
}

// shellVars are the ShellVars of every client: whichever client's agent
// runs a line, a variable of another's may decide who lucid takes it for.
func shellVars(clients []client.Client) []string {
	var vars []string
	for _, c := range clients {
		if r, ok := c.(client.ShellReader); ok {
			vars = append(vars, r.ShellVars()...)
		}
	}
	return vars
}
