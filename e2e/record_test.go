package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A probe is a hook of the test's own beside lucid's: `lucid probe EVENT`
// on the agents' PATH records the payload in the call log, as the shim
// does for lucid's hooks, and answers what the test scripted for that
// event (probeReplies), without running lucid. It lets a test see every
// event the client sends, those lucid does not install included, and try
// what the client honours in a hook's answer.
const (
	probeArg = "probe"
)

// probeReply is one scripted answer of a probe. The answers are listed
// under "EVENT/agent_type" (a teammate's calls of the event) or "EVENT"
// (everyone else's): the nth call gets the nth answer; calls past the list
// answer nothing.
type probeReply struct {
	Code   int    `json:"code"`
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	Delay  int    `json:"delay_ms,omitempty"` // before answering
}

// probeEvents are the events a probe is installed for: all that Claude
// Code 2.1.332 sends in a team and around a compaction.
var probeEvents = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"Stop", "SubagentStart", "SubagentStop", "TaskCreated", "TaskCompleted", "TeammateIdle",
	"PreCompact", "PostCompact", "Notification",
}

func probe() int {
	event := ""
	if len(os.Args) > 2 {
		event = os.Args[2]
	}
	stdin, _ := readAll(os.Stdin)
	start := time.Now()
	var r probeReply
	if b, err := os.ReadFile(repliesPath(os.Getenv(callLogEnv))); err == nil {
		var all map[string][]probeReply
		json.Unmarshal(b, &all)
		var in struct {
			AgentType string `json:"agent_type"`
		}
		json.Unmarshal(stdin, &in)
		key := event + "/" + in.AgentType
		if _, ok := all[key]; !ok {
			key = event
		}
		// The calls of the key so far pick the answer. Concurrent calls
		// may pick the same one; the tests script only events that come
		// one at a time.
		n := 0
		for _, c := range readCalls(os.Getenv(callLogEnv)) {
			if len(c.Args) == 2 && c.Args[0] == probeArg && c.Args[1] == event &&
				(key == event || c.str("agent_type") == in.AgentType) {
				n++
			}
		}
		if n < len(all[key]) {
			r = all[key][n]
		}
	}
	time.Sleep(time.Duration(r.Delay) * time.Millisecond)
	os.Stdout.WriteString(r.Stdout)
	os.Stderr.WriteString(r.Stderr)
	appendLine(os.Getenv(callLogEnv), call{Args: os.Args[1:], Stdin: string(stdin), Stdout: r.Stdout, Stderr: r.Stderr,
		Code: r.Code, Millis: float64(time.Since(start).Microseconds()) / 1000, Start: start})
	return r.Code
}

// installProbes registers a probe for every event in the repository's
// .claude/settings.local.json (beside lucid's hooks in settings.json), with
// the scripted answers.
func (e *env) installProbes(replies map[string][]probeReply) {
	e.t.Helper()
	hooks := map[string]any{}
	for _, ev := range probeEvents {
		h := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "lucid " + probeArg + " " + ev, "timeout": 10}}}
		hooks[ev] = []any{h}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	e.write(e.path(".claude/settings.local.json"), string(b))
	r, _ := json.Marshal(replies)
	e.write(repliesPath(e.hookLog), string(r))
}

// repliesPath is where the probes' answers are, beside the call log.
func repliesPath(callLog string) string {
	return filepath.Join(filepath.Dir(callLog), "probe-replies.json")
}

// probeCalls returns the probe's calls for event ("" for all), in order.
func (e *env) probeCalls(event string) []call {
	var out []call
	for _, c := range e.calls() {
		if len(c.Args) == 2 && c.Args[0] == probeArg && (event == "" || c.Args[1] == event) {
			out = append(out, c)
		}
	}
	return out
}

// readCalls reads a call log, skipping what does not decode.
func readCalls(path string) []call {
	lines, _ := readLines(path)
	var out []call
	for _, line := range lines {
		var c call
		if json.Unmarshal(line, &c) == nil {
			json.Unmarshal([]byte(c.Stdin), &c.Payload)
			out = append(out, c)
		}
	}
	return out
}

// recordEnv, when set, makes the team and compaction scenarios install the
// probes and write the first payload of each event, tool and kind of agent
// that testdata/payloads/claude-code-2.1.332/ lacks, with the scratch
// paths moved to /home/dev/repo as in the other recorded payloads.
const recordEnv = "LUCID_E2E_RECORD"

func recording() bool { return os.Getenv(recordEnv) != "" }

// record writes what the probes saw, when recording.
func (e *env) record() {
	e.t.Helper()
	if !recording() {
		return
	}
	dir := filepath.Join("..", "testdata", "payloads", "claude-code-2.1.332")
	mangle := func(p string) string { return strings.ReplaceAll(p, "/", "-") }
	moved := strings.NewReplacer(e.repo, "/home/dev/repo", mangle(e.repo), "-home-dev-repo", e.home, "/home/dev")
	for _, c := range e.probeCalls("") {
		path := filepath.Join(dir, payloadName(c)+".json")
		if _, err := os.Stat(path); err == nil {
			continue
		}
		var b bytes.Buffer
		if json.Indent(&b, []byte(c.Stdin), "", "  ") != nil {
			continue
		}
		if err := os.WriteFile(path, []byte(moved.Replace(b.String())+"\n"), 0o644); err != nil {
			e.t.Error(err)
		}
	}
}

// payloadName names a recorded payload as the others are: the event, the
// tool, a variant where the event comes in several forms, and who sent it
// (lead, teammate, subagent).
func payloadName(c call) string {
	name := c.Args[1]
	if tool := c.str("tool_name"); tool != "" {
		name += "-" + tool
	}
	switch {
	case name == "SessionStart" && c.str("source") != "startup":
		name += "-" + c.str("source")
	case name == "PostToolUse-Bash" && strings.Contains(c.Stdin, `"shared":true`):
		name += "-shared"
	case name == "TaskCompleted" && c.str("permission_mode") != "":
		name += "-idle" // the one fired as its owner goes idle
	case name == "SubagentStop" && c.str("agent_id") != "" && c.str("agent_type") == "":
		return name + "-compaction"
	}
	switch id := c.str("agent_id"); {
	case id == "":
		return name + "-lead"
	case strings.Contains(id, "-"):
		return name + "-teammate"
	default:
		return name + "-subagent"
	}
}
