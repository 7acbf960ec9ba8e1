package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// The suite runs the real Claude Code binary named by LUCID_E2E_CLAUDE
// (`make e2e` installs it and sets it). Without it every test skips.
const claudeEnv = "LUCID_E2E_CLAUDE"

var (
	claudeBin string // the claude binary, when the suite runs
	skipWhy   string // why the suite skips, when it does
	lucidDir  string // the folder put first on PATH: `lucid` there is the shim
	realLucid string // the freshly built lucid
)

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "lucid" && os.Getenv(realLucidEnv) != "" {
		os.Exit(shim())
	}
	if filepath.Base(os.Args[0]) == codexHookName {
		os.Exit(codexHook())
	}
	code := setUp(m)
	cleanupWeb()
	os.Exit(code)
}

func setUp(m *testing.M) int {
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
	if realLucid, err = gittest.BuildLucid(filepath.Join(dir, "real")); err == nil {
		// lucid web and lucid watch find lucid-view beside lucid.
		_, err = gittest.BuildView(filepath.Join(dir, "real"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
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
	for _, v := range []string{claudeEnv, codexEnv, geminiEnv, copilotEnv, opencodeEnv, kiloEnv,
		qwenEnv,
		piEnv, pi1Env, ompEnv, clineEnv, crushEnv,
	} {
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
	e := newWorld(t, root)
	e.hookLog = filepath.Join(root, "calls.jsonl")
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
			k == "AI_AGENT", k == "GEMINI_CLI", k == "CODEX_THREAD_ID", k == "CODEX_SESSION_ID",
			strings.HasPrefix(k, "QWEN_"):
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "PATH="+lucidDir+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+e.home, "GIT_CONFIG_NOSYSTEM=1",
		realLucidEnv+"="+realLucid, callLogEnv+"="+e.hookLog)
	// LUCID_E2E_LEASES=on|off runs every scenario with leases so
	// (LUCID_LEASES), whatever the repository says: on, to see whether any
	// of them meets a wrong denial; a scenario about what holds without
	// leases sets it off (t.Setenv).
	if v := os.Getenv("LUCID_E2E_LEASES"); v != "" {
		out = append(out, "LUCID_LEASES="+v)
	}
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
	run
	events []map[string]any // the stream-json lines
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
	args := append([]string{"-p", prompt, "--permission-mode", mode, "--output-format", "stream-json", "--verbose"}, flags...)
	dir := e.repo
	if e.runDir != "" {
		dir = e.runDir
	}
	environ := e.environ(append([]string{
		"ANTHROPIC_BASE_URL=" + srv.URL,
		"ANTHROPIC_API_KEY=x",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"IS_SANDBOX=1",
	}, extra...)...)
	r, err := runClient(srv, runTimeout, dir, environ, claudeBin, args...)
	res := result{run: r}
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
	if err == nil && res.code != 0 {
		err = fmt.Errorf("exit status %d", res.code)
	}
	if err != nil {
		return res, fmt.Errorf("claude -p: %v\nstderr:\n%s\nstdout:\n%s\nrequests:\n%s", err, res.stderr, clip(res.stdout, 4000), srv.Dump())
	}
	return res, nil
}

// dump writes every request body and the run's output into
// $LUCID_E2E_DUMP/<test>/, for reading what the client sent.
func (e *env) dump(srv *api.Server, res result) {
	dir := dumpDir(e.t)
	if dir == "" {
		return
	}
	for _, r := range srv.Requests() {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s-%s.json", r.Seq, r.Method, pathName.Replace(r.Path))), r.Body, 0o644)
	}
	dumpFiles(dir, map[string]string{"stdout.jsonl": res.stdout, "stderr.txt": res.stderr, "requests.txt": srv.Dump(),
		"calls.txt": e.callsText()}, map[string]string{"calls.jsonl": e.hookLog})
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

// claudeHolds has a Claude Code lead claim glob for task with its own
// lucid command, and hold the claim, its turn open, while another
// client's agent works: claimed reports whether the claim is there yet
// (for a scripted step of the other agent to wait on), release ends the
// lead's turn and returns its run's error.
func (e *env) claudeHolds(glob, task string) (claimed func() bool, release func() error) {
	e.t.Helper()
	needClaude(e.t)
	done := make(chan struct{})
	lead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "lucid claim '" + glob + "' --for '" + task + "'", "description": "claim"}),
		func(*api.MessagesRequest) api.Reply {
			select { // keep the turn open, and with it the claim
			case <-done:
			case <-time.After(3 * time.Minute):
			}
			return api.Reply{Text: "Claude done."}
		},
	}}
	srv := api.New(lead)
	e.t.Cleanup(srv.Close)
	errc := make(chan error, 1)
	go func() {
		_, err := e.claudeRun(srv, "[[claude-lead]] Claim the code.")
		errc <- err
	}()
	claimed = func() bool {
		out, err := e.output("lucid", "claims")
		return err == nil && strings.Contains(out, task)
	}
	return claimed, func() error {
		close(done)
		return <-errc
	}
}
