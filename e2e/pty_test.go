package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// Agent teams run only in interactive claude (under -p a named Agent call
// becomes a background subagent), so the team scenarios drive it through
// a pseudo-terminal: they type the prompt as a user would, wait on what
// the client does (a request reaching the scripted server, a hook call in
// the shim's log, a file), and end it with /exit.

// teamEnv is the environment that runs a team in-process with the task
// tools and every tool's schema up front: without the first, Claude Code
// 2.1.332 starts no team; without the task tools no task hooks fire; tool
// search would hide the schemas the scripted model's calls rely on.
var teamEnv = []string{
	"CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1",
	"CLAUDE_CODE_ENABLE_TODO_TOOLS=1",
	"ENABLE_TOOL_SEARCH=false",
}

// waitLong bounds one wait on the client: a slow machine takes seconds,
// a hang fails the test with the screen and the requests.
const waitLong = 2 * time.Minute

// tty is one interactive claude in a pseudo-terminal.
type tty struct {
	e   *env
	srv *api.Server
	cmd *exec.Cmd
	pty *os.File

	mu     sync.Mutex
	screen bytes.Buffer  // everything the client printed
	notify chan struct{} // closed and replaced at every read
	exited chan struct{} // closed when the process has exited
	err    error         // its exit status, once exited
}

// skipDialogs writes the HOME's .claude.json so that the client starts
// with no dialog: onboarding done, bypass mode and the API key accepted,
// the repository trusted.
func (e *env) skipDialogs(apiKey string) {
	cfg := map[string]any{
		"hasCompletedOnboarding":        true,
		"bypassPermissionsModeAccepted": true,
		"customApiKeyResponses":         map[string]any{"approved": []string{apiKey}, "rejected": []string{}},
		"projects": map[string]any{e.repo: map[string]any{
			"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true,
		}},
	}
	b, _ := json.Marshal(cfg)
	e.write(filepath.Join(e.home, ".claude.json"), string(b))
}

// interactive starts claude in the repository against the server, in a
// pseudo-terminal, with extra arguments and environment, and waits until it
// is ready for input. The test ends it with close, deferred.
func (e *env) interactive(srv *api.Server, args []string, extra ...string) *tty {
	e.t.Helper()
	const key = "sk-ant-e2e-0123456789abcdefghij"
	e.skipDialogs(key[len(key)-20:])
	args = append([]string{"--permission-mode", "bypassPermissions"}, args...)
	cmd := exec.Command(claudeBin, args...)
	cmd.Dir = e.repo
	cmd.Env = e.environ(append([]string{
		"ANTHROPIC_BASE_URL=" + srv.URL,
		"ANTHROPIC_API_KEY=" + key,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"IS_SANDBOX=1",
		"TERM=xterm-256color",
	}, extra...)...)
	srv.Requests() // orders the test's set-up before the steps, as in claude()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		e.t.Fatalf("starting claude in a pty: %v", err)
	}
	t := &tty{e: e, srv: srv, cmd: cmd, pty: f, notify: make(chan struct{}), exited: make(chan struct{})}
	go t.read()
	go func() {
		err := cmd.Wait()
		t.mu.Lock()
		t.err = err
		t.mu.Unlock()
		close(t.exited)
	}()
	e.t.Cleanup(t.close)
	// The input box is drawn with the permission mode under it.
	t.waitScreen("bypass permissions on")
	return t
}

