package e2e

// The Codex CLI half of the real-client suite: the real `codex` binary
// (0.169.0, named by LUCID_E2E_CODEX; `make e2e` installs it) runs `codex
// exec` in a scratch repository against a scripted Responses API
// (internal/scripted/responses), with a CODEX_HOME of the test's own, so the
// user's ~/.codex is never read and nothing reaches the network.
//
// Hooks in the repository's .codex/hooks.json run the recording hook: this
// test binary under the name codex-hook, which appends what it was given
// to a log and answers from rules the test wrote (the e2e shim pattern).

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

const (
	codexEnv      = "LUCID_E2E_CODEX"
	codexVersion  = "codex-cli 0.169.0"
	codexHookName = "codex-hook"         // the name the recording hook runs under
	codexHookDir  = "LUCID_E2E_HOOK_DIR" // its rules and its log
	codexModel    = "gpt-5.5"            // offered apply_patch; gpt-5 is not
)

// codexEvents are the hook events Codex 0.169.0 accepts (its hooks/list).
var codexEvents = []string{"SessionStart", "UserPromptSubmit", "PreModelRequest", "PreToolUse", "PermissionRequest",
	"PostToolUse", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd", "Interrupt"}

var codexBinary clientBinary

// needCodex returns the codex binary, or skips the test saying why.
func needCodex(t *testing.T) string {
	t.Helper()
	return codexBinary.need(t, codexEnv, "Codex", func(bin string) string {
		out, err := exec.Command(bin, "--version").Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != codexVersion {
			return fmt.Sprintf("%s=%s does not run as %s (%q, %v): the Codex scenarios skip", codexEnv, bin, codexVersion, got, err)
		}
		return ""
	})
}

// codexEnvT is a scratch world for one Codex test; the embedded env gives
// it the repository, HOME and their file helpers.
type codexEnvT struct {
	env
	bin     string
	codex   string // CODEX_HOME
	hookDir string // the recording hook's rules.json and calls.jsonl
	hookBin string // the recording hook
	// lucid: lucid's own hooks run, not the recording hook, with the
	// shim first on PATH (codex_lucid_test.go).
	lucid bool
}

// newCodexEnv makes a git repository with a.txt and src/claimed.go
// committed, and .codex/hooks.json running the recording hook for every
// event.
func newCodexEnv(t *testing.T) *codexEnvT {
	t.Helper()
	bin := needCodex(t)
	root := t.TempDir()
	codex, hookDir := filepath.Join(root, "codex-home"), filepath.Join(root, "hook")
	e := &codexEnvT{env: *newWorld(t, root, codex, hookDir), bin: bin, codex: codex, hookDir: hookDir,
		hookBin: filepath.Join(hookDir, codexHookName)}
	linkSelf(t, e.hookBin)
	e.git("init", "-q")
	e.write(e.path("a.txt"), "hello\n")
	e.write(e.path("src/claimed.go"), "package src\n\nvar x = 1\n")
	e.write(e.path(".codex/hooks.json"), e.hooksJSON())
	e.git("add", "-A")
	e.git("commit", "-qm", "scratch")
	return e
}

// hooksJSON registers the recording hook for every event, one group each.
func (e *codexEnvT) hooksJSON() string {
	hooks := map[string]any{}
	for _, ev := range codexEvents {
		hooks[ev] = []any{map[string]any{"matcher": "*", "hooks": []any{
			map[string]any{"type": "command", "command": e.hookBin + " " + ev}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	return string(b) + "\n"
}

func (e *codexEnvT) git(args ...string) {
	e.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = e.repo, e.environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		e.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// environ is the environment of the processes a Codex test starts: the
// scratch HOME, no OPENAI_*, CODEX_* or LUCID_* of the caller's.
func (e *codexEnvT) environ(extra ...string) []string {
	out := e.env.clientEnviron(e.lucid, func(k string) bool {
		return strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "CODEX_")
	})
	out = append(out, "CODEX_HOME="+e.codex, codexHookDir+"="+e.hookDir, "LOCAL_KEY=x")
	return append(out, extra...)
}

// config writes CODEX_HOME/config.toml: the scripted provider, the model,
// the project trusted, and any extra TOML (hook trust, say).
func (e *codexEnvT) config(srv *rs.Server, extra string) {
	e.write(filepath.Join(e.codex, "config.toml"), fmt.Sprintf(`model = %q
model_provider = "local"

[projects.%q]
trust_level = "trusted"

[model_providers.local]
name = "local"
base_url = %q
wire_api = "responses"
env_key = "LOCAL_KEY"
%s`, codexModel, e.repo, srv.URL, extra))
}

// codexRun is one finished `codex exec`.
type codexRun = run

// codexRunTimeout bounds one `codex exec`.
const codexRunTimeout = 3 * time.Minute

// exec runs `codex exec PROMPT` in the repository against the server with
// the given extra arguments (say --dangerously-bypass-hook-trust) and
// waits for it. A run that fails or hangs fails the test with the server's
// request log and the hook calls.
func (e *codexEnvT) exec(srv *rs.Server, prompt string, args ...string) codexRun {
	e.t.Helper()
	res, err := e.execRun(srv, prompt, args...)
	if err != nil {
		e.t.Fatal(err)
	}
	if p := srv.Problems(); len(p) > 0 {
		e.t.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s", strings.Join(p, "\n"), srv.Dump())
	}
	return res
}

// execRun is exec for a goroutine of its own (beside another client's
// run): it returns what went wrong as an error.
func (e *codexEnvT) execRun(srv *rs.Server, prompt string, args ...string) (codexRun, error) {
	argv := append([]string{"exec", "--skip-git-repo-check", "-s", "danger-full-access"}, args...)
	res, err := runClient(srv, codexRunTimeout, e.repo, e.environ(), e.bin, append(argv, prompt)...)
	e.t.Logf("codex exec ran %s, %d requests, %d hook calls", res.took.Round(time.Millisecond), len(srv.Requests()), len(e.hookCalls("")))
	e.dump(srv, res)
	if err == nil && res.code != 0 {
		err = fmt.Errorf("exit status %d", res.code)
	}
	if err != nil {
		return res, fmt.Errorf("codex exec: %v\nstderr:\n%s\nrequests:\n%s\nhooks:\n%s", err, clip(res.stderr, 4000), srv.Dump(), e.hooksText())
	}
	return res, nil
}

// dump writes every request body and headers, the run's output and the
// hook calls into $LUCID_E2E_DUMP/<test>/, for reading what the client
// sent.
func (e *codexEnvT) dump(srv *rs.Server, res codexRun) {
	dir := dumpDir(e.t)
	if dir == "" {
		return
	}
	for _, r := range srv.Requests() {
		h, _ := json.MarshalIndent(r.Header, "", " ")
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s.json", r.Seq, r.Conversation)), r.Body, 0o644)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s.headers.json", r.Seq, r.Conversation)), h, 0o644)
	}
	dumpFiles(dir, map[string]string{"stdout.txt": res.stdout, "stderr.txt": res.stderr, "requests.txt": srv.Dump()},
		map[string]string{"hooks.jsonl": filepath.Join(e.hookDir, "calls.jsonl")})
}

// hookRule is an answer of the recording hook: to a call of Event (and,
// when set, of Tool, whose tool_input.command holds Contains, whose
// payload has the string fields of Where), print Stdout and Stderr and
// exit with Exit; with Once, only the first time.
type hookRule struct {
	Event    string            `json:"event"`
	Tool     string            `json:"tool,omitempty"`
	Contains string            `json:"contains,omitempty"`
	Where    map[string]string `json:"where,omitempty"`
	Once     bool              `json:"once,omitempty"`
	Stdout   string            `json:"stdout,omitempty"`
	Stderr   string            `json:"stderr,omitempty"`
	Exit     int               `json:"exit,omitempty"`
}

// answer sets the recording hook's rules; the first that fits a call
// answers it, and a call no rule fits gets nothing (exit 0).
func (e *codexEnvT) answer(rules ...hookRule) {
	e.t.Helper()
	b, _ := json.Marshal(rules)
	e.write(filepath.Join(e.hookDir, "rules.json"), string(b))
}

// hookJSON is a hook answer: {"hookSpecificOutput": {"hookEventName": event, fields...}}.
func hookJSON(event string, fields map[string]any) string {
	out := map[string]any{"hookEventName": event}
	for k, v := range fields {
		out[k] = v
	}
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": out})
	return string(b)
}

// hookCall is one run of the recording hook.
type hookCall struct {
	Event   string            `json:"event"`
	Stdin   string            `json:"stdin"`
	Env     map[string]string `json:"env"` // CODEX_* and LUCID_* only
	Dir     string            `json:"dir"`
	Stdout  string            `json:"stdout,omitempty"`
	Exit    int               `json:"exit"`
	Start   time.Time         `json:"start"`
	Payload map[string]any    `json:"-"`
}

func (c hookCall) str(key string) string { s, _ := c.Payload[key].(string); return s }

// command is tool_input.command of a tool event's payload.
func (c hookCall) command() string {
	in, _ := c.Payload["tool_input"].(map[string]any)
	s, _ := in["command"].(string)
	return s
}

// codexHook is the recording hook: `codex-hook EVENT`, payload on stdin.
// It never fails the client: a broken rule file answers nothing.
func codexHook() int {
	ev := ""
	if len(os.Args) > 1 {
		ev = os.Args[1]
	}
	dir := os.Getenv(codexHookDir)
	stdin, _ := readAll(os.Stdin)
	var payload map[string]any
	json.Unmarshal(stdin, &payload)
	c := hookCall{Event: ev, Stdin: string(stdin), Env: map[string]string{}, Start: time.Now()}
	c.Dir, _ = os.Getwd()
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "CODEX_") || strings.HasPrefix(k, "LUCID_") {
			c.Env[k] = v
		}
	}
	var rules []hookRule
	if b, err := os.ReadFile(filepath.Join(dir, "rules.json")); err == nil {
		json.Unmarshal(b, &rules)
	}
	tool, _ := payload["tool_name"].(string)
	input, _ := payload["tool_input"].(map[string]any)
	command, _ := input["command"].(string)
	var stderr string
	for i, r := range rules {
		if r.Event != ev || (r.Tool != "" && r.Tool != tool) || !strings.Contains(command, r.Contains) || !fieldsMatch(payload, r.Where) {
			continue
		}
		if r.Once {
			// O_EXCL: of hooks running at once, one answers.
			f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("rule-%d.used", i)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err != nil {
				continue
			}
			f.Close()
		}
		c.Stdout, stderr, c.Exit = r.Stdout, r.Stderr, r.Exit
		break
	}
	appendLine(filepath.Join(dir, "calls.jsonl"), c)
	os.Stdout.WriteString(c.Stdout)
	os.Stderr.WriteString(stderr)
	return c.Exit
}

