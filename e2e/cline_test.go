package e2e

// The Cline scenarios: the real Cline CLI (3.0.65, a Bun binary run by
// its npm wrapper) with lucid's hook files (.clinerules/hooks/, `lucid
// hook --client cline EVENT`), one-shot in act mode, against the scripted
// Chat Completions model on 127.0.0.1.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// The Cline scenarios run the binary named by LUCID_E2E_CLINE (`make e2e`
// installs it with scripts/install-cline and sets it). Without it they
// skip, whatever the other clients' scenarios do.
const (
	clineEnv     = "LUCID_E2E_CLINE"
	clineVersion = "3.0.65"
)

var clineBinary clientBinary

// needCline skips the test when Cline cannot be had, saying why. Its
// version is read from the package beside the wrapper: `cline --version`
// takes about 9 s.
func needCline(t *testing.T) string {
	t.Helper()
	return clineBinary.need(t, clineEnv, "Cline", func(bin string) string {
		pkg := filepath.Join(filepath.Dir(filepath.Dir(bin)), "cline", "package.json")
		b, err := os.ReadFile(pkg)
		switch {
		case err != nil:
			return fmt.Sprintf("%s=%s has no %s (%v): the Cline scenarios skip", clineEnv, bin, pkg, err)
		case !strings.Contains(string(b), `"version": "`+clineVersion+`"`):
			return fmt.Sprintf("%s=%s is not Cline %s: the Cline scenarios skip", clineEnv, bin, clineVersion)
		}
		return ""
	})
}

// clineWorld is Cline set up in an env's repository: lucid's hook files
// as `lucid init --client cline` writes them, committed, and Cline's
// settings in the env's HOME (the scripted server as its
// openai-compatible provider, telemetry and updates off).
type clineWorld struct {
	*env
	bin string
}

func newClineLucid(t *testing.T) *clineWorld {
	t.Helper()
	bin := needCline(t)
	e := newScratch(t, t.TempDir())
	e.write(e.path("notes.txt"), "line one\nline two\n")
	e.run("lucid", "init", "--client", "cline")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "cline")
	return &clineWorld{env: e, bin: bin}
}

// clineRun runs `cline PROMPT` in the repository against srv, with PATH
// as given ("" for lucid's world, its shim first), and waits for it.
func (w *clineWorld) clineRun(t *testing.T, srv *cc.Server, prompt, path string) run {
	t.Helper()
	settings := filepath.Join(w.home, ".cline", "data", "settings")
	w.write(filepath.Join(settings, "providers.json"), `{"version":1,"lastUsedProvider":"openai-compatible","modes":{},"providers":{"openai-compatible":{"settings":{"provider":"openai-compatible","apiKey":"x","model":"scripted-model","baseUrl":"`+srv.URL+`"},"updatedAt":"2026-01-01T00:00:00.000Z","tokenSource":"manual"}}}`)
	w.write(filepath.Join(settings, "global-settings.json"), `{"telemetryOptOut":true,"autoUpdateEnabled":false}`)
	environ := w.env.clientEnviron(true, func(k string) bool {
		return strings.HasPrefix(k, "CLINE_") || strings.HasPrefix(k, "OPENAI_") || k == "NODE_OPTIONS" || (path != "" && k == "PATH")
	})
	if path != "" {
		environ = append(environ, "PATH="+path)
	}
	// local: no hub daemon outliving the test, whose hooks would keep the
	// environment of the first run.
	environ = append(environ, "CLINE_SESSION_BACKEND_MODE=local", "TERM=dumb")
	res, err := runClient(srv, runTimeout, w.repo, environ, w.bin, prompt)
	t.Logf("cline ran %s, exit %d, %d requests", res.took.Round(time.Millisecond), res.code, len(srv.Requests()))
	if err != nil || res.code != 0 {
		t.Fatalf("cline: %v, exit %d\nrequests:\n%s\nstdout:\n%s\nstderr:\n%s", err, res.code, srv.Dump(), clip(res.stdout, 4000), clip(res.stderr, 4000))
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Fatalf("the scripted server could not follow its scripts:\n%s\nrequests:\n%s", strings.Join(p, "\n"), srv.Dump())
	}
	return res
}

var clineContext = regexp.MustCompile(`(?s)<hook_context source="(\w+)"[^>]*>\n(.*?)\n</hook_context>`)

// clineContexts are the hook contexts in a request, "SOURCE: TEXT".
func clineContexts(r *cc.Request) []string {
	var out []string
	for _, text := range r.Chat.Texts("user") {
		for _, m := range clineContext.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1]+": "+m[2])
		}
	}
	return out
}

// toolResults are the tool results in a request.
func toolResults(r *cc.Request) []string { return r.Chat.Texts("tool") }

