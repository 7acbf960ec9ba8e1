package e2e

// The Copilot scenarios: the real `copilot` binary with lucid's own hook
// file (.github/hooks/lucid.json, `lucid hook --client copilot EVENT`),
// beside the real `claude` where a scenario has both, in one repository,
// against the scripted models.

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// A new Copilot session's first request carries the digest once, with
// what is in the log; a tool call with nothing new adds no lucid text; the
// folder was trusted by lucid init --trust-copilot alone (no
// --trust-folder, no COPILOT_ALLOW_ALL), or no hook would have run.
func TestCopilotDigestThenNothingNew(t *testing.T) {
	w := newCopilotLucid(t, false)
	w.run("lucid", "decision", "parse with the new API")
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.Bash("echo hi"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Say hi.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	first := copilotContexts(reqs[0])
	if countIn(first, digestHeader) != 1 || countIn(first, "parse with the new API") != 1 || !strings.HasPrefix(first[0], "sessionStart: "+digestHeader) {
		t.Fatalf("the first request does not carry the digest once, at sessionStart, with the decision:\n%s", strings.Join(first, "\n---\n"))
	}
	if n0, n1 := len(first), len(copilotContexts(reqs[1])); n1 != n0 {
		t.Errorf("the tool call with nothing new added hook context: %d before, %d after\n%s", n0, n1, strings.Join(copilotContexts(reqs[1]), "\n---\n"))
	}
}

// A Claude Code lead claims src/** and records a fact while a Copilot
// agent works: the Copilot agent's bash sed on src/auth.go, its create of
// a file in src/ and its edit of src/auth.go are denied, each with lucid's
// reason in the tool result the model reads next, and src/ stays as it
// was; the lead's fact reaches the Copilot model exactly once, after its
// next write that goes through; the Copilot agent's own fact reaches the
// lead.
func TestCopilotDeniedOnClaudeClaim(t *testing.T) {
	w := newCopilotLucid(t, true)
	const claudeFact, copilotFact = "claude: auth uses bcrypt", "copilot: docs are in docs/"
	copilotDone := make(chan struct{})
	auth := w.path("src/auth.go")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		func(r *cc.ChatRequest) cc.Reply {
			waitFor(func() bool { return w.logHas(claudeFact) })
			return cc.Reply{Calls: []cc.Call{{Name: "bash", Args: map[string]any{"command": "sed -i s/Login/LogIn/ src/auth.go", "description": "rename", "mode": "sync"}}}}
		},
		cc.Create(w.path("src/new.go"), "package auth\n"),
		cc.Edit(auth, "Login returns nil", "Login fails"),
		cc.Create(w.path("notes.md"), "notes\n"),
		cc.Bash("lucid fact '" + copilotFact + "'"),
		cc.Say("Copilot done."),
	}}
	cpsrv := cc.New(lead)
	defer cpsrv.Close()
	claudeLead := &api.Script{Name: "lead", Marker: "[[claude-lead]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			// The Copilot session has started (and had its digest) first.
			waitFor(func() bool { return len(cpsrv.Conversation("lead")) > 0 })
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{
				"command": "lucid claim 'src/**' --for 'rework auth' && lucid fact '" + claudeFact + "'", "description": "claim"}}}}
		},
		func(*api.MessagesRequest) api.Reply {
			select { // keep the turn open, and with it the claim, while Copilot works
			case <-copilotDone:
			case <-time.After(4 * time.Minute):
			}
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo reading", "description": "read"}}}}
		},
		api.Say("Claude done."),
	}}
	csrv := api.New(claudeLead)
	defer csrv.Close()
	claudeErr := make(chan error, 1)
	go func() {
		_, err := w.claudeRun(csrv, "[[claude-lead]] Claim the auth code.")
		claudeErr <- err
	}()

	res, err := w.copilotRun(cpsrv, "[[copilot-lead]] Edit the auth code.")
	close(copilotDone)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-claudeErr; err != nil {
		t.Fatal(err)
	}
	reqs := cpsrv.Conversation("lead")
	if len(reqs) != 6 {
		t.Fatalf("want 6 Copilot requests, got %d (exit %d)\n%s", len(reqs), res.code, cpsrv.Dump())
	}
	for i, tool := range []string{"bash", "create", "edit"} {
		m, ok := reqs[i+1].Chat.LastToolResult()
		if !ok || !strings.Contains(m.Text(), `Denied by preToolUse hook: lucid: src/`) || !strings.Contains(m.Text(), `is claimed by lead·`) {
			t.Errorf("%s on the claim: the model read %q", tool, m.Text())
		}
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
	if _, err := os.Stat(w.path("src/new.go")); !os.IsNotExist(err) {
		t.Errorf("src/new.go was created under the claim (%v)", err)
	}
	if w.read("notes.md") != "notes\n" {
		t.Error("the write outside the claim did not go through")
	}
	last := copilotContexts(reqs[len(reqs)-1])
	if n := countIn(last, claudeFact); n != 1 {
		t.Errorf("the lead's fact reached the Copilot model %d times, want once:\n%s", n, strings.Join(last, "\n---\n"))
	}
	if n := countIn(copilotContexts(reqs[4]), claudeFact); n != 1 {
		t.Errorf("the lead's fact did not come with the write that went through:\n%s", strings.Join(copilotContexts(reqs[4]), "\n---\n"))
	}
	var signed bool
	for _, e := range w.log() {
		if e.Text == copilotFact && e.Agent != "" && e.Agent != "human" {
			signed = true
		}
	}
	if !signed {
		t.Errorf("the Copilot agent's fact is not signed with its id:\n%s", w.run("lucid", "log", "--all"))
	}
	if n := strings.Count(lastClaudeText(csrv), copilotFact); n != 1 {
		t.Errorf("the Copilot agent's fact reached the Claude lead %d times, want once", n)
	}
}