func (t *tty) read() {
	buf := make([]byte, 32<<10)
	for {
		n, err := t.pty.Read(buf)
		t.mu.Lock()
		t.screen.Write(buf[:n])
		close(t.notify)
		t.notify = make(chan struct{})
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// ansi matches the terminal's control sequences, for a readable screen.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78MDEc]`)

// text is what the client printed, control sequences removed.
func (t *tty) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return ansi.ReplaceAllString(t.screen.String(), "")
}

// waitScreen waits until the client has printed s (control sequences and
// spaces removed on both sides: the client moves the cursor between words).
func (t *tty) waitScreen(s string) {
	t.e.t.Helper()
	want := squeeze(s)
	deadline := time.After(waitLong)
	for {
		t.mu.Lock()
		ch := t.notify
		t.mu.Unlock()
		if strings.Contains(squeeze(t.text()), want) {
			return
		}
		select {
		case <-ch:
		case <-t.exited:
			t.fail("claude exited before printing %q", s)
		case <-deadline:
			t.fail("claude did not print %q in %s", s, waitLong)
		}
	}
}

func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

// send types a line into the input box and presses Enter. The text goes
// first and Enter after a pause of the client's reading, as a user's keys
// would, so that a long line is not taken for a paste ending in a newline.
func (t *tty) send(line string) {
	t.e.t.Helper()
	if _, err := t.pty.WriteString(line); err != nil {
		t.fail("typing into claude: %v", err)
	}
	// Wait for the echo of the line's end before pressing Enter.
	tail := line
	if len(tail) > 20 {
		tail = tail[len(tail)-20:]
	}
	t.waitScreen(tail)
	if _, err := t.pty.WriteString("\r"); err != nil {
		t.fail("pressing Enter in claude: %v", err)
	}
}

// wait waits until cond holds for the requests the server has received.
func (t *tty) wait(what string, cond func([]*api.Request) bool) {
	t.e.t.Helper()
	if !t.srv.Wait(waitLong, cond) {
		t.fail("waited %s for %s", waitLong, what)
	}
}

// waitHook waits until `lucid hook EVENT` has finished n times in all.
func (t *tty) waitHook(event string, n int) {
	t.e.t.Helper()
	t.waitCalls(fmt.Sprintf("lucid hook %s to run %d times", event, n), func() bool { return len(t.e.hookCalls(event)) >= n })
}

// waitCalls waits until cond holds; the shim's log tells no one when it
// grows, so it is read again every few milliseconds.
func (t *tty) waitCalls(what string, cond func() bool) {
	t.e.t.Helper()
	deadline := time.Now().Add(waitLong)
	for !cond() {
		select {
		case <-t.exited:
			t.fail("claude exited while waiting for %s", what)
		default:
		}
		if time.Now().After(deadline) {
			t.fail("waited %s for %s", waitLong, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exit ends the session as a user does, with /exit, and waits for the
// process; SessionEnd runs. Teammates count as background work that
// would stop: the client asks first, and the default, "Exit and stop
// tasks", is confirmed.
func (t *tty) exit() {
	t.e.t.Helper()
	select {
	case <-t.exited:
		return
	default:
	}
	from := len(squeeze(t.text()))
	t.send("/exit")
	deadline := time.After(30 * time.Second)
	confirmed := false
	for {
		t.mu.Lock()
		ch := t.notify
		t.mu.Unlock()
		if s := squeeze(t.text()); !confirmed && len(s) > from && strings.Contains(s[from:], squeeze("Exit and stop tasks")) {
			if _, err := t.pty.WriteString("\r"); err != nil {
				t.fail("confirming /exit: %v", err)
			}
			confirmed = true
		}
		select {
		case <-ch:
		case <-t.exited:
			t.mu.Lock()
			err := t.err
			t.mu.Unlock()
			if err != nil {
				t.e.t.Errorf("claude ended with %v after /exit\nscreen (last 3000 bytes):\n%s", err, tailOf(t.text(), 3000))
			}
			if p := t.srv.Problems(); len(p) > 0 {
				t.e.t.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s", strings.Join(p, "\n"), t.srv.Dump())
			}
			return
		case <-deadline:
			t.fail("claude did not exit 30 s after /exit")
		}
	}
}

// close kills the client if it still runs, and writes what it saw to
// $LUCID_E2E_DUMP.
func (t *tty) close() {
	select {
	case <-t.exited:
	default:
		t.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-t.exited:
		case <-time.After(5 * time.Second):
			t.cmd.Process.Kill()
			<-t.exited
		}
	}
	t.pty.Close()
	t.e.dump(t.srv, result{run: run{stdout: t.text()}})
}

// fail stops the test with the screen, the requests and the hook calls.
func (t *tty) fail(format string, args ...any) {
	t.e.t.Helper()
	t.e.t.Fatalf("%s\nscreen (last 6000 bytes):\n%s\nrequests:\n%s\ncalls:\n%s", fmt.Sprintf(format, args...),
		tailOf(t.text(), 6000), t.srv.Dump(), t.e.callsText())
}

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