// The digest reaches the Cline model once, with the first tool call's
// result (TaskStart's output is never read), and with what is in the log.
func TestClineDigest(t *testing.T) {
	w := newClineLucid(t)
	w.run("lucid", "decision", "parse with the new API")
	lead := &cc.Script{Name: "lead", Marker: "[[cline-lead]]", Steps: []cc.Step{
		cc.CallTool("read_files", map[string]any{"files": []map[string]any{{"path": "notes.txt"}}}),
		cc.CallTool("read_files", map[string]any{"files": []map[string]any{{"path": "notes.txt"}}}),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.clineRun(t, srv, "[[cline-lead]] Read the notes.", "")
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	got := clineContexts(reqs[2])
	if countIn(got, digestHeader) != 1 || countIn(got, "parse with the new API") != 1 {
		t.Fatalf("the model was not shown the digest once, with the decision:\n%s", strings.Join(got, "\n---\n"))
	}
}

// Another agent claims src/**: the Cline agent's editor create in src/,
// its editor replace of src/auth.go and its shell append to src/auth.go
// are each refused without ending the task (the run goes on to its last
// step), each tool result failed and the reason beside it, and src/ stays
// as it was.
func TestClineDeniedOnClaim(t *testing.T) {
	w := newClineLucid(t)
	auth := w.path("src/auth.go")
	w.write(auth, "package auth\n")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "src")
	w.claimAs(otherAgent, "src/**", "rewrite auth")
	lead := &cc.Script{Name: "lead", Marker: "[[cline-lead]]", Steps: []cc.Step{
		cc.CallTool("editor", map[string]any{"path": w.path("src/new.go"), "new_text": "package auth\n"}),
		cc.CallTool("editor", map[string]any{"path": "src/auth.go", "old_text": "package auth", "new_text": "package hacked"}),
		cc.CallTool("run_commands", map[string]any{"commands": []string{"echo '// appended' >> src/auth.go"}}),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.clineRun(t, srv, "[[cline-lead]] Change auth.", "")
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("the task did not go on after the refusals: %d requests\n%s", len(reqs), srv.Dump())
	}
	if b, _ := os.ReadFile(auth); string(b) != "package auth\n" {
		t.Errorf("src/auth.go changed: %q", b)
	}
	if _, err := os.Stat(w.path("src/new.go")); !os.IsNotExist(err) {
		t.Errorf("src/new.go was created (%v)", err)
	}
	results := toolResults(reqs[3])
	contexts := clineContexts(reqs[3])
	if len(results) != 3 {
		t.Fatalf("want 3 tool results, got %q", results)
	}
	for i, r := range results {
		if !strings.Contains(r, `"success":false`) {
			t.Errorf("tool result %d did not fail: %s", i, r)
		}
	}
	if n := countIn(contexts, "src/"); n < 3 || countIn(contexts, "rewrite auth") < 3 {
		t.Errorf("the model was not told why each call was refused:\n%s", strings.Join(contexts, "\n---\n"))
	}
	if !strings.Contains(results[2], "rewrite auth") {
		t.Errorf("the refused command's output does not say why: %s", results[2])
	}
}

// With lucid missing from PATH, or a lucid that fails with garbage, the
// hook files say nothing and Cline works on: the edit is made and the run
// ends as scripted.
func TestClineWithoutLucid(t *testing.T) {
	w := newClineLucid(t)
	failing := t.TempDir()
	w.write(filepath.Join(failing, "lucid"), "#!/bin/sh\necho 'not json'\necho boom >&2\nexit 3\n")
	os.Chmod(filepath.Join(failing, "lucid"), 0o755)
	system := "/usr/local/bin:/usr/bin:/bin"
	for name, path := range map[string]string{"missing": system, "failing": failing + ":" + system} {
		t.Run(name, func(t *testing.T) {
			file := "made-" + name + ".txt"
			lead := &cc.Script{Name: "lead", Marker: "[[cline-lead]]", Steps: []cc.Step{
				cc.CallTool("editor", map[string]any{"path": file, "new_text": "made\n"}),
				cc.CallTool("run_commands", map[string]any{"commands": []string{"echo ran >> " + file}}),
				cc.Say("Done."),
			}}
			srv := cc.New(lead)
			defer srv.Close()
			w.clineRun(t, srv, "[[cline-lead]] Make the file.", path)
			if n := len(srv.Conversation("lead")); n != 3 {
				t.Errorf("want 3 requests, got %d\n%s", n, srv.Dump())
			}
			if b, _ := os.ReadFile(w.path(file)); string(b) != "made\nran\n" {
				t.Errorf("%s holds %q", file, b)
			}
		})
	}
}

// newClineBesideClaude is a repository with lucid set up for Claude Code
// and Cline both, committed.
func newClineBesideClaude(t *testing.T) *clineWorld {
	t.Helper()
	bin := needCline(t)
	e := newEnv(t)
	e.write(e.path("notes.txt"), "line one\nline two\n")
	e.run("lucid", "init", "--client", "cline")
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "cline")
	return &clineWorld{env: e, bin: bin}
}

// clineAgents are the ids Cline's hooks were called with: the root
// session (the lead), and each sub-agent's agent_id with its parent's.
func (w *clineWorld) clineAgents() (root string, subs map[string]string) {
	subs = map[string]string{}
	for _, c := range w.calls() {
		if len(c.Args) != 4 || c.Args[0] != "hook" || c.Args[2] != "cline" {
			continue
		}
		if s, ok := c.Payload["sessionContext"].(map[string]any); ok && root == "" {
			root, _ = s["rootSessionId"].(string)
		}
		if p := c.str("parent_agent_id"); p != "" {
			subs[c.str("agent_id")] = p
		}
	}
	return root, subs
}

// awaitOther polls cond inside a scripted step until it holds, for one
// agent's model to answer only after another client's agent did
// something; false after three minutes, since Cline alone takes some 10 s
// to its first request on a loaded machine, past waitFor's minute.
func awaitOther(cond func() bool) bool {
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// logHolds reports whether an entry of e's log holds text.
func logHolds(e *env, text string) bool {
	out, err := e.output("lucid", "log", "--json")
	return err == nil && strings.Contains(out, text)
}

// Beside a Claude Code lead at work: another agent's fact, recorded
// after the Cline agent had its digest, reaches the Cline model once,
// with the result of its next tool call, and stays once; the Cline
// agent's own fact, recorded by `lucid fact` in its run_commands, is
// signed with its session and reaches the Claude lead once, at its next
// tool call.
func TestClineFactsMeetClaude(t *testing.T) {
	w := newClineBesideClaude(t)
	const otherFact, clineFact = "cline-e2e: the API keeps v1 routes", "cline-e2e: notes.txt lists two lines"
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		api.Call("Bash", map[string]any{"command": "echo starting", "description": "start"}),
		func(*api.MessagesRequest) api.Reply {
			awaitOther(func() bool { return logHolds(w.env, clineFact) })
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo looking", "description": "look"}}}}
		},
		api.Say("Claude done."),
	}}
	csrv := api.New(claudeLead)
	defer csrv.Close()
	claudeErr := make(chan error, 1)
	go func() {
		_, err := w.claudeRun(csrv, "[[claude-lead]] Look around.")
		claudeErr <- err
	}()
	lead := &cc.Script{Name: "lead", Marker: "[[cline-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			// Once the Claude lead has had its digest, so that the
			// Cline agent's fact reaches it as news.
			awaitOther(func() bool { return len(csrv.Requests()) >= 2 })
			return cc.Reply{Calls: []cc.Call{{Name: "read_files", Args: map[string]any{"files": []map[string]any{{"path": "notes.txt"}}}}}}
		},
		func(*cc.ChatRequest) cc.Reply {
			if _, err := w.lucidAs(otherAgent, "fact", otherFact); err != nil {
				return cc.Reply{Text: err.Error()}
			}
			return cc.Reply{Calls: []cc.Call{{Name: "run_commands", Args: map[string]any{"commands": []string{"lucid fact '" + clineFact + "'"}}}}}
		},
		cc.CallTool("run_commands", map[string]any{"commands": []string{"echo next"}}),
		cc.Say("Cline done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.clineRun(t, srv, "[[cline-lead]] Read the notes.", "")
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 Cline requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if n := countIn(clineContexts(reqs[1]), otherFact); n != 0 {
		t.Fatalf("the fact came before it was recorded: the test is broken")
	}
	if n := countIn(clineContexts(reqs[2]), otherFact); n != 1 {
		t.Errorf("the request after the fact's next tool call carries it %d times, want once:\n%s", n, strings.Join(clineContexts(reqs[2]), "\n---\n"))
	}
	last := strings.Join(reqs[3].Chat.Texts("user"), "\n")
	if n := strings.Count(last, otherFact); n != 1 {
		t.Errorf("the last request holds the other agent's fact %d times, want once:\n%s", n, clip(last, 6000))
	}
	root, _ := w.clineAgents()
	if root == "" {
		t.Fatalf("no hook of Cline's named its session:\n%s", w.callsText())
	}
	var signed bool
	for _, en := range w.log() {
		if en.Text == clineFact {
			signed = en.Agent == root
			if !signed {
				t.Errorf("the Cline agent's fact is signed %q, want its session %q", en.Agent, root)
			}
		}
	}
	if !signed && !t.Failed() {
		t.Fatalf("the Cline agent's fact is not in the log:\n%s", w.callsText())
	}
	if log := w.run("lucid", "log"); !strings.Contains(log, "«"+clineFact+"» (cline·") {
		t.Errorf("lucid log does not label the fact cline·…:\n%s", log)
	}
	claudeReqs := csrv.Conversation("lead")
	final := claudeReqs[len(claudeReqs)-1]
	var heard int
	for _, c := range api.HookContexts(final.Messages.Messages) {
		heard += strings.Count(c.Text, clineFact)
	}
	if heard != 1 {
		t.Errorf("the Claude lead heard the Cline fact %d times, want once\n%s", heard, csrv.Dump())
	}
}

// A sub-agent spawned by spawn_agent is an agent of its own to lucid:
// its hooks come with its agent_id and its parent's, its write takes a
// lease in its own name (root session/agent id), not the lead's, and its
// lucid command is signed with that name.
func TestClineSubagentIdentity(t *testing.T) {
	w := newClineLucid(t)
	var during string
	lead := &cc.Script{Name: "lead", Marker: "[[cline-lead]]", Steps: []cc.Step{
		cc.CallTool("spawn_agent", map[string]any{"systemPrompt": "You are a helper sub-agent.", "task": "[[cline-sub]] Write the docs."}),
		cc.Say("Lead done."),
	}}
	sub := &cc.Script{Name: "sub", Marker: "[[cline-sub]]", Steps: []cc.Step{
		cc.CallTool("editor", map[string]any{"path": w.path("docs/sub.md"), "new_text": "by the sub-agent\n"}),
		func(*cc.ChatRequest) cc.Reply {
			during, _ = w.output("lucid", "claims", "--json")
			return cc.Reply{Calls: []cc.Call{{Name: "run_commands", Args: map[string]any{"commands": []string{"lucid note 'cline-sub: wrote the docs'"}}}}}
		},
		cc.Say("Sub done."),
	}}
	srv := cc.New(lead, sub)
	defer srv.Close()
	w.clineRun(t, srv, "[[cline-lead]] Have a sub-agent write the docs.", "")
	if n := len(srv.Conversation("sub")); n != 3 {
		t.Fatalf("want 3 sub-agent requests, got %d\n%s", n, srv.Dump())
	}
	if w.read("docs/sub.md") != "by the sub-agent\n" {
		t.Errorf("the sub-agent's write did not go through")
	}
	root, subs := w.clineAgents()
	if root == "" || len(subs) != 1 {
		t.Fatalf("want the root session and one sub-agent in Cline's hooks, got %q and %v:\n%s", root, subs, w.callsText())
	}
	var id string
	for a, parent := range subs {
		id = a
		if parent == a || a == "" {
			t.Errorf("the sub-agent %q has parent %q", a, parent)
		}
	}
	owner := root + "/" + id
	if !strings.Contains(during, `"owner": "`+owner+`"`) {
		t.Errorf("while the sub-agent worked, its lease's owner was not %s:\n%s", owner, during)
	}
	var signed bool
	for _, en := range w.log() {
		if en.Text == "cline-sub: wrote the docs" {
			signed = en.Agent == owner
			if !signed {
				t.Errorf("the sub-agent's note is signed %q, want %q", en.Agent, owner)
			}
		}
	}
	if !signed && !t.Failed() {
		t.Errorf("the sub-agent's note is not in the log:\n%s", w.callsText())
	}
}

// lucid uninstall gives .clinerules back byte for byte after the real
// Cline ran with lucid's hook files beside the user's own rules and hook
// file: lucid's files go, the folder it made goes, the user's stay.
func TestClineUninstallByteExact(t *testing.T) {
	bin := needCline(t)
	e := newScratch(t, t.TempDir())
	e.write(e.path(".clinerules/style.md"), "# Style\n\nKeep it short.\n")
	e.write(e.path(".cline/hooks/PostToolUse"), "#!/usr/bin/env bash\ncat >/dev/null\n")
	before := snapshotTree(t, e.path(".clinerules")) + snapshotTree(t, e.path(".cline"))
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "user's rules")
	e.run("lucid", "init", "--client", "cline")
	if _, err := os.Stat(e.path(".clinerules/hooks/PreToolUse")); err != nil {
		t.Fatal(err)
	}
	w := &clineWorld{env: e, bin: bin}
	lead := &cc.Script{Name: "lead", Marker: "[[cline-lead]]", Steps: []cc.Step{
		cc.CallTool("editor", map[string]any{"path": "docs/a.md", "new_text": "a\n"}),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.clineRun(t, srv, "[[cline-lead]] Write it.", "")
	if len(w.calls()) == 0 {
		t.Fatal("Cline ran none of lucid's hook files")
	}
	e.run("lucid", "uninstall")
	if after := snapshotTree(t, e.path(".clinerules")) + snapshotTree(t, e.path(".cline")); after != before {
		t.Errorf("after uninstall:\n%s\nbefore init:\n%s", after, before)
	}
}
