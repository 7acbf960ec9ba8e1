package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// The opencode and Kilo Code scenarios run the real binaries named by
// LUCID_E2E_OPENCODE and LUCID_E2E_KILO (`make e2e` installs them with
// scripts/install-opencode and scripts/install-kilo and sets them),
// headless (`opencode run PROMPT`, `kilo run PROMPT`), offline: the
// user's opencode.json (in the world's XDG_CONFIG_HOME, out of the
// repository) names a provider on the bundled @ai-sdk/openai-compatible
// whose baseURL is internal/scripted/chatcompletions on 127.0.0.1, and
// every download the binaries would try is turned off. Kilo is a fork of opencode that
// reads the same opencode.json and loads the same plugins, from its own
// folders. Without a binary its scenarios skip, whatever the others do.
const (
	opencodeEnv     = "LUCID_E2E_OPENCODE"
	opencodeVersion = "1.18.33"
	kiloEnv         = "LUCID_E2E_KILO"
	kiloVersion     = "7.7.9"
	// opencodeModel is the model id of the scripted provider: one
	// holding "gpt-" would get apply_patch instead of edit and write.
	opencodeModel = "scripted"
)

var opencodeBinary, kiloBinary clientBinary

// needOpencode skips the test when opencode cannot be had, saying why,
// and returns its binary.
func needOpencode(t *testing.T) string {
	t.Helper()
	return opencodeBinary.need(t, opencodeEnv, "opencode", func(bin string) string {
		return checkVersion(bin, opencodeEnv, "opencode", opencodeVersion)
	})
}

// needKilo skips the test when Kilo Code CLI cannot be had, saying why,
// and returns its binary.
func needKilo(t *testing.T) string {
	t.Helper()
	return kiloBinary.need(t, kiloEnv, "Kilo Code CLI", func(bin string) string {
		return checkVersion(bin, kiloEnv, "Kilo Code CLI", kiloVersion)
	})
}

// checkVersion is "" when bin --version prints version, else why the
// scenarios skip. A scratch HOME and XDG folders: --version must not read
// the user's.
func checkVersion(bin, envName, client, version string) string {
	home, err := os.MkdirTemp("", "lucid-e2e-version")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(home)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), xdgEnviron(home)...)
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	switch got := strings.TrimSpace(lines[len(lines)-1]); {
	case err != nil:
		return fmt.Sprintf("%s=%s does not run (%v): the %s scenarios skip", envName, bin, err, client)
	case got != version:
		return fmt.Sprintf("%s=%s is %s %q, the scenarios are written for %s: they skip", envName, bin, client, got, version)
	}
	return ""
}

// xdgEnviron is HOME and the XDG folders inside home: opencode keeps its
// configuration, sessions (a SQLite database), caches and logs there.
func xdgEnviron(home string) []string {
	return []string{"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
	}
}

// opencodeWorld is opencode (or Kilo) set up offline in an env's
// repository: the provider in opencode.json, the plugin SDK's install
// made a no-op, nothing of the caller's configuration. It sets up no
// plugin: lucid's comes from `lucid init`, a test's own from writePlugin.
type opencodeWorld struct {
	*env
	bin  string
	kilo bool
	// name is "opencode" or "kilo", the binary's and its folders' name.
	name string
	runs int
	// Model is the scripted provider's model opencode runs, opencodeModel
	// unless set.
	Model string
}

// opencodeConfig is the user's opencode.json, with the scripted server's
// URL for its %s: the scripted provider, every permission allowed (opencode
// run rejects what would ask), no updates or sharing. small_model makes
// the title request go to the scripted server too (a side request: it
// has no tools). It is written at each run, for that run's server: Kilo
// 7.7.9 rejects the whole file when a value is "{env:VAR}", which
// opencode would fill in. Out of the repository, it changes nothing
// lucid watches.
const opencodeConfig = `{
  "$schema": "https://opencode.ai/config.json",
  "model": "local/scripted",
  "small_model": "local/scripted",
  "autoupdate": false,
  "share": "disabled",
  "permission": "allow",
  "enabled_providers": ["local"],
  "provider": {
    "local": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Scripted",
      "options": {"baseURL": "%s", "apiKey": "scripted"},
      "models": {
        "scripted": {"name": "Scripted", "tool_call": true, "limit": {"context": 200000, "output": 8000}},
        "gpt-5-scripted": {"name": "Scripted, with apply_patch", "tool_call": true, "limit": {"context": 200000, "output": 8000}}
      }
    }
  }
}
`

