package e2e

// The omp scenarios: the real oh-my-pi (@oh-my-pi/pi-coding-agent
// 18.2.3, run by the Bun that scripts/install-omp puts beside it) with
// lucid's extension (.omp/extensions/lucid.js, or the user's
// ~/.omp/agent/extensions/lucid.js), headless (`omp -p PROMPT`), offline,
// against the scripted model on OpenAI Chat Completions. Every omp tool
// takes an `i` argument (its intent), which the scripted calls give.

import (
	"encoding/json"
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
	ompEnv     = "LUCID_E2E_OMP"
	ompVersion = "omp/18.2.3"
)

var ompBinary clientBinary

// needOmp skips the test when omp cannot be had, saying why, and returns
// its launcher.
func needOmp(t *testing.T) string {
	t.Helper()
	return ompBinary.need(t, ompEnv, "omp", func(bin string) string {
		home, err := os.MkdirTemp("", "lucid-e2e-version")
		if err != nil {
			return err.Error()
		}
		defer os.RemoveAll(home)
		cmd := exec.Command(bin, "--version")
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.CombinedOutput()
		switch got := strings.TrimSpace(string(out)); {
		case err != nil:
			return fmt.Sprintf("%s=%s does not run (%v): the omp scenarios skip", ompEnv, bin, err)
		case got != ompVersion:
			return fmt.Sprintf("%s=%s is %q, the scenarios are written for %s: they skip", ompEnv, bin, got, ompVersion)
		}
		return ""
	})
}

// newOmpLucid is a repository with lucid set up for omp, committed.
func newOmpLucid(t *testing.T) *piWorld {
	t.Helper()
	w := &piWorld{env: newScratch(t, t.TempDir()), bin: needOmp(t)}
	w.run("lucid", "init", "--client", "omp")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for omp")
	return w
}

// ompModels is ~/.omp/agent/models.yml (JSON is YAML), with the scripted
// server's URL for its %s.
const ompModels = `{"providers":{"local":{"baseUrl":"%s","api":"openai-completions","apiKey":"scripted",` +
	`"models":[{"id":"scripted","name":"Scripted","reasoning":false,"input":["text"],"contextWindow":200000,"maxTokens":8000,` +
	`"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}` + "\n"

// omp runs `omp -p PROMPT` in the repository against srv, with extra
// variables in omp's environment, and waits for it; any trouble fails the
// test.
func (w *piWorld) omp(srv *cc.Server, prompt string, extra ...string) run {
	w.t.Helper()
	w.runs++
	if err := writeAtomic(filepath.Join(w.home, ".omp", "agent", "models.yml"), fmt.Sprintf(ompModels, srv.URL)); err != nil {
		w.t.Fatal(err)
	}
	environ := w.env.clientEnviron(true, func(k string) bool {
		for _, p := range []string{"PI_", "OPENAI_", "ANTHROPIC_", "GEMINI_", "CLAUDE", "CODEX_", "OMP", "LICH_"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "NODE_OPTIONS" || k == "AGENT" || k == "PWD"
	})
	environ = append(environ, "TERM=dumb")
	environ = append(environ, extra...)
	res, err := runClient(srv, runTimeout, w.repo, environ, w.bin, "-p", "--model", "local/scripted", prompt)
	w.t.Logf("omp run %d ran %s, exit %d, %d requests", w.runs, res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	if dir := dumpDir(w.t); dir != "" {
		n := fmt.Sprintf("omp-%d-", w.runs)
		dumpFiles(dir, map[string]string{n + "stdout.txt": res.stdout, n + "stderr.txt": res.stderr, "requests.txt": srv.Dump()},
			map[string]string{"calls.jsonl": w.hookLog})
	}
	switch {
	case err != nil:
		w.t.Fatalf("omp -p: %v\nrequests:\n%s\nstderr:\n%s", err, srv.Dump(), clip(res.stderr, 4000))
	case res.code != 0:
		w.t.Fatalf("omp -p exited %d\nrequests:\n%s\nstderr:\n%s", res.code, srv.Dump(), clip(res.stderr, 4000))
	}
	if p := srv.Problems(); len(p) > 0 {
		w.t.Fatalf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s\nstderr:\n%s",
			strings.Join(p, "\n"), srv.Dump(), clip(res.stderr, 4000))
	}
	return res
}

// The digest reaches the model at the end of omp's system prompt; another
// agent claims src/**: omp's write, its edit in its default language
// (hashline: the file named in the patch text, the tag never checked
// since the call never runs) and a bash write there are each blocked
// before they run, the model reads lucid's reason, the file stays as it
// was.
func TestOmpDigestAndDeny(t *testing.T) {
	w := newOmpLucid(t)
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[omp-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"i": "write auth", "path": "src/auth.go", "content": "package auth\n"}),
		cc.CallTool("edit", map[string]any{"i": "edit auth", "input": "*** Begin Patch\n[src/auth.go#1a2b]\nPUT 3.=3:\n+// Login fails.\n*** End Patch\n"}),
		cc.CallTool("bash", map[string]any{"i": "sed auth", "command": "sed -i s/Login/LogIn/ src/auth.go"}),
		cc.Say("Lead done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	res := w.omp(srv, "[[omp-lead]] Edit the auth code.")
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
		t.Errorf("omp printed %q, not the model's last answer", res.stdout)
	}
}

