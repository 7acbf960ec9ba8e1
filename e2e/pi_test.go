package e2e

// The Pi scenarios: the real `pi` (@mariozechner/pi-coding-agent 0.73.1,
// run by node) with lucid's own extension (.pi/extensions/lucid.js,
// written by lucid init, handing each call to `lucid hook --client pi
// EVENT`), headless (`pi -p PROMPT`), offline, against the scripted model
// on OpenAI Chat Completions, which Pi's "openai-completions" provider
// speaks.

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

const (
	piEnv     = "LUCID_E2E_PI"
	piVersion = "0.73.1"
)

var piBinary clientBinary

// needPi skips the test when Pi cannot be had, saying why, and returns
// its launcher.
func needPi(t *testing.T) string {
	t.Helper()
	return piBinary.need(t, piEnv, "Pi", piVersionCheck(piEnv, piVersion))
}

// piVersionCheck is need's check of a Pi launcher named by env: it runs
// and is Pi version.
func piVersionCheck(env, version string) func(bin string) string {
	return func(bin string) string {
		// Pi prints its version on stderr; a scratch HOME keeps the
		// user's ~/.pi out of it.
		home, err := os.MkdirTemp("", "lucid-e2e-version")
		if err != nil {
			return err.Error()
		}
		defer os.RemoveAll(home)
		cmd := exec.Command(bin, "--version")
		cmd.Env = append(os.Environ(), "HOME="+home, "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0")
		out, err := cmd.CombinedOutput()
		switch got := strings.TrimSpace(string(out)); {
		case err != nil:
			return fmt.Sprintf("%s=%s does not run (%v): the Pi %s scenarios skip", env, bin, err, version)
		case got != version:
			return fmt.Sprintf("%s=%s is Pi %q, the scenarios are written for %s: they skip", env, bin, got, version)
		}
		return ""
	}
}

// piWorld is Pi set up offline in an env's repository: the scripted
// provider in the scratch HOME's ~/.pi/agent, nothing of the caller's.
type piWorld struct {
	*env
	bin  string
	runs int
}

// piModels is ~/.pi/agent/models.json, with the scripted server's URL
// for its %s; piSettings makes its model the default and turns off
// what would reach the network.
const (
	piModels = `{"providers":{"local":{"baseUrl":"%s","api":"openai-completions","apiKey":"scripted",` +
		`"models":[{"id":"scripted","reasoning":false,"input":["text"],"contextWindow":200000,"maxTokens":8000,` +
		`"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}` + "\n"
	piSettings = `{"defaultProvider":"local","defaultModel":"scripted","quietStartup":true,"enableInstallTelemetry":false}` + "\n"
)

// newPiLucid is a repository with lucid set up for Pi, committed.
func newPiLucid(t *testing.T) *piWorld {
	t.Helper()
	w := &piWorld{env: newScratch(t, t.TempDir()), bin: needPi(t)}
	w.run("lucid", "init", "--client", "pi")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for pi")
	return w
}

// piRun runs `pi -p PROMPT` in the repository against srv, with extra
// variables in Pi's environment, and waits for it; any trouble fails the
// test.
func (w *piWorld) pi(srv *cc.Server, prompt string, extra ...string) run {
	w.t.Helper()
	return w.piArgs(srv, []string{"-p", prompt}, extra...)
}