// stubPluginSDK makes opencode's start-up install of its plugin SDK
// (package, e.g. @opencode-ai/plugin) in the config folder dir a no-op:
// it skips the install where node_modules/ exists and package-lock.json
// lists the package. Offline, the install would retry for about 72 s on
// every start before the plugins load.
func (w *opencodeWorld) stubPluginSDK(dir, pkg string) {
	if strings.HasPrefix(dir, w.repo) {
		w.write(filepath.Join(dir, ".gitignore"), opencodeGitignore)
	}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		w.t.Fatal(err)
	}
	w.write(filepath.Join(dir, "package-lock.json"),
		`{"lockfileVersion":3,"packages":{"":{"dependencies":{"`+pkg+`":"*"}}}}`+"\n")
}

// withOpencode sets opencode up in e's repository, offline, and commits
// it; lucid may be set up there already or later.
func withOpencode(t *testing.T, e *env) *opencodeWorld {
	t.Helper()
	w := &opencodeWorld{env: e, bin: needOpencode(t), name: "opencode"}
	w.setUp()
	return w
}

// withKilo sets Kilo Code CLI up in e's repository, offline, and commits
// it. It reads the same opencode.json.
func withKilo(t *testing.T, e *env) *opencodeWorld {
	t.Helper()
	w := &opencodeWorld{env: e, bin: needKilo(t), name: "kilo", kilo: true}
	w.setUp()
	return w
}

// opencodeGitignore is the .gitignore opencode writes into a config
// folder where it installs its SDK: written and committed first, the
// work tree stays clean across runs.
const opencodeGitignore = "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n"

func (w *opencodeWorld) setUp() {
	w.t.Helper()
	// opencode installs in both its folders, the user's too (without that
	// stub it went to the registry); Kilo, seen, only in .kilo, where the
	// plugins are: the user's stub is a precaution.
	pkg := "@opencode-ai/plugin"
	if w.kilo {
		pkg = "@kilocode/plugin"
	}
	for _, d := range []string{w.path("." + w.name), filepath.Join(w.home, ".config", w.name)} {
		w.stubPluginSDK(d, pkg)
	}
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", w.name)
}

// newOpencode is a repository with opencode set up and no lucid.
func newOpencode(t *testing.T) *opencodeWorld {
	t.Helper()
	needOpencode(t)
	e := newScratch(t, t.TempDir())
	return withOpencode(t, e)
}

// newKilo is a repository with Kilo Code CLI set up and no lucid.
func newKilo(t *testing.T) *opencodeWorld {
	t.Helper()
	needKilo(t)
	e := newScratch(t, t.TempDir())
	return withKilo(t, e)
}

// pluginDir is the project folder the client loads plugins from.
func (w *opencodeWorld) pluginDir() string {
	if w.kilo {
		return w.path(".kilo/plugins")
	}
	return w.path(".opencode/plugins")
}

// writePlugin writes a plugin the test made into the client's project
// plugin folder, as name.
func (w *opencodeWorld) writePlugin(name, source string) {
	w.t.Helper()
	w.write(filepath.Join(w.pluginDir(), name), source)
}

