package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	gem "github.com/lucid-dev/lucid/internal/testkit/scripted/generatecontent"
)

// The Gemini scenarios run the real Gemini CLI binary named by
// LUCID_E2E_GEMINI (`make e2e` installs it with scripts/install-gemini and
// sets it), headless (`-p`, `--approval-mode yolo`), with API-key auth in
// the test's own HOME, against internal/scripted/generatecontent on 127.0.0.1.
// Without the binary they skip, whatever the Claude Code suite does.
const (
	geminiEnv     = "LUCID_E2E_GEMINI"
	geminiVersion = "0.61.0"
	geminiModel   = "gemini-2.5-flash"
)

// The recording hook is this test binary run under another name: it saves
// what Gemini CLI gave it and answers as the test told it to.
const (
	hookRecorderName = "gemini-hook"
	hookLogEnv       = "LUCID_E2E_HOOK_LOG" // one JSON line per hook call
	hookCtlEnv       = "LUCID_E2E_HOOK_CTL" // the answers, a JSON object
)

// geminiEvents are the hook events 0.61.0 has (Notification never fires
// headless in yolo mode, but is registered so a test would see it).
var geminiEvents = []string{"SessionStart", "BeforeAgent", "PreCompress", "BeforeModel", "BeforeToolSelection",
	"AfterModel", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd", "Notification"}

func init() {
	// Before TestMain: the recorder must not run the suite's set-up.
	if filepath.Base(os.Args[0]) == hookRecorderName {
		os.Exit(recordHook())
	}
}

var (
	geminiBinary clientBinary
	geminiBin    string
)

// needGemini skips the test when the Gemini CLI cannot be had, saying why.
func needGemini(t *testing.T) {
	t.Helper()
	geminiBin = geminiBinary.need(t, geminiEnv, "Gemini CLI", func(bin string) string {
		// A scratch HOME: --version must not read the user's ~/.gemini.
		home, err := os.MkdirTemp("", "lucid-e2e-gemini-version")
		if err != nil {
			return err.Error()
		}
		defer os.RemoveAll(home)
		cmd := exec.Command(bin, "--version")
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.Output()
		switch got := strings.TrimSpace(string(out)); {
		case err != nil:
			return fmt.Sprintf("%s=%s does not run (%v): the Gemini scenarios skip", geminiEnv, bin, err)
		case got != geminiVersion:
			return fmt.Sprintf("%s=%s is Gemini CLI %q, the scenarios are written for %s: they skip", geminiEnv, bin, got, geminiVersion)
		}
		return ""
	})
}

// hookAnswer is what the recording hook does for one event (or one
// event and tool): print Stdout as JSON, write Stderr, exit with Exit.
// Once answers only the first call; later calls get no answer. With
// Match, only a payload holding that string gets this answer, the others
// get Otherwise (none when nil).
type hookAnswer struct {
	Stdout    any         `json:"stdout,omitempty"`
	Stderr    string      `json:"stderr,omitempty"`
	Exit      int         `json:"exit,omitempty"`
	Once      bool        `json:"once,omitempty"`
	SleepMS   int         `json:"sleep_ms,omitempty"` // before answering, to see the hook timeout
	Match     string      `json:"match,omitempty"`
	Otherwise *hookAnswer `json:"otherwise,omitempty"`
}

// geminiHookCall is one run of the recording hook.
type geminiHookCall struct {
	Event   string            `json:"event"` // from the command line
	Raw     string            `json:"raw"`   // stdin as given
	Env     map[string]string `json:"env"`
	Answer  *hookAnswer       `json:"answer,omitempty"`
	Start   time.Time         `json:"start"`
	Payload map[string]any    `json:"-"`
}

func (c geminiHookCall) str(key string) string {
	s, _ := c.Payload[key].(string)
	return s
}

// input is the call's tool_input.
func (c geminiHookCall) input() map[string]any {
	m, _ := c.Payload["tool_input"].(map[string]any)
	return m
}

// recordHook is the recording hook's main: it answers from the control
// file under "EVENT:TOOL", else "EVENT", and appends the call to the log
// in one write.
func recordHook() int {
	event := "unknown"
	if len(os.Args) > 1 {
		event = os.Args[1]
	}
	raw, _ := readAll(os.Stdin)
	var payload map[string]any
	json.Unmarshal(raw, &payload)
	tool, _ := payload["tool_name"].(string)
	c := geminiHookCall{Event: event, Raw: string(raw), Env: map[string]string{}, Start: time.Now()}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		c.Env[k] = v
	}
	ctlPath := os.Getenv(hookCtlEnv)
	var ctl map[string]*hookAnswer
	if b, err := os.ReadFile(ctlPath); err == nil {
		if err := json.Unmarshal(b, &ctl); err != nil {
			fmt.Fprintln(os.Stderr, "gemini-hook: control file:", err)
			return 1
		}
	}
	key := event + ":" + tool
	a := ctl[key]
	if a == nil {
		key, a = event, ctl[event]
	}
	for a != nil && a.Match != "" && !strings.Contains(string(raw), a.Match) {
		a = a.Otherwise
	}
	if a != nil && a.Once {
		// The first call creates the marker; the others find it.
		f, err := os.OpenFile(ctlPath+"."+strings.ReplaceAll(key, ":", "-")+".used", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			a = nil
		} else {
			f.Close()
		}
	}
	c.Answer = a
	appendLine(os.Getenv(hookLogEnv), c)
	if a == nil {
		return 0
	}
	time.Sleep(time.Duration(a.SleepMS) * time.Millisecond)
	if a.Stdout != nil {
		json.NewEncoder(os.Stdout).Encode(a.Stdout)
	}
	os.Stderr.WriteString(a.Stderr)
	return a.Exit
}