func fieldsMatch(payload map[string]any, where map[string]string) bool {
	for k, v := range where {
		if s, _ := payload[k].(string); s != v {
			return false
		}
	}
	return true
}

// hookCalls returns the recording hook's calls of an event ("" for all),
// in the order they started.
func (e *codexEnvT) hookCalls(event string) []hookCall {
	e.t.Helper()
	lines, err := readLines(filepath.Join(e.hookDir, "calls.jsonl"))
	if err != nil {
		e.t.Errorf("hook log: %v", err)
	}
	var out []hookCall
	for _, line := range lines {
		var c hookCall
		if err := json.Unmarshal(line, &c); err != nil {
			e.t.Errorf("hook log: %v", err)
			break
		}
		json.Unmarshal([]byte(c.Stdin), &c.Payload)
		if event == "" || c.Event == event {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// hooksText is the hook log as a person reads it, for failure messages.
func (e *codexEnvT) hooksText() string {
	var b strings.Builder
	for _, c := range e.hookCalls("") {
		fmt.Fprintf(&b, "%s %s tool=%q agent=%q exit=%d stdout=%q command=%q\n", c.Start.Format("15:04:05.000"), c.Event,
			c.str("tool_name"), c.str("agent_id"), c.Exit, clip(c.Stdout, 200), clip(c.command(), 200))
	}
	return b.String()
}
