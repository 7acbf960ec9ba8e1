package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The shim stands in for `lucid` on the agents' PATH: it runs the real
// lucid with the same arguments and input, passes its output on, and
// appends one line to the call log, so that a test (and a person reading a
// failure) sees what each hook was given and what it answered.
const (
	realLucidEnv = "LUCID_E2E_REAL" // the real lucid
	callLogEnv   = "LUCID_E2E_CALLS"
)

// call is one run of lucid, as the shim recorded it.
type call struct {
	Args    []string       `json:"args"`
	Stdin   string         `json:"stdin,omitempty"`
	Stdout  string         `json:"stdout,omitempty"`
	Stderr  string         `json:"stderr,omitempty"`
	Code    int            `json:"code"`
	Millis  float64        `json:"ms"`
	Start   time.Time      `json:"start"`
	Payload map[string]any `json:"-"` // Stdin decoded, for hooks
}

func shim() int {
	if len(os.Args) > 1 && os.Args[1] == probeArg {
		return probe()
	}
	var stdin []byte
	if len(os.Args) > 1 && os.Args[1] == "hook" {
		stdin, _ = readAll(os.Stdin)
	}
	cmd := exec.Command(os.Getenv(realLucidEnv), os.Args[1:]...)
	var stdout, stderr bytes.Buffer
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	} else {
		cmd.Stdin = os.Stdin
	}
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "lucid (e2e shim):", err)
		code = 127
	}
	os.Stdout.Write(stdout.Bytes())
	os.Stderr.Write(stderr.Bytes())
	appendLine(os.Getenv(callLogEnv), call{Args: os.Args[1:], Stdin: string(stdin), Stdout: stdout.String(),
		Stderr: stderr.String(), Code: code, Millis: float64(time.Since(start).Microseconds()) / 1000, Start: start})
	return code
}

// calls reads the call log. It may run inside a scripted step, off the
// test's goroutine: it reports a broken log, never stops the test.
func (e *env) calls() []call {
	e.t.Helper()
	lines, err := readLines(e.hookLog)
	if err != nil {
		e.t.Error(err)
		return nil
	}
	var out []call
	for _, line := range lines {
		var c call
		if err := json.Unmarshal(line, &c); err != nil {
			e.t.Errorf("call log: %v", err)
			break
		}
		json.Unmarshal([]byte(c.Stdin), &c.Payload)
		out = append(out, c)
	}
	return out
}

// hookSession is the session of client's agent as its hooks saw it: the
// field (session_id, sessionId) of the first payload of `lucid hook
// --client CLIENT EVENT` that has it.
func (e *env) hookSession(client, field string) string {
	for _, c := range e.calls() {
		if len(c.Args) == 4 && c.Args[0] == "hook" && c.Args[1] == "--client" && c.Args[2] == client {
			if s, _ := c.Payload[field].(string); s != "" {
				return s
			}
		}
	}
	return ""
}

// hookCalls returns the calls of `lucid hook EVENT`.
func (e *env) hookCalls(event string) []call {
	var out []call
	for _, c := range e.calls() {
		if len(c.Args) == 2 && c.Args[0] == "hook" && c.Args[1] == event {
			out = append(out, c)
		}
	}
	return out
}

// waitHook waits, inside a scripted step, until `lucid hook EVENT` has
// finished n times. Hooks tell no one when they run, so it reads the call
// log again every few milliseconds; a hook that never runs fails the test
// after a while instead of hanging the client.
func waitHook(t *testing.T, e *env, event string, n int) {
	deadline := time.Now().Add(2 * time.Minute)
	for len(e.hookCalls(event)) < n {
		if time.Now().After(deadline) {
			t.Errorf("lucid hook %s did not run %d times", event, n)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// str reads a string field of a hook payload.
func (c call) str(key string) string {
	s, _ := c.Payload[key].(string)
	return s
}

// callsText is the call log as a person reads it, for failure messages.
func (e *env) callsText() string {
	var b strings.Builder
	for _, c := range e.calls() {
		fmt.Fprintf(&b, "%s lucid %s (agent %q, tool %q) -> code %d, %.1f ms, stdout %q", c.Start.Format("15:04:05.000"),
			strings.Join(c.Args, " "), c.str("agent_id"), c.str("tool_name"), c.Code, c.Millis, clip(c.Stdout, 300))
		if c.Stderr != "" {
			fmt.Fprintf(&b, ", stderr %q", clip(c.Stderr, 300))
		}
		b.WriteString("\n")
	}
	return b.String()
}
