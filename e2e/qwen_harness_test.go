package e2e

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// The Qwen Code scenarios run the real Qwen Code binary named by
// LUCID_E2E_QWEN (`make e2e` installs it with scripts/install-qwen and
// sets it), headless (`-p`, `--approval-mode yolo`), with an OpenAI key of
// nothing in the test's own HOME, against
// internal/scripted/chatcompletions on 127.0.0.1. Without the binary they
// skip, whatever the other clients' suites do.
const (
	qwenEnv     = "LUCID_E2E_QWEN"
	qwenVersion = "0.24.4"
	qwenModel   = "qwen-test"
)

var (
	qwenBinary clientBinary
	qwenBin    string
)

// needQwen skips the test when Qwen Code cannot be had, saying why.
func needQwen(t *testing.T) {
	t.Helper()
	qwenBin = qwenBinary.need(t, qwenEnv, "Qwen Code", func(bin string) string {
		// A scratch HOME: --version must not read the user's ~/.qwen.
		home, err := os.MkdirTemp("", "lucid-e2e-qwen-version")
		if err != nil {
			return err.Error()
		}
		defer os.RemoveAll(home)
		cmd := exec.Command(bin, "--version")
		cmd.Env = append(os.Environ(), "HOME="+home, "QWEN_USAGE_STATISTICS_ENABLED=false")
		out, err := cmd.Output()
		switch got := strings.TrimSpace(string(out)); {
		case err != nil:
			return fmt.Sprintf("%s=%s does not run (%v): the Qwen Code scenarios skip", qwenEnv, bin, err)
		case got != qwenVersion:
			return fmt.Sprintf("%s=%s is Qwen Code %q, the scenarios are written for %s: they skip", qwenEnv, bin, got, qwenVersion)
		}
		return ""
	})
}

// qwenWorld is Qwen Code set up in an e2e world: lucid's hooks in the
// repository's .qwen/settings.json, Qwen's user settings in the world's
// HOME (no usage statistics, telemetry or updates: nothing leaves
// 127.0.0.1), and a preload that logs every connection Qwen opens.
type qwenWorld struct {
	*env
	netLog, netJS string
	// runDir, when set, is the folder qwen starts in instead of the
	// repository's top.
	runDir string
	// approval, when set, is the --approval-mode instead of yolo.
	approval string
}

// qwenUserSettings are the user settings of every world. The managed
// memory agent stays on, as users have it: it runs after the lead's Stop
// with the lead's ids, and the scripted server answers it as a side
// request.
const qwenUserSettings = `{
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"enableAutoUpdate": false}
}
`

// withQwen sets Qwen Code up in e's repository (lucid already set up
// there): its user settings in e's HOME, and lucid's hooks in the
// project's .qwen/settings.json as `lucid init --client qwen` writes them,
// committed. The five-client scenario calls it on the world the others
// share, then runs w.qwenRun.
func withQwen(t *testing.T, e *env) *qwenWorld {
	t.Helper()
	needQwen(t)
	root := t.TempDir()
	w := &qwenWorld{env: e, netLog: filepath.Join(root, "net.log"), netJS: filepath.Join(root, "netlog.cjs")}
	w.write(filepath.Join(e.home, ".qwen", "settings.json"), qwenUserSettings)
	w.write(w.netJS, netlogJS)
	e.run("lucid", "init", "--client", "qwen")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "qwen")
	return w
}

// newQwenLucid is a repository with lucid set up for Qwen Code alone.
func newQwenLucid(t *testing.T) *qwenWorld {
	t.Helper()
	needQwen(t)
	e := newScratch(t, t.TempDir())
	e.write(e.path("notes.txt"), "hello world\nline two\n")
	return withQwen(t, e)
}