// omp's task tool runs a subagent in the same process, a session of its
// own whose header names the lead's: lucid knows it as the lead's
// subagent. Its write on the claim is denied, and its own lucid command,
// run in its bash tool, is signed lead/child, the lead's as the lead.
func TestOmpSubagent(t *testing.T) {
	w := newOmpLucid(t)
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[omp-lead]]", Steps: []cc.Step{
		cc.CallTool("bash", map[string]any{"i": "note", "command": "lucid fact 'omp lead was here'"}),
		cc.CallTool("task", map[string]any{"i": "delegate", "context": "A scratch repository.",
			"tasks": []map[string]any{{"name": "ChildOne", "task": "[[omp-child]] Change the auth code."}}}),
		cc.CallTool("hub", map[string]any{"i": "wait for the child", "op": "wait", "ids": []string{"ChildOne"}}),
		cc.Say("Lead done."),
	}}
	child := &cc.Script{Name: "child", Marker: "[[omp-child]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"i": "write auth", "path": "src/auth.go", "content": "package auth\n"}),
		cc.CallTool("bash", map[string]any{"i": "note", "command": "lucid fact 'omp child was here'"}),
		cc.CallTool("yield", map[string]any{"data": "child result"}),
		cc.Say("Child done."),
	}}
	srv := cc.New(lead, child)
	defer srv.Close()
	w.omp(srv, "[[omp-lead]] Delegate the auth change.")
	creqs := srv.Conversation("child")
	if len(creqs) < 2 {
		t.Fatalf("the child made %d requests\n%s", len(creqs), srv.Dump())
	}
	if r, ok := creqs[1].Chat.LastToolResult(); !ok || !strings.Contains(r.Text(), "lucid: src/auth.go is claimed by") {
		t.Errorf("the child's write was not blocked with lucid's reason: %q", r.Text())
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	out := w.run("lucid", "log", "--json")
	var entries []struct{ Agent, Text string }
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatalf("lucid log --json: %v\n%s", err, out)
	}
	agentOf := func(fact string) string {
		for _, e := range entries {
			if e.Text == fact {
				return e.Agent
			}
		}
		return ""
	}
	leadID, childID := agentOf("omp lead was here"), agentOf("omp child was here")
	if leadID == "" || childID == "" {
		t.Fatalf("the facts are not in the log, or not signed (lead %q, child %q):\n%s", leadID, childID, out)
	}
	if strings.Contains(leadID, "/") || !strings.HasPrefix(childID, leadID+"/") || childID == leadID+"/" {
		t.Errorf("the child is not known as the lead's subagent: lead %q, child %q", leadID, childID)
	}
}