// opencodeEnviron is the client's environment: lucid's world
// (env.environ), without anything of the caller's that would point it
// elsewhere, HOME and XDG folders in the world, the scripted server's
// URL, and every fetch turned off.
func (w *opencodeWorld) opencodeEnviron(srv *cc.Server, extra ...string) []string {
	out := w.env.clientEnviron(true, func(k string) bool {
		for _, p := range []string{"OPENCODE", "KILO", "XDG_", "OPENAI_", "ANTHROPIC_", "GEMINI_", "CLAUDE", "CODEX_", "COPILOT_", "QWEN_", "BUN_"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		// opencode installs the plugins named by package with npm's
		// installer, configured as npm is: a caller's npm_config_* (npm
		// sets some when it runs a script) would name another registry
		// than the world's ~/.npmrc, and a proxy would take the loopback
		// registry's and model's requests off the machine.
		if l := strings.ToLower(k); strings.HasPrefix(l, "npm_config_") || strings.Contains(l, "proxy") {
			return true
		}
		return k == "NODE_OPTIONS" || k == "AGENT" || k == "PWD"
	})
	out = append(out, xdgEnviron(w.home)...)
	// opencode takes its project from $PWD when it is set, not from the
	// folder it runs in: the test's own would make it work there.
	out = append(out, "PWD="+w.repo, "TERM=dumb")
	for _, p := range []string{"OPENCODE", "KILO"} {
		out = append(out, p+"_DISABLE_AUTOUPDATE=1", p+"_DISABLE_MODELS_FETCH=1", p+"_DISABLE_LSP_DOWNLOAD=1", p+"_DISABLE_SHARE=1")
	}
	out = append(out, "KILO_TELEMETRY_LEVEL=off", "KILO_DISABLE_SESSION_INGEST=1", "KILO_DISABLE_CODEBASE_INDEXING=1")
	return append(out, extra...)
}

// opencodeRun runs `opencode run PROMPT` (or `kilo run`) in the
// repository against srv and waits for it. It may run off the test's
// goroutine: a hang, a non-zero exit, a problem of the server's or a
// connection beyond 127.0.0.1 is its error. Where strace is installed
// the run is traced for its connect(2) calls.
func (w *opencodeWorld) opencodeRun(srv *cc.Server, prompt string, args ...string) (run, error) {
	return w.opencodeRunEnv(srv, prompt, nil, args...)
}

// opencodeRunEnv is opencodeRun with more variables in the client's
// environment (a plugin's, for one).
func (w *opencodeWorld) opencodeRunEnv(srv *cc.Server, prompt string, environ []string, args ...string) (run, error) {
	w.runs++
	root := filepath.Join(filepath.Dir(w.hookLog), fmt.Sprintf("%s-run-%d", w.name, w.runs))
	os.MkdirAll(root, 0o755)
	netLog := filepath.Join(root, "connect.strace")
	model := w.Model
	if model == "" {
		model = opencodeModel
	}
	argv := append([]string{"run", "--print-logs", "--log-level", "INFO", "--model", "local/" + model}, args...)
	argv = append(argv, prompt)
	bin := w.bin
	traced := straceWorks()
	if traced {
		argv = append([]string{"-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-e", "signal=none", "-o", netLog, bin}, argv...)
		bin = "strace"
	}
	cfg := filepath.Join(w.home, ".config", w.name, "opencode.json")
	if err := writeAtomic(cfg, fmt.Sprintf(opencodeConfig, srv.URL)); err != nil {
		return run{}, err
	}
	res, err := runClient(srv, runTimeout, w.repo, w.opencodeEnviron(srv, environ...), bin, argv...)
	w.t.Logf("%s run ran %s, exit %d, %d requests", w.name, res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	w.dumpOpencode(srv, res, netLog)
	switch {
	case err != nil:
		return res, fmt.Errorf("%s run: %v\nrequests:\n%s\nstderr:\n%s", w.name, err, srv.Dump(), clip(res.stderr, 4000))
	case res.code != 0:
		return res, fmt.Errorf("%s run exited %d\nrequests:\n%s\nstderr:\n%s", w.name, res.code, srv.Dump(), clip(res.stderr, 4000))
	}
	if p := srv.Problems(); len(p) > 0 {
		return res, fmt.Errorf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000))
	}
	if traced {
		if away := straceOffHost(netLog); len(away) > 0 {
			return res, fmt.Errorf("%s reached beyond 127.0.0.1:\n%s", w.name, strings.Join(away, "\n"))
		}
	}
	return res, nil
}

// opencode is opencodeRun on the test's goroutine: any trouble fails the
// test.
func (w *opencodeWorld) opencode(srv *cc.Server, prompt string, args ...string) run {
	w.t.Helper()
	res, err := w.opencodeRun(srv, prompt, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// dumpOpencode writes every request body, the run's output, lucid's calls
// and the connections into $LUCID_E2E_DUMP/<test>/.
func (w *opencodeWorld) dumpOpencode(srv *cc.Server, res run, netLog string) {
	dir := dumpDir(w.t)
	if dir == "" {
		return
	}
	for _, r := range srv.Requests() {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s-%s.json", r.Seq, r.Method, pathName.Replace(r.Path))), r.Body, 0o644)
	}
	n := fmt.Sprintf("%s-%d-", w.name, w.runs)
	dumpFiles(dir, map[string]string{n + "stdout.txt": res.stdout, n + "stderr.txt": res.stderr, "requests.txt": srv.Dump()},
		map[string]string{"calls.jsonl": w.hookLog, n + "connect.strace": netLog})
}

var straceOK = sync.OnceValue(func() bool {
	return exec.Command("strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-o", os.DevNull, "true").Run() == nil
})

// straceWorks says whether strace can trace the client's connections
// here (installed, and ptrace allowed).
func straceWorks() bool { return straceOK() }

// straceHost is the address of an AF_INET or AF_INET6 connect(2) in a
// line of strace's, "" when the line holds none. (No regexp: this test
// binary also runs as lucid's shim, at every hook.)
func straceHost(line string) string {
	for _, open := range []string{`inet_addr("`, `inet_pton(AF_INET6, "`} {
		if _, rest, ok := strings.Cut(line, open); ok {
			host, _, _ := strings.Cut(rest, `"`)
			return host
		}
	}
	return ""
}

// straceOffHost lists the connect(2) calls strace logged in path to
// anything but the loopback (local sockets are not connections).
func straceOffHost(path string) []string {
	b, _ := os.ReadFile(path)
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(line, "connect(") || strings.Contains(line, "AF_UNIX") {
			continue
		}
		switch straceHost(line) {
		case "127.0.0.1", "::1", "::ffff:127.0.0.1":
			continue
		}
		out = append(out, line)
	}
	return out
}

// writeAtomic writes content to path through a temporary file and a
// rename: a client starting meanwhile reads the old file or the new.
func writeAtomic(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