// Copilot says nothing of what a shell command wrote: a script that
// appends to another agent's claimed file, through a path the guard cannot
// read, is caught after the fact by lucid's own watch of the claimed
// files, recorded as the Copilot agent's violation and told to its model.
func TestCopilotScriptCaughtAfterTheFact(t *testing.T) {
	w := newCopilotLucid(t, false)
	w.claimAs(otherAgent, "src/**", "rewrite auth")
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.Bash(`python3 -c "p='src'+'/auth.go'; open(p,'a').write('// appended\n')"`),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Run the generator.")
	reqs := srv.Conversation("lead")
	if len(reqs) < 2 {
		t.Fatalf("want 2 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if !strings.Contains(w.read("src/auth.go"), "// appended") {
		t.Fatalf("the script did not run:\n%s", srv.Dump())
	}
	if after := copilotContexts(reqs[1]); countIn(after, "your command changed src/auth.go") != 1 {
		t.Errorf("the model was not told of its violation once:\n%s", strings.Join(after, "\n---\n"))
	}
	found := false
	for _, en := range w.log() {
		found = found || en.Kind == "violation" && strings.Contains(en.Text, "src/auth.go") && en.Agent != "" && en.Agent != "human"
	}
	if !found {
		t.Errorf("no violation by the Copilot agent was recorded: %+v", w.log())
	}
}

// logHas reports whether an entry of the log holds text.
func (w *copilotWorld) logHas(text string) bool {
	out, err := w.output("lucid", "log", "--json")
	return err == nil && strings.Contains(out, text)
}

// A GPT-5 model's apply_patch (Copilot offers it instead of create and
// edit) is denied on a claimed file, a malformed patch too, with lucid's
// reason; a patch of other files goes through.
func TestCopilotApplyPatchDenied(t *testing.T) {
	w := newCopilotLucid(t, false)
	w.model = "gpt-5.4"
	w.claimAs(otherAgent, "src/**", "rework auth")
	auth := w.path("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.ApplyPatch("*** Begin Patch\n*** Update File: " + auth + "\n@@\n-// Login returns nil when the password matches.\n+// Login checks.\n*** End Patch\n"),
		cc.ApplyPatch("*** Begin Patch\n*** Add File: " + w.path("notes.md") + "\n+notes\n*** Update File: " + auth + "\n@@ garbage"),
		cc.ApplyPatch("*** Begin Patch\n*** Add File: " + w.path("notes.md") + "\n+notes\n*** End Patch\n"),
		cc.Bash("lucid note 'wrote notes.md'"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Patch the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 5 {
		t.Fatalf("want 5 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if !slices.Contains(reqs[0].Chat.ToolNames(), "apply_patch") {
		t.Fatalf("%s was not offered apply_patch: %v", w.model, reqs[0].Chat.ToolNames())
	}
	for i := 1; i <= 2; i++ {
		m, _ := reqs[i].Chat.LastToolResult()
		if !strings.Contains(m.Text(), "Denied by preToolUse hook: lucid: src/auth.go is claimed") {
			t.Errorf("patch %d on the claim: the model read %q", i, m.Text())
		}
	}
	if !strings.Contains(w.read("src/auth.go"), "// Login returns nil when the password matches.") {
		t.Error("src/auth.go changed under the claim")
	}
	if w.read("notes.md") != "notes\n" {
		t.Error("the patch outside the claim did not go through")
	}
}

// After Copilot compacts the lead's conversation (it starts no session
// then), the lead's next write brings the digest back, once.
func TestCopilotDigestAfterCompaction(t *testing.T) {
	w := newCopilotLucid(t, false)
	w.run("lucid", "decision", "parse with the new API")
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		func(*cc.ChatRequest) cc.Reply {
			return cc.Reply{Calls: []cc.Call{{Name: "bash", Args: map[string]any{"command": "echo big", "description": "big", "mode": "sync"}}}, Usage: 29500}
		},
		cc.Bash("echo after"),
		cc.Create(w.path("x.md"), "x\n"),
		cc.Bash("lucid note 'wrote x.md'"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Work long.")
	reqs := srv.Conversation("lead")
	var compacted bool
	for _, r := range srv.Requests() {
		compacted = compacted || r.Side && strings.Contains(r.Chat.AllText(), "summary")
	}
	if !compacted || len(w.copilotHookCalls("preCompact")) == 0 {
		t.Fatalf("Copilot did not compact (a summary request %v, preCompact calls %d):\n%s", compacted, len(w.copilotHookCalls("preCompact")), srv.Dump())
	}
	after := copilotContexts(reqs[2])
	if countIn(after, "postToolUse: "+digestHeader) != 1 {
		t.Errorf("the first write after the compaction did not bring the digest back:\n%s", strings.Join(after, "\n---\n"))
	}
	last := reqs[len(reqs)-1].Chat.AllText()
	if n := strings.Count(last, digestHeader); n != 1 {
		t.Errorf("after the compaction the lead's history holds the digest %d times, want once\n%s", n, srv.Dump())
	}
}

// lastClaudeText is everything the Claude lead's last request showed it.
func lastClaudeText(srv *api.Server) string {
	reqs := srv.Conversation("lead")
	if len(reqs) == 0 {
		return ""
	}
	b, _ := json.Marshal(reqs[len(reqs)-1].Messages.Messages)
	return string(b)
}

// A subagent (the task tool) is its own agent in the lead's session: the
// digest reaches its prompt at subagentStart; its fact and its claim are
// signed with its own id, not the lead's; its claims end when it stops;
// what it recorded reaches the lead as it hands back.
func TestCopilotSubagentIdentity(t *testing.T) {
	w := newCopilotLucid(t, false)
	const subFact, leadFact = "sub: the parser is in src/", "lead: merged the work of the sub"
	var subClaims []claimJSON
	sub := &cc.Script{Name: "sub", Marker: "[[copilot-sub]]", Steps: []cc.Step{
		cc.Bash("lucid claim 'sub.md' --for 'sub work' && lucid fact '" + subFact + "'"),
		func(*cc.ChatRequest) cc.Reply {
			subClaims = w.claims()
			return cc.Reply{Calls: []cc.Call{{Name: "create", Args: map[string]any{"path": w.path("sub.md"), "file_text": "sub\n"}}}}
		},
		cc.Say("Sub done."),
	}}
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.Task("general-purpose", "[[copilot-sub]] Write sub.md."),
		cc.Bash("lucid fact '" + leadFact + "'"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead, sub)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Have a subagent write the docs.")
	subReqs, leadReqs := srv.Conversation("sub"), srv.Conversation("lead")
	if len(subReqs) != 3 || len(leadReqs) != 3 {
		t.Fatalf("want 3 requests of each, got sub %d, lead %d\n%s", len(subReqs), len(leadReqs), srv.Dump())
	}
	if !strings.Contains(subReqs[0].Chat.AllText(), digestHeader) {
		t.Errorf("the subagent's first request has no digest:\n%s", clip(subReqs[0].Chat.AllText(), 3000))
	}
	agents := map[string]string{}
	for _, e := range w.log() {
		agents[e.Text] = e.Agent
	}
	session, subAgent := agents[leadFact], agents[subFact]
	if session == "" || subAgent == "" || !strings.HasPrefix(subAgent, session+"/") {
		t.Errorf("the lead signs as %q, its subagent as %q: want the subagent as SESSION/AGENT of the lead's session", session, subAgent)
	}
	if len(subClaims) != 1 || subClaims[0].Owner != subAgent {
		t.Errorf("the subagent's claim is not its own: %+v (its id %q)", subClaims, subAgent)
	}
	if cl := w.claims(); len(cl) != 0 {
		t.Errorf("claims left after the subagent stopped: %+v", cl)
	}
	if n := strings.Count(leadReqs[1].Chat.AllText(), subFact); n != 1 {
		t.Errorf("the subagent's fact reached the lead %d times as it handed back, want once", n)
	}
}

// An agent that edited and recorded nothing is asked once, at the end of
// its turn (agentStop's block is one more turn); then it stops, and its
// claims end.
func TestCopilotStopGateAsksOnce(t *testing.T) {
	w := newCopilotLucid(t, false)
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.Bash("lucid claim x.md --for 'write x'"),
		cc.Create(w.path("x.md"), "x\n"),
		cc.Say("Done."),
		cc.Say("Done, nothing to record."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Write x.md.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 requests (the gate asks once), got %d\n%s", len(reqs), srv.Dump())
	}
	if !strings.Contains(reqs[3].Chat.LastUserText(), "Before you stop: you edited files but recorded nothing") {
		t.Errorf("the last request is not the stop gate's question:\n%s", reqs[3].Chat.LastUserText())
	}
	if cl := w.claims(); len(cl) != 0 {
		t.Errorf("claims left after the turn ended: %+v", cl)
	}
}

// filesOf is every file of dir but .git/ and .lucid/ with its bytes.
func filesOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() {
			if rel == ".git" || rel == ".lucid" {
				return filepath.SkipDir
			}
			out[rel+"/"] = ""
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	return out
}

// lucid uninstall, after Copilot ran with lucid's hooks, leaves the work
// tree as it was before lucid init (its own .lucid/ aside), byte for byte,
// and takes out of Copilot's config.json the trust it added and nothing
// else (Copilot rewrites that file itself at its first start).
func TestCopilotUninstallByteExact(t *testing.T) {
	needCopilot(t)
	e := newScratch(t, t.TempDir())
	e.run("git", "add", "-A")
	e.run("git", "commit", "-qm", "scratch")
	before := filesOf(t, e.repo)
	cfg := filepath.Join(e.home, ".copilot", "config.json")
	e.write(cfg, "// mine\n{\n  \"trustedFolders\": [\n    \"/elsewhere\"\n  ]\n}\n")
	w := &copilotWorld{env: e, bin: copilotBinary.bin, home: filepath.Join(e.home, ".copilot"), logDir: filepath.Join(t.TempDir(), "logs")}
	w.initCopilot()
	lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
		cc.Create(w.path("x.md"), "x\n"),
		cc.Bash("lucid note 'wrote x.md'"),
		cc.Say("Done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.copilot(srv, "[[copilot-lead]] Write x.md.")
	if len(w.copilotHookCalls("preToolUse")) == 0 {
		t.Fatalf("lucid's hooks did not run: the folder is not trusted?\n%s", strings.Join(w.hookLines(), "\n"))
	}
	os.Remove(w.path("x.md"))
	ran, _ := os.ReadFile(cfg)
	out := w.run("lucid", "uninstall")
	if got := filesOf(t, e.repo); !maps.Equal(got, before) {
		t.Errorf("the tree after uninstall differs from before init:\n got %v\nwant %v\n%s", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(before)), out)
	}
	after, _ := os.ReadFile(cfg)
	var ranJSON, afterJSON map[string]any
	json.Unmarshal(uncommented(ran), &ranJSON)
	json.Unmarshal(uncommented(after), &afterJSON)
	folders, _ := ranJSON["trustedFolders"].([]any)
	ranJSON["trustedFolders"] = slices.DeleteFunc(slices.Clone(folders), func(v any) bool { return v == e.repo })
	b1, _ := json.Marshal(ranJSON)
	if b2, _ := json.Marshal(afterJSON); string(b1) != string(b2) {
		t.Errorf("uninstall changed more of config.json than lucid's trust:\nafter copilot ran:\n%s\nafter uninstall:\n%s", ran, after)
	}
	if strings.Count(string(ran), e.repo) != 1 || strings.Contains(string(after), e.repo) {
		t.Errorf("the trust lucid wrote:\nafter copilot ran:\n%s\nafter uninstall:\n%s", ran, after)
	}
}

// uncommented drops the // lines Copilot writes at the top of its
// config.json.
func uncommented(b []byte) []byte {
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			out = append(out, line)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// Copilot runs the hooks of the repository's .claude/settings.json too. In
// a repository set up for Claude Code and for Copilot, lucid's Claude Code
// entry stands aside under Copilot: every event is handled once (the
// digest comes once), and a claim's deny comes once. In one set up for
// Claude Code alone, the Claude Code entry serves Copilot: the digest, and
// the deny.
func TestCopilotClaudeEntryNotTwice(t *testing.T) {
	for _, both := range []bool{true, false} {
		name := "claude and copilot"
		if !both {
			name = "claude alone"
		}
		t.Run(name, func(t *testing.T) {
			w := newCopilotLucid(t, true)
			if !both {
				os.Remove(w.path(".github/hooks/lucid.json")) // the trust stays
			}
			w.claimAs(otherAgent, "src/**", "rework auth")
			lead := &cc.Script{Name: "lead", Marker: "[[copilot-lead]]", Steps: []cc.Step{
				cc.Bash("sed -i s/Login/LogIn/ src/auth.go"),
				cc.Create(w.path("src/new.go"), "package auth\n"),
				cc.Create(w.path("notes.md"), "notes\n"),
				cc.Bash("lucid note 'wrote notes.md'"),
				cc.Say("Done."),
			}}
			srv := cc.New(lead)
			defer srv.Close()
			w.copilot(srv, "[[copilot-lead]] Rename Login.")
			reqs := srv.Conversation("lead")
			if len(reqs) != 5 {
				t.Fatalf("want 5 requests, got %d\n%s", len(reqs), srv.Dump())
			}
			if n := countIn(copilotContexts(reqs[0]), digestHeader); n != 1 {
				t.Errorf("the digest came %d times, want once:\n%s", n, strings.Join(copilotContexts(reqs[0]), "\n---\n"))
			}
			for i, file := range []string{"src/auth.go", "src/new.go"} {
				m, _ := reqs[i+1].Chat.LastToolResult()
				if n := strings.Count(m.Text(), "is claimed by"); n != 1 || !strings.Contains(m.Text(), "Denied by preToolUse hook: lucid: "+file+" is claimed") {
					t.Errorf("the deny the model read (%d times lucid's reason): %q", n, m.Text())
				}
			}
			if !strings.Contains(w.read("src/auth.go"), "func Login(") {
				t.Error("src/auth.go changed under the claim")
			}
			if _, err := os.Stat(w.path("src/new.go")); !os.IsNotExist(err) {
				t.Errorf("src/new.go was created under the claim (%v)", err)
			}
			served := map[bool]int{}
			for _, c := range w.calls() {
				if len(c.Args) >= 2 && c.Args[0] == "hook" && c.Stdout != "" {
					served[len(c.Args) == 2]++ // the Claude Code entry's calls are `lucid hook EVENT`
				}
			}
			if both && (served[true] != 0 || served[false] == 0) || !both && (served[true] == 0 || served[false] != 0) {
				t.Errorf("hooks that answered: %d of the Claude Code entry, %d of the Copilot entry\n%s", served[true], served[false], w.callsText())
			}
		})
	}
}
