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

// The Copilot scenarios run the real GitHub Copilot CLI binary named by
// LUCID_E2E_COPILOT (`make e2e` installs it with scripts/install-copilot
// and sets it), headless (`-p`, `--allow-all-tools`), offline with a
// provider of its own (COPILOT_OFFLINE, COPILOT_PROVIDER_*), against
// internal/scripted/chatcompletions on 127.0.0.1. Repository hooks load
// only in a trusted folder: the worlds trust theirs by config, as
// `lucid init --trust-copilot` writes it. Without the binary they skip,
// whatever the other clients' scenarios do.
const (
	copilotEnv     = "LUCID_E2E_COPILOT"
	copilotVersion = "1.0.102"
	copilotModel   = "claude-sonnet-4.5"
)

var copilotBinary clientBinary

// copilotCache is where the binary unpacks its JavaScript on its first
// start (COPILOT_CACHE_HOME, 235 MB): one folder for every test and run,
// so that only the first pays for it.
func copilotCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "lucid", "copilot-cache")
}

// needCopilot skips the test when GitHub Copilot CLI cannot be had,
// saying why, and returns its binary.
func needCopilot(t *testing.T) string {
	t.Helper()
	return copilotBinary.need(t, copilotEnv, "GitHub Copilot CLI", func(bin string) string {
		// A scratch HOME: --version must not read the user's ~/.copilot.
		home, err := os.MkdirTemp("", "lucid-e2e-copilot-version")
		if err != nil {
			return err.Error()
		}
		defer os.RemoveAll(home)
		cmd := exec.Command(bin, "--version", "--no-auto-update")
		cmd.Env = append(os.Environ(), "HOME="+home, "COPILOT_HOME="+filepath.Join(home, ".copilot"), "COPILOT_CACHE_HOME="+copilotCache())
		out, err := cmd.Output()
		first, _, _ := strings.Cut(string(out), "\n")
		switch got := strings.TrimSpace(first); {
		case err != nil:
			return fmt.Sprintf("%s=%s does not run (%v): the Copilot scenarios skip", copilotEnv, bin, err)
		case got != "GitHub Copilot CLI "+copilotVersion+".":
			return fmt.Sprintf("%s=%s is %q, the scenarios are written for GitHub Copilot CLI %s: they skip", copilotEnv, bin, got, copilotVersion)
		}
		return ""
	})
}

// copilotWorld is GitHub Copilot CLI set up in an env's repository, with
// lucid's hooks (.github/hooks/lucid.json) and its folder trusted in its
// own COPILOT_HOME (in the env's HOME).
type copilotWorld struct {
	*env
	bin    string
	home   string // COPILOT_HOME
	logDir string // the CLI's debug logs, one folder per run
	runs   int
	// model is COPILOT_MODEL, copilotModel unless set: a GPT-5 model
	// gets apply_patch instead of create and edit.
	model string
}

// withCopilot sets GitHub Copilot CLI up in e's repository, lucid already
// set up there: `lucid init --client copilot --trust-copilot`, as a user
// runs it (lucid's hook file, and the work tree in trustedFolders of
// $COPILOT_HOME/config.json), committed. The five-client scenario calls it
// on the env its other clients share.
func withCopilot(t *testing.T, e *env) *copilotWorld {
	t.Helper()
	bin := needCopilot(t)
	w := &copilotWorld{env: e, bin: bin, home: filepath.Join(e.home, ".copilot"), logDir: filepath.Join(t.TempDir(), "copilot-logs")}
	w.initCopilot()
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "copilot")
	return w
}

// initCopilot runs lucid init --client copilot --trust-copilot with the
// world's COPILOT_HOME.
func (w *copilotWorld) initCopilot() string {
	w.t.Helper()
	cmd := exec.Command(realLucid, "init", "--client", "copilot", "--trust-copilot")
	cmd.Dir = w.repo
	cmd.Env = w.environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("lucid init --client copilot --trust-copilot: %v\n%s", err, out)
	}
	return string(out)
}

// newCopilotLucid is a repository with lucid set up for GitHub Copilot
// CLI, and for Claude Code too when withClaude.
func newCopilotLucid(t *testing.T, withClaude bool) *copilotWorld {
	t.Helper()
	needCopilot(t)
	if withClaude {
		needClaude(t)
	}
	e := newScratch(t, t.TempDir())
	if withClaude {
		e.run("lucid", "init", "--client", "claude")
	} else {
		e.run("lucid", "init", "--client", "copilot")
	}
	return withCopilot(t, e)
}