// The stop gate: omp asks its session_stop handlers, lucid asks the agent
// that wrote and recorded nothing for what it learned, omp takes that one
// more turn; then the claims end.
func TestOmpStopGate(t *testing.T) {
	w := newOmpLucid(t)
	lead := &cc.Script{Name: "lead", Marker: "[[omp-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"i": "notes", "path": "docs/gate.md", "content": "gate\n"}),
		cc.Say("First answer."),
		cc.Say("Second answer."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	res := w.omp(srv, "[[omp-lead]] Write the gate notes.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests (one more turn), got %d\n%s", len(reqs), srv.Dump())
	}
	if got := reqs[2].Chat.LastUserText(); !strings.Contains(got, "lucid") {
		t.Errorf("the extra turn's prompt is not lucid's: %q", got)
	}
	if !strings.Contains(res.stdout, "Second answer.") {
		t.Errorf("omp printed %q, not the extra turn's answer", res.stdout)
	}
	if out := w.run("lucid", "claims"); strings.Contains(out, "docs/gate.md") {
		t.Errorf("the write's lease outlived the session:\n%s", out)
	}
}

// Without lucid, or with a lucid that fails or answers nonsense, omp goes
// on: every call fails open, the model's write lands, omp answers.
func TestOmpWithoutLucid(t *testing.T) {
	w := newOmpLucid(t)
	broken := filepath.Join(w.home, "broken-lucid")
	w.write(broken, "#!/bin/sh\ncat >/dev/null\necho 'not json {'\nexit 3\n")
	os.Chmod(broken, 0o755)
	for i, bin := range []string{filepath.Join(w.home, "no-such-lucid"), broken} {
		file := fmt.Sprintf("docs/out%d.md", i)
		lead := &cc.Script{Name: "lead", Marker: "[[omp-lead]]", Steps: []cc.Step{
			cc.CallTool("write", map[string]any{"i": "write", "path": file, "content": "written\n"}),
			cc.CallTool("bash", map[string]any{"i": "append", "command": "echo more >> " + file}),
			cc.Say("Lead done."),
		}}
		srv := cc.New(lead)
		res := w.omp(srv, "[[omp-lead]] Write it.", "LUCID_PI_BIN="+bin)
		srv.Close()
		if got := w.read(file); got != "written\nmore\n" {
			t.Errorf("LUCID_PI_BIN=%s: %s is %q", bin, file, got)
		}
		if !strings.Contains(res.stdout, "Lead done.") {
			t.Errorf("LUCID_PI_BIN=%s: omp printed %q\nstderr:\n%s", bin, res.stdout, clip(res.stderr, 2000))
		}
	}
}

// lich runs omp sessions in a checkout lucid keeps no state for: lucid's
// user-level extension still hands each write to lucid, whose lich mode
// leaves lich's marker for the session; another lich session's edit of
// the file reads the note with its result.
func TestOmpLich(t *testing.T) {
	needOmp(t)
	w := &piWorld{env: newScratch(t, t.TempDir()), bin: needOmp(t)}
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "no lucid here")
	w.run("lucid", "init", "--user", "--client", "omp")
	for _, s := range []struct{ session, text string }{{"lich-a", "first\n"}, {"lich-b", "second\n"}} {
		lead := &cc.Script{Name: "lead", Marker: "[[omp-lead]]", Steps: []cc.Step{
			cc.CallTool("write", map[string]any{"i": "write", "path": "notes.md", "content": s.text}),
			cc.Say("Lead done."),
		}}
		srv := cc.New(lead)
		w.omp(srv, "[[omp-lead]] Write the notes.", "LICH_SESSION_ID="+s.session)
		srv.Close()
		reqs := srv.Conversation("lead")
		if len(reqs) != 2 {
			t.Fatalf("%s: want 2 requests, got %d\n%s", s.session, len(reqs), srv.Dump())
		}
		r, _ := reqs[1].Chat.LastToolResult()
		note := strings.Contains(r.Text(), "lucid (lich): "+w.path("notes.md")+" was also edited by the lich session lich-a")
		if want := s.session == "lich-b"; note != want {
			t.Errorf("%s: the write's result holds the note: %v, want %v:\n%s", s.session, note, want, r.Text())
		}
		if w.read("notes.md") != s.text {
			t.Errorf("%s: the write did not land", s.session)
		}
		markers, _ := filepath.Glob(filepath.Join(w.repo, ".git", "lich-edits", "*"))
		if len(markers) != 1 {
			t.Fatalf("%s: %d lich markers, want 1", s.session, len(markers))
		}
		b, _ := os.ReadFile(markers[0])
		if !strings.HasPrefix(string(b), `{"path":"`+w.path("notes.md")+`","session":"`+s.session+`","at":`) {
			t.Errorf("%s: the marker is %s", s.session, b)
		}
	}
	if _, err := os.Stat(w.path(".lucid")); err == nil {
		t.Error("lich mode made .lucid/")
	}
}
