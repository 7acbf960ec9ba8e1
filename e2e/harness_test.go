package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	api "github.com/lucid-dev/lucid/internal/scripted/messages"
)

// The suite runs the real Claude Code binary named by LUCID_E2E_CLAUDE
// (`make e2e` installs it and sets it). Without it every test skips.
const claudeEnv = "LUCID_E2E_CLAUDE"

// unavailable is what `make e2e` sets LUCID_E2E_CLAUDE to when Claude Code
// could not be installed (the installer said why, in one line).
const unavailable = "unavailable"

var (
	claudeBin string // the claude binary, when the suite runs
	skipWhy   string // why the suite skips, when it does
	lucidDir  string // the folder put first on PATH: `lucid` there is the shim
	realLucid string // the freshly built lucid
)

// runTimeout bounds one `claude -p` run: long enough for a slow machine,
// short enough that a hang fails with the request log in CI's time.
const runTimeout = 5 * time.Minute

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "lucid" && os.Getenv(realLucidEnv) != "" {
		os.Exit(shim())
	}
	if filepath.Base(os.Args[0]) == codexHookName {
		os.Exit(codexHook())
	}
	os.Exit(setup(m))
}

func setup(m *testing.M) int {
	switch claudeBin = os.Getenv(claudeEnv); claudeBin {
	case "":
		skipWhy = claudeEnv + " is not set: the real-client suite skips; `make e2e` installs Claude Code and runs it"
	case unavailable:
		skipWhy = "Claude Code could not be installed (the line above says why): the real-client suite skips"
	default:
		out, err := exec.Command(claudeBin, "--version").CombinedOutput()
		if err != nil {
			skipWhy = fmt.Sprintf("%s=%s does not run (%v): the real-client suite skips", claudeEnv, claudeBin, err)
		} else {
			fmt.Printf("e2e: %s %s", claudeBin, out)
		}
	}
	if skipWhy != "" {
		fmt.Println("e2e: " + skipWhy)
	}
	if !anyClient() {
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "lucid-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	realLucid = filepath.Join(dir, "real", "lucid")
	build := exec.Command("go", "build", "-o", realLucid, "./cmd/lucid")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building lucid: %v\n%s", err, out)
		return 1
	}
	// The `lucid` on the agents' PATH is this test binary, which records
	// each call and runs the real one (shim.go).
	self, err := os.Executable()
	if err == nil {
		lucidDir = filepath.Join(dir, "bin")
		err = os.MkdirAll(lucidDir, 0o755)
	}
	if err == nil {
		err = os.Symlink(self, filepath.Join(lucidDir, "lucid"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// anyClient reports whether any client's binary is named, so that lucid
// is built for the suite.
func anyClient() bool {
	for _, v := range []string{claudeEnv, codexEnv, geminiEnv} {
		if b := os.Getenv(v); b != "" && b != unavailable {
			return true
		}
	}
	return false
}

// needClaude skips the test when the suite cannot run.
func needClaude(t *testing.T) {
	t.Helper()
	if skipWhy != "" {
		t.Skip(skipWhy)
	}
}

// env is a scratch world for one test: a git repository with lucid set up,
// and a HOME of its own, so the user's ~/.claude is never read.
type env struct {
	t       *testing.T
	repo    string
	home    string
	hookLog string // where the shim records lucid's calls
	// runDir, when set, is the folder claude starts in instead of repo.
	runDir string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	needClaude(t)
	e := newScratch(t, t.TempDir())
	e.run("lucid", "init") // registers the hooks in .claude/settings.json
	if !strings.Contains(e.read(".claude/settings.json"), "lucid hook PreToolUse") {
		t.Fatalf("lucid init registered no hooks:\n%s", e.read(".claude/settings.json"))
	}
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "scratch")
	return e
}

// newScratch makes the repository and HOME of a world under root: a git
// repository holding README.md and src/auth.go, not yet committed, with
// lucid not yet set up; the lucid the suite built must be there.
func newScratch(t *testing.T, root string) *env {
	t.Helper()
	if realLucid == "" {
		t.Skip("lucid was not built for the suite")
	}
	e := &env{t: t, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home"), hookLog: filepath.Join(root, "calls.jsonl")}
	for _, d := range []string{e.repo, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.write(filepath.Join(e.home, ".gitconfig"), "[user]\n\tname = e2e\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n")
	e.run("git", "init", "-q")
	e.write(e.path("README.md"), "# scratch\n\nA repository for lucid's real-client tests.\n")
	e.write(e.path("src/auth.go"), "package auth\n\n// Login returns nil when the password matches.\nfunc Login(user, password string) error {\n\treturn check(user, password)\n}\n")
	return e
}

// path is a path inside the repository.
func (e *env) path(rel string) string { return filepath.Join(e.repo, rel) }

func (e *env) write(path, content string) {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) read(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.path(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// environ is the environment of every process a test starts: the fresh
// lucid first on PATH, the scratch HOME, and no LUCID_* of the caller's.
func (e *env) environ(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH", k == "HOME", strings.HasPrefix(k, "LUCID_"), strings.HasPrefix(k, "ANTHROPIC_"),
			strings.HasPrefix(k, "CLAUDE"), strings.HasPrefix(k, "LICH_"), strings.HasPrefix(k, "GIT_"),
			// An agent's shell the suite may run in: the clients it starts
			// are not that agent's.
			k == "AI_AGENT", k == "GEMINI_CLI", k == "CODEX_THREAD_ID", k == "CODEX_SESSION_ID":
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "PATH="+lucidDir+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+e.home, "GIT_CONFIG_NOSYSTEM=1",
		realLucidEnv+"="+realLucid, callLogEnv+"="+e.hookLog)
	return append(out, extra...)
}

// run runs a command in the repository and returns its stdout; a failure
// fails the test.
func (e *env) run(name string, args ...string) string {
	e.t.Helper()
	out, err := e.output(name, args...)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// output runs a command in the repository and returns its stdout, or an
// error that quotes its output. Unlike run it may be called off the test's
// goroutine, inside a scripted step.
func (e *env) output(name string, args ...string) (string, error) {
	path := name
	if name == "lucid" {
		path = realLucid // exec looks names up in our PATH, not cmd.Env's
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = e.repo
	cmd.Env = e.environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// result is one finished `claude -p` run.
type result struct {
	events []map[string]any // the stream-json lines
	stdout string
	stderr string
	took   time.Duration
}

// claude runs `claude -p prompt` in the repository against the server,
// with extra environment, and waits for it to exit. A run that fails or
// hangs fails the test with the server's request log.
func (e *env) claude(srv *api.Server, prompt string, extra ...string) result {
	e.t.Helper()
	res, err := e.claudeRun(srv, prompt, extra...)
	if err != nil {
		e.t.Fatal(err)
	}
	if p := srv.Problems(); len(p) > 0 {
		e.t.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s", strings.Join(p, "\n"), srv.Dump())
	}
	return res
}

// claudeRun is claude for a test goroutine of its own (beside another
// client's run): it returns what claude did to the test, as an error.
func (e *env) claudeRun(srv *api.Server, prompt string, extra ...string) (result, error) {
	return e.claudeRunMode(srv, prompt, "bypassPermissions", nil, extra...)
}

// claudeRunMode is claudeRun in a permission mode of the test's choice
// (default, acceptEdits, bypassPermissions), with more flags for claude
// (--allowedTools Bash, --add-dir DIR) and, when dir is set through
// e.runDir, in that folder instead of the repository's top.
func (e *env) claudeRunMode(srv *api.Server, prompt, mode string, flags []string, extra ...string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	args := append([]string{"-p", prompt, "--permission-mode", mode, "--output-format", "stream-json", "--verbose"}, flags...)
	cmd := exec.CommandContext(ctx, claudeBin, args...)
	cmd.Dir = e.repo
	if e.runDir != "" {
		cmd.Dir = e.runDir
	}
	cmd.Env = e.environ(append([]string{
		"ANTHROPIC_BASE_URL=" + srv.URL,
		"ANTHROPIC_API_KEY=x",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"IS_SANDBOX=1",
	}, extra...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	// The steps run on the server's goroutines and read what the test set
	// up before this call (srv itself, in a step that waits for another
	// conversation). The server takes its lock before each step: taking
	// it here, after the set-up, orders the two for the race detector,
	// which does not see the client process in between.
	srv.Requests()
	start := time.Now()
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	sc := bufio.NewScanner(strings.NewReader(res.stdout))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			res.events = append(res.events, ev)
		}
	}
	e.t.Logf("claude -p ran %s, %d requests", res.took.Round(time.Millisecond), len(srv.Requests()))
	e.dump(srv, res)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return res, fmt.Errorf("claude -p did not finish in %s\nrequests:\n%s\nstderr:\n%s", runTimeout, srv.Dump(), res.stderr)
	}
	if err != nil {
		return res, fmt.Errorf("claude -p: %v\nstderr:\n%s\nstdout:\n%s\nrequests:\n%s", err, res.stderr, clip(res.stdout, 4000), srv.Dump())
	}
	return res, nil
}

// dump writes every request body and the run's output into
// $LUCID_E2E_DUMP/<test>/, for reading what the client sent.
func (e *env) dump(srv *api.Server, res result) {
	root := os.Getenv("LUCID_E2E_DUMP")
	if root == "" {
		return
	}
	dir := filepath.Join(root, strings.ReplaceAll(e.t.Name(), "/", "_"))
	os.MkdirAll(dir, 0o755)
	for _, r := range srv.Requests() {
		name := fmt.Sprintf("%03d-%s-%s.json", r.Seq, r.Method, strings.NewReplacer("/", "_", "?", "_", "=", "_").Replace(r.Path))
		os.WriteFile(filepath.Join(dir, name), r.Body, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "stdout.jsonl"), []byte(res.stdout), 0o644)
	os.WriteFile(filepath.Join(dir, "stderr.txt"), []byte(res.stderr), 0o644)
	os.WriteFile(filepath.Join(dir, "requests.txt"), []byte(srv.Dump()), 0o644)
	os.WriteFile(filepath.Join(dir, "calls.txt"), []byte(e.callsText()), 0o644)
	if b, err := os.ReadFile(e.hookLog); err == nil {
		os.WriteFile(filepath.Join(dir, "calls.jsonl"), b, 0o644)
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// sessionID is the session's id, from the client's init event.
func (r result) sessionID() string {
	for _, ev := range r.events {
		if ev["type"] == "system" && ev["subtype"] == "init" {
			s, _ := ev["session_id"].(string)
			return s
		}
	}
	return ""
}

// agentID is the id of the subagent whose prompt holds marker, from the
// client's task_started event.
func (r result) agentID(marker string) string {
	for _, ev := range r.events {
		if ev["subtype"] != "task_started" {
			continue
		}
		if p, _ := ev["prompt"].(string); strings.Contains(p, marker) {
			id, _ := ev["task_id"].(string)
			return id
		}
	}
	return ""
}

// logEntry is an entry as `lucid log --json` prints it.
type logEntry struct {
	ID       string `json:"id"`
	Agent    string `json:"agent"`
	Kind     string `json:"kind"`
	Text     string `json:"text"`
	Diff     string `json:"diff"`
	Evidence []struct {
		Path string `json:"path"`
		Line int    `json:"line"`
	} `json:"evidence"`
}

// log is the repository's log, newest first, read with `lucid log --json`.
func (e *env) log() []logEntry {
	e.t.Helper()
	var out []logEntry
	if err := json.Unmarshal([]byte(e.run("lucid", "log", "--all", "--json")), &out); err != nil {
		e.t.Fatalf("lucid log --json: %v", err)
	}
	return out
}