// environ is the environment of copilot and of the lucid commands the
// test runs beside it: lucid's (the shim first on PATH, the scratch HOME),
// without anything that would point a client elsewhere, with the world's
// COPILOT_HOME and the shared cache.
func (w *copilotWorld) environ(extra ...string) []string {
	out := w.env.clientEnviron(true, func(k string) bool {
		for _, p := range []string{"COPILOT_", "GITHUB_", "GH_", "ANTHROPIC_", "CLAUDE", "CODEX_", "GEMINI_", "OPENAI_", "QWEN_", "LICH_"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "NODE_OPTIONS"
	})
	return append(append(out, "COPILOT_HOME="+w.home, "COPILOT_CACHE_HOME="+copilotCache(), "COPILOT_AUTO_UPDATE=false"), extra...)
}

// copilotRun is one finished `copilot -p` run.
type copilotRun = run

// copilot runs `copilot -p prompt` in the repository against srv and
// waits for it. A run that hangs or leaves the server with problems fails
// the test; the exit code is the test's to judge.
func (w *copilotWorld) copilot(srv *cc.Server, prompt string, args ...string) copilotRun {
	w.t.Helper()
	res, err := w.copilotRun(srv, prompt, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// copilotRun is copilot for a test goroutine of its own (beside another
// client's run): it returns what went wrong as an error.
func (w *copilotWorld) copilotRun(srv *cc.Server, prompt string, args ...string) (copilotRun, error) {
	w.runs++
	logs := filepath.Join(w.logDir, fmt.Sprint(w.runs))
	environ := w.environ(
		"COPILOT_OFFLINE=true",
		"COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_BASE_URL="+srv.URL,
		"COPILOT_MODEL="+cmp.Or(w.model, copilotModel),
		"TERM=dumb",
		"COPILOT_PROVIDER_MAX_PROMPT_TOKENS=30000", // a step that reports 29500 makes it compact
	)
	res, err := runClient(srv, runTimeout, w.repo, environ, w.bin, append([]string{"--no-auto-update", "-p", prompt,
		"--allow-all-tools", "--log-level", "all", "--log-dir", logs}, args...)...)
	w.t.Logf("copilot -p ran %s, exit %d, %d requests", res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	w.dumpRun(srv, res, logs)
	if err != nil {
		return res, fmt.Errorf("copilot -p: %v\nrequests:\n%s\nstderr:\n%s", err, srv.Dump(), res.stderr)
	}
	if p := srv.Problems(); len(p) > 0 {
		return res, fmt.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s\ncalls:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000), w.callsText())
	}
	return res, nil
}

// hookLines are the lines of the CLI's debug logs of its hook engine
// ([rust:hooks]): what each hook printed, timeouts, errors.
func (w *copilotWorld) hookLines() []string {
	var out []string
	files, _ := filepath.Glob(filepath.Join(w.logDir, "*", "*.log"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "hook") {
				out = append(out, line)
			}
		}
	}
	return out
}

// dumpRun writes every request body, the run's output, lucid's calls and
// the CLI's logs into $LUCID_E2E_DUMP/<test>/.
func (w *copilotWorld) dumpRun(srv *cc.Server, res copilotRun, logs string) {
	dir := dumpDir(w.t)
	if dir == "" {
		return
	}
	for _, r := range srv.Requests() {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s-%s.json", r.Seq, r.Method, pathName.Replace(r.Path))), r.Body, 0o644)
	}
	files, _ := filepath.Glob(filepath.Join(logs, "*.log"))
	copies := map[string]string{"calls.jsonl": w.hookLog}
	for i, f := range files {
		copies[fmt.Sprintf("copilot-%d-%d.log", w.runs, i)] = f
	}
	dumpFiles(dir, map[string]string{"stdout.txt": res.stdout, "stderr.txt": res.stderr, "requests.txt": srv.Dump(),
		"calls.txt": w.callsText()}, copies)
}

// copilotContexts are the texts lucid's hooks added to a Copilot request,
// with the hook of each ("sessionStart: ...").
func copilotContexts(r *cc.Request) []string {
	var out []string
	for _, c := range cc.CopilotHookContexts(r.Chat.Messages) {
		out = append(out, c.Hook+": "+c.Text)
	}
	return out
}

// copilotHookCalls are the shim's calls of `lucid hook --client copilot
// EVENT`.
func (w *copilotWorld) copilotHookCalls(event string) []call {
	var out []call
	for _, c := range w.calls() {
		if len(c.Args) == 4 && c.Args[0] == "hook" && c.Args[1] == "--client" && c.Args[2] == "copilot" && c.Args[3] == event {
			out = append(out, c)
		}
	}
	return out
}