// piArgs runs pi with args (-p PROMPT among them) as pi does.
func (w *piWorld) piArgs(srv *cc.Server, args []string, extra ...string) run {
	w.t.Helper()
	w.runs++
	if err := writeAtomic(filepath.Join(w.home, ".pi", "agent", "models.json"), fmt.Sprintf(piModels, srv.URL)); err != nil {
		w.t.Fatal(err)
	}
	if err := writeAtomic(filepath.Join(w.home, ".pi", "agent", "settings.json"), piSettings); err != nil {
		w.t.Fatal(err)
	}
	environ := w.env.clientEnviron(true, func(k string) bool {
		for _, p := range []string{"PI_", "OPENAI_", "ANTHROPIC_", "GEMINI_", "CLAUDE", "CODEX_", "OMP"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "NODE_OPTIONS" || k == "AGENT" || k == "PWD"
	})
	environ = append(environ, "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0", "TERM=dumb")
	environ = append(environ, extra...)
	res, err := runClient(srv, runTimeout, w.repo, environ, w.bin, args...)
	w.t.Logf("pi run %d ran %s, exit %d, %d requests", w.runs, res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	if dir := dumpDir(w.t); dir != "" {
		n := fmt.Sprintf("pi-%d-", w.runs)
		dumpFiles(dir, map[string]string{n + "stdout.txt": res.stdout, n + "stderr.txt": res.stderr, "requests.txt": srv.Dump()},
			map[string]string{"calls.jsonl": w.hookLog})
	}
	switch {
	case err != nil:
		w.t.Fatalf("pi -p: %v\nrequests:\n%s\nstderr:\n%s", err, srv.Dump(), clip(res.stderr, 4000))
	case res.code != 0:
		w.t.Fatalf("pi -p exited %d\nrequests:\n%s\nstderr:\n%s", res.code, srv.Dump(), clip(res.stderr, 4000))
	}
	if p := srv.Problems(); len(p) > 0 {
		w.t.Fatalf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000))
	}
	return res
}