// qwenEnviron is Qwen's environment: lucid's world (env.environ), with
// nothing of the caller's that would point Qwen elsewhere, the scripted
// server as its OpenAI endpoint, and the connection log.
func (w *qwenWorld) qwenEnviron(srv *cc.Server) []string {
	out := w.env.clientEnviron(true, func(k string) bool {
		for _, p := range []string{"QWEN_", "OPENAI_", "DASHSCOPE_", "ANTHROPIC_", "GEMINI_", "CLAUDE", "CODEX_", "COPILOT_"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "NODE_OPTIONS"
	})
	return append(out,
		"OPENAI_API_KEY=x",
		"OPENAI_BASE_URL="+srv.URL,
		"OPENAI_MODEL="+qwenModel,
		"QWEN_USAGE_STATISTICS_ENABLED=false",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
		"TERM=dumb",
		"NODE_OPTIONS=--require "+w.netJS,
		"LUCID_E2E_NETLOG="+w.netLog,
	)
}

// qwenRun runs `qwen -p prompt` (yolo, no approvals, unless w.approval) in the repository, or
// in runDir, against srv and waits for it to exit. It may run off the
// test's goroutine: it reports a hang, a problem of the server's or a
// connection beyond 127.0.0.1 as its error, and leaves the exit code to
// the caller.
func (w *qwenWorld) qwenRun(srv *cc.Server, prompt string, args ...string) (run, error) {
	dir := w.repo
	if w.runDir != "" {
		dir = w.runDir
	}
	res, err := runClient(srv, runTimeout, dir, w.qwenEnviron(srv), qwenBin,
		append([]string{"--approval-mode", cmp.Or(w.approval, "yolo"), "-p", prompt}, args...)...)
	w.t.Logf("qwen -p ran %s, exit %d, %d requests", res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	w.dumpQwen(srv, res)
	switch {
	case err != nil:
		return res, fmt.Errorf("qwen -p: %v\nrequests:\n%s\nstderr:\n%s", err, srv.Dump(), clip(res.stderr, 4000))
	case res.code != 0:
		return res, fmt.Errorf("qwen -p exited %d\nrequests:\n%s\nstderr:\n%s", res.code, srv.Dump(), clip(res.stderr, 4000))
	}
	if p := srv.Problems(); len(p) > 0 {
		return res, fmt.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000))
	}
	if away := offHost(w.netLog); len(away) > 0 {
		return res, fmt.Errorf("Qwen Code reached beyond 127.0.0.1:\n%s", strings.Join(away, "\n"))
	}
	return res, nil
}

// qwen is qwenRun on the test's goroutine: any trouble fails the test.
func (w *qwenWorld) qwen(srv *cc.Server, prompt string, args ...string) run {
	w.t.Helper()
	res, err := w.qwenRun(srv, prompt, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// dumpQwen writes every request body, the run's output and lucid's calls
// into $LUCID_E2E_DUMP/<test>/.
func (w *qwenWorld) dumpQwen(srv *cc.Server, res run) {
	dir := dumpDir(w.t)
	if dir == "" {
		return
	}
	for _, r := range srv.Requests() {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s-%s.json", r.Seq, r.Method, pathName.Replace(r.Path))), r.Body, 0o644)
	}
	dumpFiles(dir, map[string]string{"stdout.txt": res.stdout, "stderr.txt": res.stderr, "requests.txt": srv.Dump()},
		map[string]string{"calls.jsonl": w.hookLog, "net.log": w.netLog})
}

// qwenContexts are the texts of the hook contexts in a request, of the
// hook given (all when "").
func qwenContexts(r *cc.Request, hook string) []string {
	var out []string
	for _, c := range cc.QwenHookContexts(r.Chat.Messages) {
		if hook == "" || c.Hook == hook {
			out = append(out, c.Text)
		}
	}
	return out
}

// lucidAs runs a lucid command signed as agent, the way the agent's own
// shell would sign it.
func (e *env) lucidAs(agent string, args ...string) (string, error) {
	cmd := exec.Command(realLucid, args...)
	cmd.Dir = e.repo
	cmd.Env = e.environ("LUCID_AGENT=" + agent)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("lucid %s as %s: %v\n%s", strings.Join(args, " "), agent, err, out)
	}
	return string(out), nil
}
