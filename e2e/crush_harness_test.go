package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// The Crush scenarios run the real Crush binary named by LUCID_E2E_CRUSH
// (`make e2e` builds it with scripts/install-crush and sets it),
// headless (`crush run`, which approves every tool of its session),
// against internal/testkit/scripted/chatcompletions on 127.0.0.1 as an
// openai-compat provider of the test's own user config. Without the
// binary they skip, whatever the other clients' suites do.
const (
	crushEnv   = "LUCID_E2E_CRUSH"
	crushModel = "crush-test"
)

var (
	crushBinary clientBinary
	crushBin    string
)

// needCrush skips the test when Crush cannot be had, saying why.
func needCrush(t *testing.T) {
	t.Helper()
	crushBin = crushBinary.need(t, crushEnv, "Crush", func(bin string) string {
		out, err := exec.Command(bin, "--version").CombinedOutput()
		if err != nil {
			return fmt.Sprintf("%s=%s does not run (%v): the Crush scenarios skip", crushEnv, bin, err)
		}
		fmt.Printf("e2e: %s %s", bin, out)
		return ""
	})
}

// crushWorld is Crush set up in an e2e world: lucid's hook in the
// repository's crush.json, and Crush's user config and data in the
// world's HOME.
type crushWorld struct {
	*env
	config, data string
	// userHooks, when set, is the "hooks" member of the user config.
	userHooks string
}

// crushUserConfig is the user config of every world: the scripted
// server as the one provider, no provider list fetched, no metrics.
func crushUserConfig(url, hooks string) string {
	if hooks != "" {
		hooks = `  "hooks": ` + hooks + ",\n"
	}
	return `{
` + hooks + `  "options": {"disable_provider_auto_update": true, "disable_default_providers": true, "disable_metrics": true},
  "providers": {"scripted": {"type": "openai-compat", "base_url": "` + url + `", "api_key": "x", "discover_models": false,
    "models": [{"id": "` + crushModel + `", "name": "` + crushModel + `", "context_window": 200000, "default_max_tokens": 4096}]}},
  "models": {"large": {"model": "` + crushModel + `", "provider": "scripted"}, "small": {"model": "` + crushModel + `", "provider": "scripted"}}
}
`
}

// withCrush sets Crush up in e's repository (lucid already set up
// there): lucid's hook in crush.json as `lucid init --client crush`
// writes it, committed.
func withCrush(t *testing.T, e *env) *crushWorld {
	t.Helper()
	needCrush(t)
	w := &crushWorld{env: e, config: filepath.Join(e.home, ".config", "crush"), data: filepath.Join(e.home, ".local", "share", "crush")}
	e.run("lucid", "init", "--client", "crush")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "crush")
	return w
}

// newCrushLucid is a repository with lucid set up for Crush alone.
func newCrushLucid(t *testing.T) *crushWorld {
	t.Helper()
	needCrush(t)
	e := newScratch(t, t.TempDir())
	e.write(e.path("notes.txt"), "hello world\nline two\n")
	return withCrush(t, e)
}

// crushEnviron is Crush's environment: lucid's world (env.environ) with
// nothing of the caller's that would point Crush elsewhere, its config
// and data in the world's HOME, and every connection but 127.0.0.1's sent
// to a proxy that is not there, so that nothing leaves the machine.
func (w *crushWorld) crushEnviron(extra ...string) []string {
	out := w.env.clientEnviron(true, func(k string) bool {
		for _, p := range []string{"CRUSH", "OPENAI_", "ANTHROPIC_", "XDG_", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "AGENT"
	})
	return append(append(out,
		"CRUSH_GLOBAL_CONFIG="+w.config,
		"CRUSH_GLOBAL_DATA="+w.data,
		"CRUSH_DISABLE_METRICS=1",
		"DO_NOT_TRACK=1",
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost",
		"TERM=dumb",
	), extra...)
}

// crushRun runs `crush run --quiet prompt` in the repository against srv
// and waits for it to exit. It may run off the test's goroutine: it
// reports a hang or a problem of the server's as its error, and leaves
// the exit code to the caller.
func (w *crushWorld) crushRun(srv *cc.Server, prompt string, extra ...string) (run, error) {
	w.write(filepath.Join(w.config, "crush.json"), crushUserConfig(srv.URL, w.userHooks))
	res, err := runClient(srv, runTimeout, w.repo, w.crushEnviron(extra...), crushBin, "run", "--quiet", prompt)
	w.t.Logf("crush run ran %s, exit %d, %d requests", res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	w.dumpCrush(srv, res)
	switch {
	case err != nil:
		return res, fmt.Errorf("crush run: %v\nrequests:\n%s\nstderr:\n%s", err, srv.Dump(), clip(res.stderr, 4000))
	case res.code != 0:
		return res, fmt.Errorf("crush run exited %d\nrequests:\n%s\nstderr:\n%s", res.code, srv.Dump(), clip(res.stderr, 4000))
	}
	if p := srv.Problems(); len(p) > 0 {
		return res, fmt.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000))
	}
	return res, nil
}

// crush is crushRun on the test's goroutine: any trouble fails the test.
func (w *crushWorld) crush(srv *cc.Server, prompt string, extra ...string) run {
	w.t.Helper()
	res, err := w.crushRun(srv, prompt, extra...)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// dumpCrush writes every request body, the run's output and lucid's
// calls into $LUCID_E2E_DUMP/<test>/.
func (w *crushWorld) dumpCrush(srv *cc.Server, res run) {
	dir := dumpDir(w.t)
	if dir == "" {
		return
	}
	for _, r := range srv.Requests() {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s-%s.json", r.Seq, r.Method, pathName.Replace(r.Path))), r.Body, 0o644)
	}
	dumpFiles(dir, map[string]string{"stdout.txt": res.stdout, "stderr.txt": res.stderr, "requests.txt": srv.Dump()},
		map[string]string{"calls.jsonl": w.hookLog})
}

// crushWrite, crushEdit and crushBash are steps that call Crush's tools.
func crushWrite(path, content string) cc.Step {
	return cc.CallTool("write", map[string]any{"file_path": path, "content": content})
}

func crushEdit(path, old, new string) cc.Step {
	return cc.CallTool("edit", map[string]any{"file_path": path, "old_string": old, "new_string": new})
}

func crushBash(command string) cc.Step {
	return cc.CallTool("bash", map[string]any{"command": command, "description": "scripted command"})
}
