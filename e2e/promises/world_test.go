package promises

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// lucidBin is the lucid built for the suite (TestMain).
var lucidBin string

func TestMain(m *testing.M) {
	gittest.QuickRaceExit()
	dir, err := os.MkdirTemp("", "lucid-promises")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if lucidBin, err = gittest.BuildLucid(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The agents of a world. The owner (a subagent) holds the claim on src/**;
// the other (a lead of another session) is the one who tries to get around
// it. A person's claim is on notes/**.
const (
	ownerSession   = "30df32ba-0d45-4195-af71-803394f51561"
	owner          = ownerSession + "/a2adb9a7d441d9c57"
	other          = "0b218250-bcad-4f28-bb25-013e7e946655"
	codexSession   = "01a23a7d-ac6f-7493-b1f0-f59c6e21259d"
	qwenSession    = "120986e0-ffe9-4430-ad9f-6f564d2191cf"
	copilotSession = "fb2d5c0f-2408-4388-aa74-4a88124a7649"
)

// world is a repository where the owner claimed src/** and a person
// claimed notes/**, inside a parent folder; the files are committed.
type world struct {
	t      *testing.T
	parent string // the folder that holds the repository
	repo   string
	bin    string // a folder with lucid, first on PATH
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, parent: root, repo: filepath.Join(root, "repo"), bin: filepath.Dir(lucidBin)}
	w.mkdir(w.repo)
	w.git("init", "-q", "-b", "main")
	w.lucidOK(nil, "init")
	w.write("src/a.go", "package src\n")
	w.write("src/b.go", "package src\n")
	w.write("src/deep/c.go", "package deep\n")
	w.write("docs/x.md", "x\n")
	w.write("README.md", "# repo\n")
	w.git("add", "-A")
	w.git("commit", "-qm", "first")
	w.lucidOK([]string{"LUCID_AGENT=" + owner}, "claim", "src/**", "--for", "rewrite auth")
	w.lucidOK(nil, "claim", "notes/**", "--for", "the person's notes")
	return w
}

func (w *world) path(rel string) string { return filepath.Join(w.repo, filepath.FromSlash(rel)) }

func (w *world) mkdir(dir string) {
	w.t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
}

// write writes a file of the repository.
func (w *world) write(rel, content string) {
	w.t.Helper()
	w.mkdir(filepath.Dir(w.path(rel)))
	if err := os.WriteFile(w.path(rel), []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) read(rel string) string {
	b, _ := os.ReadFile(w.path(rel))
	return string(b)
}

// git runs git in the repository.
func (w *world) git(args ...string) string {
	w.t.Helper()
	return gittest.Run(w.t, w.repo, args...)
}

// sh runs a shell command in dir as a person would, lucid on PATH.
func (w *world) sh(dir, command string, env ...string) (string, error) {
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = w.environ(env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// environ is a person's terminal: lucid first on PATH, git's identity, no
// agent's shell; extra is added.
func (w *world) environ(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH", k == "AI_AGENT", k == "CLAUDECODE", k == "GEMINI_CLI", strings.HasPrefix(k, "LUCID_"),
			strings.HasPrefix(k, "CODEX_"), strings.HasPrefix(k, "CLAUDE_"), strings.HasPrefix(k, "GEMINI_"), strings.HasPrefix(k, "GIT_"),
			strings.HasPrefix(k, "COPILOT_"), strings.HasPrefix(k, "QWEN_"):
			continue
		}
		env = append(env, kv)
	}
	env = append(append(env, "PATH="+w.bin+string(os.PathListSeparator)+os.Getenv("PATH")), gittest.Identity...)
	// LUCID_PROMISES_LEASES=on tries every case with leases on
	// (LUCID_LEASES), to see whether any meets a wrong denial.
	if v := os.Getenv("LUCID_PROMISES_LEASES"); v != "" {
		env = append(env, "LUCID_LEASES="+v)
	}
	return append(env, extra...)
}

// clientShell runs command as a client runs its agent's: the client's
// process (a program named client, whose own environment has no mark of
// an agent's shell), and under it the agent's shell with marks in its
// environment, running the line. As bash does, the shell may run the
// line's last command in its own process: then the client is what is
// left above it.
func (w *world) clientShell(dir, client, command string, marks ...string) (string, error) {
	prog := filepath.Join(w.parent, "clients", client)
	if _, err := os.Lstat(prog); err != nil {
		w.mkdir(filepath.Dir(prog))
		bash, err := exec.LookPath("bash")
		if err != nil {
			w.t.Fatal(err)
		}
		if err := os.Symlink(bash, prog); err != nil {
			w.t.Fatal(err)
		}
	}
	cmd := exec.Command(prog, "-c", `env "$@" bash -c "$LUCID_PROMISE_LINE"; true`, client)
	cmd.Args = append(cmd.Args, marks...)
	cmd.Dir = dir
	cmd.Env = w.environ("LUCID_PROMISE_LINE=" + command)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// claudeShell is the environment of Claude Code's Bash tool in the other
// agent's session, as Claude Code 2.1.332 sets it.
func claudeShell(session string) []string {
	return []string{"AI_AGENT=claude-code_2.1.332_agent", "CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=" + session}
}

// lucid runs lucid in the repository with extra environment.
func (w *world) lucid(env []string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(lucidBin, args...)
	cmd.Dir = w.repo
	cmd.Env = w.environ(env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func (w *world) lucidOK(env []string, args ...string) string {
	w.t.Helper()
	out, errOut, err := w.lucid(env, args...)
	if err != nil {
		w.t.Fatalf("lucid %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// hook runs `lucid hook [--client C] EVENT` with payload, as the client
// would: its own hook's environment (Claude Code names its hooks).
func (w *world) hook(client, event string, payload map[string]any) (stdout, stderr string) {
	b, err := json.Marshal(payload)
	if err != nil {
		w.t.Fatal(err)
	}
	args := []string{"hook", event}
	env := []string{"AI_AGENT=claude-code_2.1.332_harness", "CLAUDECODE=1", "CLAUDE_PROJECT_DIR=" + w.repo}
	if client != "claude" {
		args = []string{"hook", "--client", client, event}
		env = nil
	}
	cmd := exec.Command(lucidBin, args...)
	cmd.Dir = w.repo
	cmd.Env = w.environ(env...)
	cmd.Stdin = bytes.NewReader(b)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		w.t.Fatalf("lucid hook %s: %v\n%s", event, err, e.String())
	}
	return o.String(), e.String()
}

// claude is a Claude Code payload of event for agent (a session, or
// "session/agent" for a subagent) in cwd, with the fields given.
func claude(event, agent, cwd string, fields map[string]any) map[string]any {
	session, sub, _ := strings.Cut(agent, "/")
	p := map[string]any{"session_id": session, "cwd": cwd, "hook_event_name": event, "permission_mode": "bypassPermissions",
		"transcript_path": "/tmp/t.jsonl"}
	if sub != "" {
		p["agent_id"], p["agent_type"] = sub, "general-purpose"
	}
	for k, v := range fields {
		p[k] = v
	}
	return p
}

// answer is what a PreToolUse hook decided.
type answer struct {
	deny    bool
	reason  string
	command string // the command as lucid gave it back (stamped), or ""
	context string
	raw     string
}

func parseAnswer(out string) answer {
	a := answer{raw: out}
	var o struct {
		Specific struct {
			Decision string          `json:"permissionDecision"`
			Reason   string          `json:"permissionDecisionReason"`
			Context  string          `json:"additionalContext"`
			Updated  json.RawMessage `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
		Decision string `json:"decision"` // Gemini
		Reason   string `json:"reason"`
		// GitHub Copilot CLI's flat answer
		Permission string          `json:"permissionDecision"`
		Why        string          `json:"permissionDecisionReason"`
		Modified   json.RawMessage `json:"modifiedArgs"`
	}
	if json.Unmarshal([]byte(out), &o) != nil {
		return a
	}
	a.deny = o.Specific.Decision == "deny" || o.Decision == "deny" || o.Permission == "deny"
	a.reason = o.Specific.Reason + o.Reason + o.Why
	if o.Modified != nil {
		o.Specific.Updated = o.Modified
	}
	a.context = o.Specific.Context
	var in struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(o.Specific.Updated, &in) == nil {
		a.command = in.Command
	}
	return a
}

// pre runs Claude Code's PreToolUse of tool with input, for the other
// agent in cwd, in bypassPermissions mode unless fields say otherwise.
func (w *world) pre(cwd, tool string, input map[string]any, fields ...map[string]any) answer {
	f := map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": "toolu_1"}
	for _, m := range fields {
		for k, v := range m {
			f[k] = v
		}
	}
	out, _ := w.hook("claude", "PreToolUse", claude("PreToolUse", other, cwd, f))
	return parseAnswer(out)
}

// bash is pre of a Bash command.
func (w *world) bash(cwd, command string, fields ...map[string]any) answer {
	return w.pre(cwd, "Bash", map[string]any{"command": command, "description": "d"}, fields...)
}

// claims is `lucid claims` as a person reads it.
func (w *world) claims() string {
	return w.lucidOK(nil, "claims")
}

// intact reports the defect when a claim of the owner or the person is gone.
func (w *world) intact() string {
	c := w.claims()
	var gone []string
	if !strings.Contains(c, "src/**") {
		gone = append(gone, "the owner's claim on src/**")
	}
	if !strings.Contains(c, "notes/**") {
		gone = append(gone, "the person's claim on notes/**")
	}
	if len(gone) > 0 {
		return strings.Join(gone, " and ") + " ended"
	}
	return ""
}

// logText is the whole log.
func (w *world) logText() string { return w.read(".lucid/log.jsonl") }