// geminiWorld is a scratch world for one Gemini CLI run: a git
// repository with project hooks in .gemini/settings.json, a HOME of its
// own (API-key auth, no telemetry, no update checks), and a preload that
// logs every connection the client opens.
type geminiWorld struct {
	*env    // the repository and HOME (and env's helpers: path, write)
	root    string
	hookBin string // the recording hook
	hookLog string
	hookCtl string
	netLog  string
	netJS   string
	// trustByEnv is GEMINI_CLI_TRUST_WORKSPACE=true on every run (the
	// default); off, the workspace is trusted only as ~/.gemini says.
	trustByEnv bool
	// lucid: lucid's own hooks run, with the shim first on PATH
	// (gemini_lucid_test.go).
	lucid bool
}

// newGeminiWorld sets up the world with the recording hook on every event
// of events (all of 0.61.0's when none are given).
func newGeminiWorld(t *testing.T, events ...string) *geminiWorld {
	t.Helper()
	needGemini(t)
	root := t.TempDir()
	w := &geminiWorld{env: newWorld(t, root), root: root,
		hookBin: filepath.Join(root, "bin", hookRecorderName), hookLog: filepath.Join(root, "hooks.jsonl"),
		hookCtl: filepath.Join(root, "hookctl.json"), netLog: filepath.Join(root, "net.log"), netJS: filepath.Join(root, "netlog.cjs"), trustByEnv: true}
	linkSelf(t, w.hookBin)
	w.write(filepath.Join(w.home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}
`)
	w.write(w.netJS, netlogJS)
	w.write(w.path("notes.txt"), "hello world\nline two\n")
	w.write(w.path("src/auth.go"), "package auth\n\n// Login returns nil when the password matches.\nfunc Login(user, password string) error {\n\treturn check(user, password)\n}\n")
	if len(events) == 0 {
		events = geminiEvents
	}
	w.setHooks(events, 30000)
	w.run("git", "init", "-q")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "scratch")
	return w
}

// setHooks writes .gemini/settings.json with the recording hook on each
// event, with a timeout in milliseconds (0.61.0's unit).
func (w *geminiWorld) setHooks(events []string, timeoutMS int) {
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{
			"type": "command", "command": w.hookBin + " " + ev, "name": "record-" + ev, "timeout": timeoutMS}}}}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	w.write(w.path(".gemini/settings.json"), string(b)+"\n")
}

// answer sets what the recording hook does for key ("EVENT" or
// "EVENT:TOOL"), for the runs to come.
func (w *geminiWorld) answer(answers map[string]hookAnswer) {
	b, _ := json.Marshal(answers)
	w.write(w.hookCtl, string(b))
}

// netlogJS is preloaded into the client (NODE_OPTIONS=--require): it
// logs every socket connect and DNS lookup, so a test can see that
// nothing left 127.0.0.1.
const netlogJS = `const net = require('net'), dns = require('dns'), fs = require('fs');
const LOG = process.env.LUCID_E2E_NETLOG;
function log(s) { try { fs.appendFileSync(LOG, s + '\n'); } catch (e) {} }
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...a) {
  let o = a[0];
  if (Array.isArray(o)) o = o[0];
  if (o && typeof o === 'object') log('connect ' + (o.path ? 'unix:' + o.path : (o.host || 'localhost') + ':' + o.port));
  else log('connect ' + (a[1] || 'localhost') + ':' + a[0]);
  return connect.apply(this, a);
};
const lookup = dns.lookup;
dns.lookup = function (h, ...r) { log('dns ' + h); return lookup.call(this, h, ...r); };
`

// content reads a file of the repository; "" when it does not exist.
func (w *geminiWorld) content(rel string) string {
	w.t.Helper()
	b, err := os.ReadFile(w.path(rel))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		w.t.Fatal(err)
	}
	return string(b)
}

func (w *geminiWorld) run(name string, args ...string) string {
	w.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = w.repo
	cmd.Env = w.environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// environ is the client's environment: the caller's, without anything
// that would point a client or lucid elsewhere, with the scratch HOME.
func (w *geminiWorld) environ(extra ...string) []string {
	out := w.env.clientEnviron(w.lucid, func(k string) bool {
		for _, p := range []string{"GEMINI_", "GOOGLE_", "ANTHROPIC_", "CLAUDE", "CODEX_", "LICH_"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "NODE_OPTIONS"
	})
	return append(out, extra...)
}

// geminiResult is one finished `gemini -p` run.
type geminiResult = run

// gemini runs `gemini -p prompt` in the repository against the server and
// waits for it to exit. A run that hangs, opens a connection anywhere but
// 127.0.0.1, or leaves the server with problems fails the test; the exit
// code is the test's to judge.
func (w *geminiWorld) gemini(srv *gem.Server, prompt string, args ...string) geminiResult {
	w.t.Helper()
	res, err := w.geminiRun(srv, prompt, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// geminiRun is gemini for a test goroutine of its own (beside another
// client's run): it returns what went wrong as an error.
func (w *geminiWorld) geminiRun(srv *gem.Server, prompt string, args ...string) (geminiResult, error) {
	var trust []string
	if w.trustByEnv {
		// Project hooks run only in a trusted workspace; --skip-trust
		// alone comes too late for them.
		trust = append(trust, "GEMINI_CLI_TRUST_WORKSPACE=true")
	}
	environ := w.environ(append(trust,
		"GEMINI_API_KEY=x",
		"GOOGLE_GEMINI_BASE_URL="+srv.URL,
		"TERM=dumb",
		"NODE_OPTIONS=--require "+w.netJS,
		"LUCID_E2E_NETLOG="+w.netLog,
		hookLogEnv+"="+w.hookLog,
		hookCtlEnv+"="+w.hookCtl,
	)...)
	res, err := runClient(srv, runTimeout, w.repo, environ, geminiBin, append([]string{"-m", geminiModel, "--approval-mode", "yolo",
		"--skip-trust", "-p", prompt}, args...)...)
	w.t.Logf("gemini -p ran %s, exit %d, %d requests, %d hook calls", res.took.Round(time.Millisecond), res.code,
		len(srv.Requests()), len(w.hooks()))
	w.dump(srv, res)
	if err != nil {
		return res, fmt.Errorf("gemini -p: %v\nrequests:\n%s\nstderr:\n%s", err, srv.Dump(), res.stderr)
	}
	if p := srv.Problems(); len(p) > 0 {
		return res, fmt.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000))
	}
	if away := w.offHost(); len(away) > 0 {
		return res, fmt.Errorf("Gemini CLI reached beyond 127.0.0.1:\n%s", strings.Join(away, "\n"))
	}
	return res, nil
}

// offHost lists the logged connections and lookups of anything but the
// loopback (and local sockets).
func (w *geminiWorld) offHost() []string { return offHost(w.netLog) }

// hooks reads the recording hook's log, in the order the calls started.
func (w *geminiWorld) hooks() []geminiHookCall {
	w.t.Helper()
	lines, err := readLines(w.hookLog)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []geminiHookCall
	for _, line := range lines {
		var c geminiHookCall
		if err := json.Unmarshal(line, &c); err != nil {
			w.t.Fatalf("hook log: %v", err)
		}
		json.Unmarshal([]byte(c.Raw), &c.Payload)
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// hooksOf returns the calls of one event, for one tool when tool is set.
func (w *geminiWorld) hooksOf(event, tool string) []geminiHookCall {
	var out []geminiHookCall
	for _, c := range w.hooks() {
		if c.Event == event && (tool == "" || c.str("tool_name") == tool) {
			out = append(out, c)
		}
	}
	return out
}

// hookOrder is the events as they ran, with the tool, one a line.
func (w *geminiWorld) hookOrder() string {
	var b strings.Builder
	for _, c := range w.hooks() {
		b.WriteString(c.Event)
		if tool := c.str("tool_name"); tool != "" {
			b.WriteString(":" + tool)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// dump writes every request body, the run's output and the hook log into
// $LUCID_E2E_DUMP/<test>/, for reading what the client sent.
func (w *geminiWorld) dump(srv *gem.Server, res geminiResult) {
	dir := dumpDir(w.t)
	if dir == "" {
		return
	}
	for _, r := range srv.Requests() {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s-%s.json", r.Seq, r.Method, pathName.Replace(r.Path))), r.Body, 0o644)
	}
	dumpFiles(dir, map[string]string{"stdout.txt": res.stdout, "stderr.txt": res.stderr, "requests.txt": srv.Dump(),
		"hook-order.txt": w.hookOrder()}, map[string]string{"hooks.jsonl": w.hookLog, "net.log": w.netLog})
}