// The digest reaches the model at the end of the system prompt of every
// request; another agent claims src/**: Pi's write, edit and a bash
// write there are each blocked before they run, the model reads lucid's
// reason as the tool's result, and the file stays as it was.
func TestPiDigestAndDeny(t *testing.T) {
	w := newPiLucid(t)
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[pi-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"path": "src/auth.go", "content": "package auth\n"}),
		cc.CallTool("edit", map[string]any{"path": "src/auth.go", "edits": []map[string]any{{"oldText": "Login returns nil", "newText": "Login fails"}}}),
		cc.CallTool("bash", map[string]any{"command": "sed -i s/Login/LogIn/ src/auth.go"}),
		cc.Say("Lead done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	res := w.pi(srv, "[[pi-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	for i, r := range reqs {
		if n := strings.Count(r.Chat.SystemText(), digestHeader); n != 1 {
			t.Errorf("request %d holds the digest %d times in its system prompt, want 1", i+1, n)
		}
	}
	for _, i := range []int{1, 2, 3} {
		r, ok := reqs[i].Chat.LastToolResult()
		if reason := r.Text(); !ok || !strings.Contains(reason, "lucid: src/auth.go is claimed by") || !strings.Contains(reason, "for «rework auth»") {
			t.Errorf("request %d: the tool was not blocked with lucid's reason: %q", i+1, reason)
		}
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	if !strings.Contains(res.stdout, "Lead done.") {
		t.Errorf("pi printed %q, not the model's last answer", res.stdout)
	}
}

// Another agent's fact recorded mid-turn reaches the model once, after
// the next tool ran, and stays in what the model reads; the agent's own
// lucid command, run in its bash tool, is signed with its session from
// the shell the extension sets up.
func TestPiFactOnceAndSigned(t *testing.T) {
	w := newPiLucid(t)
	const fact = "pi-e2e: the API keeps v1 routes"
	lead := &cc.Script{Name: "lead", Marker: "[[pi-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			if _, err := w.lucidAs(otherAgent, "fact", fact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			return cc.Reply{Calls: []cc.Call{{Name: "write", Args: map[string]any{"path": "docs/notes.md", "content": "notes\n"}}}}
		},
		cc.CallTool("bash", map[string]any{"command": "lucid fact 'pi learned the notes'"}),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.pi(srv, "[[pi-lead]] Write the notes.")
	reqs := srv.Conversation("lead")
	if len(reqs) < 3 {
		t.Fatalf("want 3 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	last := reqs[len(reqs)-1].Chat
	if n := strings.Count(last.AllText(), fact); n != 1 {
		t.Errorf("the last request holds the fact %d times, want 1:\n%s", n, clip(last.AllText(), 6000))
	}
	if w.read("docs/notes.md") != "notes\n" {
		t.Error("the write outside any claim did not go through")
	}
	out := w.run("lucid", "log", "--json")
	if !strings.Contains(out, "pi learned the notes") {
		t.Fatalf("the agent's fact is not in the log:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `"agent": "`+otherAgent) {
			continue
		}
		if strings.Contains(line, `"agent": ""`) || strings.Contains(line, `"agent": "human`) {
			t.Errorf("an entry is not signed with the Pi agent's session: %s", line)
		}
	}
}

// Without lucid, or with a lucid that fails or answers nonsense, Pi goes
// on: the extension loads, every call fails open, the model's write
// lands and Pi prints its answer.
func TestPiWithoutLucid(t *testing.T) {
	w := newPiLucid(t)
	broken := filepath.Join(w.home, "broken-lucid")
	w.write(broken, "#!/bin/sh\ncat >/dev/null\necho 'not json {'\nexit 3\n")
	os.Chmod(broken, 0o755)
	for i, bin := range []string{filepath.Join(w.home, "no-such-lucid"), broken} {
		file := fmt.Sprintf("docs/out%d.md", i)
		lead := &cc.Script{Name: "lead", Marker: "[[pi-lead]]", Steps: []cc.Step{
			cc.CallTool("write", map[string]any{"path": file, "content": "written\n"}),
			cc.CallTool("bash", map[string]any{"command": "echo more >> " + file}),
			cc.Say("Lead done."),
		}}
		srv := cc.New(lead)
		res := w.pi(srv, "[[pi-lead]] Write it.", "LUCID_PI_BIN="+bin)
		srv.Close()
		if got := w.read(file); got != "written\nmore\n" {
			t.Errorf("LUCID_PI_BIN=%s: %s is %q", bin, file, got)
		}
		if !strings.Contains(res.stdout, "Lead done.") {
			t.Errorf("LUCID_PI_BIN=%s: pi printed %q\nstderr:\n%s", bin, res.stdout, clip(res.stderr, 2000))
		}
	}
}

// lucid uninstall gives the repository back byte for byte: the extension
// and the folders lucid made for it go, Pi's own stay.
func TestPiUninstallByteExact(t *testing.T) {
	needPi(t)
	e := newScratch(t, t.TempDir())
	e.write(e.path(".pi/settings.json"), "{}\n")
	before := snapshotTree(t, e.path(".pi"))
	e.run("lucid", "init", "--client", "pi")
	if _, err := os.Stat(e.path(".pi/extensions/lucid.js")); err != nil {
		t.Fatal(err)
	}
	e.run("lucid", "uninstall")
	if after := snapshotTree(t, e.path(".pi")); after != before {
		t.Errorf(".pi after uninstall:\n%s\nbefore init:\n%s", after, before)
	}
}

// The stop gate: an agent that wrote files and recorded nothing is asked,
// as its last message ends, for what it learned, and Pi -p takes that one
// more turn; then the turn ends and its claims with it.
func TestPiStopGate(t *testing.T) {
	w := newPiLucid(t)
	lead := &cc.Script{Name: "lead", Marker: "[[pi-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"path": "docs/gate.md", "content": "gate\n"}),
		cc.Say("First answer."),
		cc.Say("Second answer."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	res := w.pi(srv, "[[pi-lead]] Write the gate notes.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests (one more turn), got %d\n%s", len(reqs), srv.Dump())
	}
	if got := reqs[2].Chat.LastUserText(); !strings.Contains(got, "lucid") {
		t.Errorf("the extra turn's prompt is not lucid's: %q", got)
	}
	if !strings.Contains(res.stdout, "Second answer.") {
		t.Errorf("pi printed %q, not the extra turn's answer", res.stdout)
	}
	if out := w.run("lucid", "claims"); strings.Contains(out, "docs/gate.md") {
		t.Errorf("the write's lease outlived the session:\n%s", out)
	}
}
