package hooks

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// The hooks' decisions, through Run as a client calls it (wholeClient), in
// a real repository set up as `lucid init` sets it up.

// Agents of the tests: a lead, its subagent, and another session.
const (
	lead   = "30df32ba-0d45-4195-af71-803394f51561"
	subID  = "a2adb9a7d441d9c57"
	sub    = lead + "/" + subID
	other  = "0b218250-bcad-4f28-bb25-013e7e946655"
	mateID = "aalpha-29065eaa7bbaa962" // a teammate of an agent team, named alpha
)

// answer is what one hook call printed, and its exit code.
type answer struct {
	out    *client.Output // nil when nothing was printed
	stderr string
	code   int
}

func (a answer) context() string {
	if a.out == nil {
		return ""
	}
	return a.out.Context
}

// do runs one hook call of client c with in as its payload.
func do(t *testing.T, c client.Client, event string, in client.Input) answer {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return callRaw(t, c, event, b)
}

// callRaw runs one hook call with the payload b.
func callRaw(t *testing.T, c client.Client, event string, b []byte) answer {
	t.Helper()
	var stdout, stderr bytes.Buffer
	a := answer{code: Run(c, nil, naming, event, bytes.NewReader(b), &stdout, &stderr), stderr: stderr.String()}
	if stdout.Len() > 0 {
		a.out = &client.Output{}
		if err := json.Unmarshal(stdout.Bytes(), a.out); err != nil {
			t.Fatalf("%s printed %q: %v", event, stdout.String(), err)
		}
	}
	return a
}

// claim makes a claim of owner in the work tree top, as `lucid claim` does.
func claim(t *testing.T, repo *gitstore.Repo, owner, top, task string, globs ...string) {
	t.Helper()
	if _, _, err := claims.Acquire(repo, claims.Request{Owner: owner, Worktree: top, Task: task, Globs: globs, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// record appends an entry of agent to the log, as `lucid fact` does.
func record(t *testing.T, repo *gitstore.Repo, agent, kind, text string) {
	t.Helper()
	if err := logstore.Append(repo.LogPath(), logformat.NewEntry(time.Now(), agent, kind, text)); err != nil {
		t.Fatal(err)
	}
}

// entries are the log's entries of kind.
func entries(t *testing.T, repo *gitstore.Repo, kind string) []logformat.Entry {
	t.Helper()
	var out []logformat.Entry
	if _, err := logstore.Scan(repo.LogPath(), func(e logformat.Entry) bool {
		if e.Kind == kind {
			out = append(out, e)
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// activeGlobs are the globs of the repository's active claims.
func activeGlobs(t *testing.T, repo *gitstore.Repo) string {
	t.Helper()
	set, err := claims.Load(repo, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var globs []string
	for _, c := range set.ActiveClaims() {
		globs = append(globs, c.Globs...)
	}
	return strings.Join(globs, " ")
}

// edit is an edit tool's call of agent (session, agentID) on path.
func edit(session, agentID, cwd string, paths ...string) client.Input {
	return client.Input{SessionID: session, AgentID: agentID, Cwd: cwd, ToolName: "Edit", Tool: client.ToolEdit, Paths: paths}
}

// shell is a shell tool's call.
func bash(session, agentID, cwd, command string) client.Input {
	return client.Input{SessionID: session, AgentID: agentID, Cwd: cwd, ToolName: "Bash", Tool: client.ToolShell, Command: command}
}

// A subagent's claim on src/**: the lead's edits there are denied with a
// reason that names the claim; the subagent's own pass; elsewhere nothing
// is said; the log and lucid's state are nobody's to write.
func TestClaimedPathIsDenied(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	gittest.WriteFile(t, top, "src/a.go", "package src\n")
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: top})
	do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: subID, AgentType: "general-purpose", Cwd: top})
	claim(t, repo, sub, top, "refactor auth", "src/**")

	want := "lucid: src/a.go is claimed by general-purpose·a2adb9 for «refactor auth» (src/**, claimed under a minute ago). " +
		"Do not edit it: wait until it is released, ask for it with `lucid ask " + sub + " --for-claim 'src/**' \"why you need it\"`, or work on other files. " +
		"`lucid claims` lists every claim."
	a := do(t, c, "PreToolUse", edit(lead, "", top, filepath.Join(top, "src/a.go")))
	if a.out == nil || a.out.Deny != want {
		t.Fatalf("the lead's edit of a claimed file:\n got %+v\nwant deny %q", a.out, want)
	}
	if a.out.Context != "" {
		t.Errorf("a denied call carries context: %q", a.out.Context)
	}
	for _, path := range []string{"src/new/b.go", filepath.Join(top, "src/../src/a.go")} {
		if a := do(t, c, "PreToolUse", edit(lead, "", top, path)); a.out == nil || !strings.Contains(a.out.Deny, "is claimed by general-purpose·a2adb9") {
			t.Errorf("edit of %s: %+v, want a denial", path, a.out)
		}
	}
	if a := do(t, c, "PreToolUse", edit(lead, "", top, filepath.Join(top, "README.md"))); a.out != nil {
		t.Errorf("an edit of an unclaimed file: %+v, want nothing printed", a.out)
	}
	if a := do(t, c, "PreToolUse", edit(lead, subID, top, filepath.Join(top, "src/a.go"))); a.out != nil && a.out.Deny != "" {
		t.Errorf("the owner's own edit was denied: %s", a.out.Deny)
	}

	// The log is append-only for everyone, the claim's owner too.
	for _, agentID := range []string{"", subID} {
		a := do(t, c, "PreToolUse", edit(lead, agentID, top, filepath.Join(top, ".lucid/log.jsonl")))
		if a.out == nil || a.out.Deny != appendOnly {
			t.Errorf("edit of the log by %q: %+v", agentID, a.out)
		}
	}
	// lucid's own state is changed by lucid's commands alone.
	a = do(t, c, "PreToolUse", edit(lead, "", top, repo.ClaimsPath()))
	if a.out == nil || !strings.Contains(a.out.Deny, "holds lucid's shared state (claims, agents' records and cursors, the lock)") {
		t.Errorf("edit of the claims store: %+v", a.out)
	}
}

// A shell command is denied for the claimed paths it writes, as the
// analysis reads them; one that only reads them, or writes where it cannot
// be resolved, passes.
func TestShellWriteToClaimedPath(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	gittest.WriteFile(t, top, "src/a.go", "package src\n")
	c := wholeClient{}
	claim(t, repo, sub, top, "refactor auth", "src/**")
	for _, tc := range []struct{ command, deny string }{
		{"echo x > src/b.go", "lucid: src/b.go is claimed by agent·a2adb9"},
		{"cd src && sed -i s/a/b/ a.go", "lucid: src/a.go is claimed"},
		{"rm -rf src", "lucid: src is claimed"},
		{"echo {} >> .lucid/log.jsonl", appendOnly},
		{"cat src/a.go | wc -l > /tmp/count", ""},
		{"echo x > $OUT", ""},
	} {
		a := do(t, c, "PreToolUse", bash(lead, "", top, tc.command))
		deny := ""
		if a.out != nil {
			deny = a.out.Deny
		}
		if tc.deny == "" && deny != "" || !strings.HasPrefix(deny, tc.deny) {
			t.Errorf("%q: denied %q, want %q", tc.command, deny, tc.deny)
		}
	}
}

// The reason says how to reach the claim's owner: an agent of any client,
// a teammate or a subagent's fellow with lucid ask, the command ready to
// run; a person, or another machine's agent, through the user.
func TestDenialSaysHowToAgree(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	claim(t, repo, lead+"/"+mateID, top, "tests", "test/**")
	claim(t, repo, agentstore.AgentHuman, top, "docs", "docs/**")
	claim(t, repo, other, top, "api", "api/**")
	// Another machine's agent reads nothing written here before a merge.
	far := claimstore.Claim{ID: "0Z", Owner: other, Created: time.Now(), Expires: time.Now().Add(time.Hour), Machine: "1a2b3c@laptop", Worktree: "/there", Task: "far", Globs: []string{"far/**"}}
	if err := os.WriteFile(repo.RemoteClaimsPath(), claimstore.Encode([]claimstore.Claim{far}), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		client, agentID, path, want string
	}{
		{"claude", "", "test/a_test.go", `claimed by teammate alpha·29065e for «tests» (test/**, claimed under a minute ago). Do not edit it: wait until it is released (a teammate's claims end when it goes idle), ask for it with ` + "`lucid ask " + lead + "/" + mateID + ` --for-claim 'test/**' "why you need it"` + "`"},
		{"claude", "", "docs/a.md", `claimed by human for «docs» (docs/**, claimed under a minute ago). Do not edit it: ask the user, or work on other files.`},
		{"codex", "", "api/a.go", "Do not edit it: wait until it is released, ask for it with `lucid ask " + other + " --for-claim 'api/**' \"why you need it\"`, or work on other files."},
		{"claude", subID, "api/a.go", `claimed by lead·0b2182 for «api»`},
		{"claude", subID, "api/a.go", "`lucid ask " + other + " --for-claim 'api/**' \"why you need it\"`"},
		{"claude", "", "far/a.go", `claimed by lead·0b2182 on laptop (1a2b3c) for «far» (far/**, claimed under a minute ago). Do not edit it: wait until it expires, ask that agent (through the user), or work on other files.`},
	} {
		a := do(t, wholeClient{name: tc.client}, "PreToolUse", edit(lead, tc.agentID, top, tc.path))
		if a.out == nil || !strings.Contains(a.out.Deny, tc.want) {
			t.Errorf("%s %q edits %s: %+v\nwant a denial with %q", tc.client, tc.agentID, tc.path, a.out, tc.want)
		}
	}
}

// A claim in another work tree of the repository does not stop an edit
// here: it warns of the merge conflict to come.
func TestClaimInAnotherWorktreeWarns(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/a.go", "package src\n")
	gittest.CommitAll(t, repo.Top, "first")
	wt := filepath.Join(filepath.Dir(repo.Top), "wt")
	gittest.Run(t, repo.Top, "worktree", "add", "-q", wt)
	claim(t, repo, sub, repo.Top, "refactor auth", "src/**")
	a := do(t, wholeClient{}, "PreToolUse", edit(other, "", wt, filepath.Join(wt, "src/a.go")))
	if a.out == nil || a.out.Deny != "" {
		t.Fatalf("an edit in another work tree: %+v, want a warning and no denial", a.out)
	}
	want := "lucid: src/a.go is claimed in the work tree " + repo.Top + " by agent·a2adb9 for «refactor auth» (src/**, claimed under a minute ago). Your edit here goes ahead, but a merge conflict may follow when the branches meet."
	if !strings.Contains(a.out.Context, want) {
		t.Errorf("context %q\nwant %q", a.out.Context, want)
	}
}

// After a shell command, a claimed file in its record of changed files is
// a violation: the writer is told, and the log keeps it.
func TestViolationAfterTheCommand(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	claim(t, repo, sub, top, "refactor auth", "src/**")
	in := bash(lead, "", top, "make")
	in.Changed = []string{filepath.Join(top, "src/a.go"), filepath.Join(top, "README.md")}
	a := do(t, wholeClient{}, "PostToolUse", in)
	want := "lucid: your command changed src/a.go, claimed by agent·a2adb9 for «refactor auth» (src/**, claimed under a minute ago). Revert that change, or agree with the owner before you keep it. (Recorded in the log as a violation.)\n"
	if a.context() != want {
		t.Errorf("context %q\nwant %q", a.context(), want)
	}
	v := entries(t, repo, logformat.KindViolation)
	if len(v) != 1 || v[0].Agent != lead || !strings.HasPrefix(v[0].Text, "changed src/a.go, claimed by agent·a2adb9") || strings.Contains(v[0].Text, "README") {
		t.Errorf("violations in the log: %+v", v)
	}
	// The edits count for the stop gate.
	if rec, _, _ := agentstore.Load(repo, lead); rec.Edits != 2 {
		t.Errorf("edits counted: %d, want 2", rec.Edits)
	}
}

// Where the client says nothing of what a command changed, lucid stamps
// the claimed files before it and finds the change after it.
func TestUnrecordedShellIsWatched(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	gittest.WriteFile(t, top, "src/a.go", "package src\n")
	claim(t, repo, other, top, "refactor auth", "src/**")
	in := bash(lead, "", top, "make")
	in.Caps |= client.Unrecorded
	if a := do(t, wholeClient{}, "PreToolUse", in); a.out != nil && a.out.Deny != "" {
		t.Fatalf("make denied: %s", a.out.Deny)
	}
	gittest.WriteFile(t, top, "src/a.go", "package src // changed by make\n")
	a := do(t, wholeClient{}, "PostToolUse", in)
	if !strings.HasPrefix(a.context(), "lucid: your command changed src/a.go, claimed by lead·0b2182") {
		t.Errorf("context %q, want the violation", a.context())
	}
	// Nothing changed the second time: nothing to say.
	do(t, wholeClient{}, "PreToolUse", in)
	if a := do(t, wholeClient{}, "PostToolUse", in); strings.Contains(a.context(), "your command changed") {
		t.Errorf("an unchanged file reported: %q", a.context())
	}
}

// A session outside any repository (its parent folder) writing into a
// guarded one by an absolute path meets the same claims.
func TestWriteFromOutsideTheRepository(t *testing.T) {
	repo := newRepo(t)
	claim(t, repo, other, repo.Top, "refactor auth", "src/**")
	outside := t.TempDir()
	a := do(t, wholeClient{}, "PreToolUse", edit(lead, "", outside, filepath.Join(repo.Top, "src/a.go")))
	if a.out == nil || !strings.HasPrefix(a.out.Deny, "lucid: src/a.go is claimed by lead·0b2182") {
		t.Errorf("from outside: %+v", a.out)
	}
	// A person watching the repository sees whom the claim stopped.
	if d, ok := agentstore.LastDenial(repo, lead); !ok || d.Path != "src/a.go" || d.Owner != other || d.Glob != "src/**" {
		t.Errorf("the denial kept: %+v, %v", d, ok)
	}
	in := bash(lead, "", outside, "make")
	in.Changed = []string{filepath.Join(repo.Top, "src/a.go")}
	if a := do(t, wholeClient{}, "PostToolUse", in); !strings.HasPrefix(a.context(), "lucid: your command changed src/a.go") {
		t.Errorf("after the command, from outside: %q", a.context())
	}
	// Anything else outside a lucid work tree is none of lucid's business.
	if a := do(t, wholeClient{}, "UserPromptSubmit", client.Input{SessionID: lead, Cwd: outside}); a.out != nil || a.stderr != "" {
		t.Errorf("a prompt outside: %+v", a)
	}
}

// News (another agent's entry) reaches the agent's next call once; its
// own entries are not news; a denied call carries none, so it waits.
func TestNewsReachesTheNextCallOnce(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	start := do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: top, Source: "startup"})
	if !strings.HasPrefix(start.context(), "# lucid: what the agents in this repository share\n") {
		t.Fatalf("SessionStart: %q, want the digest", start.context())
	}
	read := client.Input{SessionID: lead, Cwd: top, ToolName: "Read"}
	if a := do(t, c, "PreToolUse", read); a.out != nil {
		t.Fatalf("nothing new, yet PreToolUse printed %+v", a.out)
	}
	record(t, repo, other, logformat.KindFact, "the login form posts to /api/v2")
	record(t, repo, lead, logformat.KindNote, "my own note")
	a := do(t, c, "PreToolUse", read)
	want := "lucid: 1 new log entry from other agents since you last looked (oldest first):\n- [fact] «the login form posts to /api/v2» (lead·0b2182, under a minute ago, "
	if !strings.HasPrefix(a.context(), want) || strings.Contains(a.context(), "my own note") {
		t.Fatalf("PreToolUse context %q\nwant it to start %q, without the agent's own note", a.context(), want)
	}
	if a := do(t, c, "PreToolUse", read); a.out != nil {
		t.Errorf("the news came twice: %+v", a.out)
	}
	if rec, _, _ := agentstore.Load(repo, lead); rec.Entries != 1 {
		t.Errorf("the agent's own entries counted: %d, want 1", rec.Entries)
	}

	// A denied call says only why: the news waits for the next one.
	claim(t, repo, other, top, "api", "api/**")
	record(t, repo, other, logformat.KindDecision, "keep the v1 routes")
	if a := do(t, c, "PreToolUse", edit(lead, "", top, "api/a.go")); a.out == nil || a.out.Deny == "" || a.out.Context != "" {
		t.Fatalf("denied call: %+v", a.out)
	}
	if a := do(t, c, "UserPromptSubmit", client.Input{SessionID: lead, Cwd: top}); !strings.Contains(a.context(), "keep the v1 routes") {
		t.Errorf("the prompt after the denial: %q, want the news", a.context())
	}
}

// Where the client shows the model nothing of PreToolUse (Gemini's
// BeforeTool), the news waits for PostToolUse.
func TestMutedNewsComesAfterTheTool(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{name: "gemini"}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	record(t, repo, other, logformat.KindFact, "news for later")
	in := client.Input{SessionID: lead, Cwd: repo.Top, ToolName: "read_file", Caps: client.Mute | client.NewsAfter}
	if a := do(t, c, "PreToolUse", in); a.out != nil {
		t.Errorf("a mute PreToolUse printed %+v", a.out)
	}
	in.Caps &^= client.Mute
	if a := do(t, c, "PostToolUse", in); !strings.Contains(a.context(), "news for later") {
		t.Errorf("PostToolUse: %q, want the news", a.context())
	}
}

// A lead whose workers hold claims is reminded at its prompt that a change
// of plan goes into plan.md.
func TestPromptRemindsOfThePlan(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	prompt := client.Input{SessionID: lead, Cwd: repo.Top}
	do(t, c, "SessionStart", prompt)
	if a := do(t, c, "UserPromptSubmit", prompt); a.out != nil {
		t.Errorf("no claims, yet: %+v", a.out)
	}
	claim(t, repo, sub, repo.Top, "refactor", "src/**")
	if a := do(t, c, "UserPromptSubmit", prompt); a.context() != planFirst+"\n" {
		t.Errorf("prompt: %q", a.context())
	}
	// Before a model call that carries no prompt (Qwen Code's after a
	// tool's result) only the news goes.
	record(t, repo, other, logformat.KindFact, "news between calls")
	prompt.Caps |= client.NoPrompt
	if a := do(t, c, "UserPromptSubmit", prompt); strings.Contains(a.context(), planFirst) || !strings.Contains(a.context(), "news between calls") {
		t.Errorf("no prompt: %q, want the news alone", a.context())
	}
	if a := do(t, c, "UserPromptSubmit", prompt); a.out != nil {
		t.Errorf("no prompt, no news: %+v", a.out)
	}
}

// The user's edit of plan.md becomes a plan entry, news for every agent
// with its diff; an agent's own edit of the plan is its own, and counts as
// reporting.
func TestPlanChanges(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: top})
	do(t, c, "SessionStart", client.Input{SessionID: other, Cwd: top})
	gittest.WriteFile(t, top, ".lucid/plan.md", "# Plan\nShip the login page first.\n")
	a := do(t, c, "UserPromptSubmit", client.Input{SessionID: lead, Cwd: top})
	for _, want := range []string{"[plan] «plan.md changed: +", "(user, ", planOverrides, "  │ +Ship the login page first.\n"} {
		if !strings.Contains(a.context(), want) {
			t.Errorf("the user's plan change: %q lacks %q", a.context(), want)
		}
	}
	plan := entries(t, repo, logformat.KindPlan)
	if len(plan) != 1 || plan[0].Agent != agentstore.AgentUser {
		t.Fatalf("plan entries: %+v", plan)
	}

	// The other session edits the plan with its own tool.
	planPath := filepath.Join(top, ".lucid/plan.md")
	do(t, c, "PreToolUse", edit(other, "", top, planPath))
	gittest.WriteFile(t, top, ".lucid/plan.md", "# Plan\nShip the API first.\n")
	// Another agent's hook in between leaves the change to its author.
	do(t, c, "UserPromptSubmit", client.Input{SessionID: lead, Cwd: top})
	post := edit(other, "", top, planPath)
	post.Changed = post.Paths
	do(t, c, "PostToolUse", post)
	plan = entries(t, repo, logformat.KindPlan)
	if len(plan) != 2 || plan[1].Agent != other {
		t.Fatalf("plan entries: %+v", plan)
	}
	if rec, _, _ := agentstore.Load(repo, other); rec.Edits != 1 || rec.Entries != 1 {
		t.Errorf("the plan's editor: edits %d entries %d, want 1 and 1", rec.Edits, rec.Entries)
	}
	if a := do(t, c, "UserPromptSubmit", client.Input{SessionID: lead, Cwd: top}); !strings.Contains(a.context(), "-Ship the login page first.") {
		t.Errorf("the lead's news: %q", a.context())
	}
}

// The stop gate: an agent that edited files and recorded nothing is asked,
// once, to record what it learned; not when a stop hook already kept it
// going, not when it recorded something. Then its claims end.
func TestStopGate(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	stop := client.Input{SessionID: lead, AgentID: subID, Cwd: top}
	do(t, c, "SubagentStart", stop)
	if a := do(t, c, "SubagentStop", stop); a.out != nil {
		t.Errorf("no edits, yet the stop printed %+v", a.out)
	}
	write := edit(lead, subID, top, filepath.Join(top, "a.go"))
	write.Changed = write.Paths
	do(t, c, "PostToolUse", write)
	claim(t, repo, sub, top, "work", "a.go")
	active := stop
	active.StopHookActive = true
	if a := do(t, c, "SubagentStop", active); a.out != nil {
		t.Errorf("a stop a hook kept going was asked again: %+v", a.out)
	}
	if activeGlobs(t, repo) != "" {
		t.Errorf("the stop left claims: %s", activeGlobs(t, repo))
	}
	claim(t, repo, sub, top, "work", "a.go")
	a := do(t, c, "SubagentStop", stop)
	if a.out == nil || a.out.Block != reportReason {
		t.Fatalf("the stop of an agent that recorded nothing: %+v", a.out)
	}
	if activeGlobs(t, repo) != "a.go" {
		t.Errorf("an agent kept going lost its claims: %q", activeGlobs(t, repo))
	}
	if a := do(t, c, "SubagentStop", stop); a.out != nil {
		t.Errorf("asked twice: %+v", a.out)
	}

	// An agent that recorded something is not asked.
	stop2 := client.Input{SessionID: lead, AgentID: "b111111111111111", Cwd: top}
	write2 := edit(lead, stop2.AgentID, top, filepath.Join(top, "b.go"))
	write2.Changed = write2.Paths
	do(t, c, "PostToolUse", write2)
	record(t, repo, lead+"/"+stop2.AgentID, logformat.KindDecision, "kept the old API")
	if a := do(t, c, "SubagentStop", stop2); a.out != nil {
		t.Errorf("an agent that recorded a decision was asked: %+v", a.out)
	}
}

// Where the client's agents are leads of their own (GateLead), the lead's
// Stop runs the gate; otherwise it only ends the lead's own claims, not
// its subagents'.
func TestLeadStop(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	write := edit(lead, "", top, filepath.Join(top, "a.go"))
	write.Changed = write.Paths
	do(t, c, "PostToolUse", write)
	claim(t, repo, lead, top, "docs", "docs/**")
	claim(t, repo, sub, top, "src", "src/**")
	if a := do(t, c, "Stop", client.Input{SessionID: lead, Cwd: top}); a.out != nil {
		t.Errorf("Claude Code's lead stop printed %+v", a.out)
	}
	if got := activeGlobs(t, repo); got != "src/**" {
		t.Errorf("after the lead's stop: %q, want its subagent's claim alone", got)
	}
	codex := wholeClient{name: "codex"}
	do(t, codex, "PostToolUse", client.Input{SessionID: other, Cwd: top, Tool: client.ToolEdit, Paths: []string{"b.go"}, Changed: []string{"b.go"}})
	if a := do(t, codex, "Stop", client.Input{SessionID: other, Cwd: top, Caps: client.GateLead}); a.out == nil || a.out.Block != reportReason {
		t.Errorf("a gated lead's stop: %+v", a.out)
	}
}

// A stop that may not end the turn (KeepClaims: opencode's end of a
// text part, tool calls may follow) asks through the gate as any stop,
// once, but ends no claim, the lead's or a subagent's; the real stop
// that follows does.
func TestStopKeepClaims(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{name: "opencode"}
	claim(t, repo, other, top, "docs", "docs/**")
	claim(t, repo, other+"/"+sub, top, "src", "src/**")
	do(t, c, "PostToolUse", client.Input{SessionID: other, Cwd: top, Tool: client.ToolEdit, Paths: []string{"docs/a.md"}, Changed: []string{"docs/a.md"}})
	check := client.Input{SessionID: other, Cwd: top, Caps: client.GateLead | client.KeepClaims}
	if a := do(t, c, "Stop", check); a.out == nil || a.out.Block != reportReason {
		t.Errorf("the gate at a text's end did not ask: %+v", a.out)
	}
	if a := do(t, c, "Stop", check); a.out != nil {
		t.Errorf("asked twice: %+v", a.out)
	}
	if a := do(t, c, "SubagentStop", client.Input{SessionID: other, AgentID: sub, Cwd: top, Caps: client.KeepClaims}); a.out != nil {
		t.Errorf("a subagent that edited nothing was asked: %+v", a.out)
	}
	if got := activeGlobs(t, repo); got != "docs/** src/**" {
		t.Errorf("after the checks: %q, want both claims", got)
	}
	do(t, c, "SubagentStop", client.Input{SessionID: other, AgentID: sub, Cwd: top})
	do(t, c, "Stop", client.Input{SessionID: other, Cwd: top, Caps: client.GateLead})
	if got := activeGlobs(t, repo); got != "" {
		t.Errorf("after the real stops: %q, want none", got)
	}
}

// TaskCompleted keeps a teammate's task open until it recorded what it
// learned, once; when the lead closes it, the teammate named is asked of.
func TestTaskCompleted(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	mate := client.Input{SessionID: lead, AgentID: mateID, AgentType: "alpha", Cwd: top}
	do(t, c, "SubagentStart", mate)
	write := edit(lead, mateID, top, filepath.Join(top, "a.go"))
	write.Changed = write.Paths
	do(t, c, "PostToolUse", write)
	claim(t, repo, lead+"/"+mateID, top, "tests", "test/**")
	if a := do(t, c, "TaskCompleted", mate); a.out == nil || a.out.Block != taskReason {
		t.Errorf("the teammate's TaskCompleted: %+v", a.out)
	}
	if got := activeGlobs(t, repo); !strings.Contains(got, "test/**") {
		t.Errorf("TaskCompleted ended a claim: %q", got)
	}

	beta := "abeta-1234567890abcdef"
	do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: beta, Cwd: top})
	write = edit(lead, beta, top, filepath.Join(top, "b.go"))
	write.Changed = write.Paths
	do(t, c, "PostToolUse", write)
	a := do(t, c, "TaskCompleted", client.Input{SessionID: lead, TeammateName: "beta", Cwd: top})
	if a.out == nil || !strings.HasPrefix(a.out.Block, "Before this task is closed: teammate beta·123456 edited files but recorded nothing") {
		t.Errorf("the lead closing beta's task: %+v", a.out)
	}
}

// SessionEnd ends every claim of the session, its subagents' included,
// and no other session's.
func TestSessionEndReleasesTheSession(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	claim(t, repo, lead, top, "a", "a/**")
	claim(t, repo, lead+"/b111111111111111", top, "b", "b/**")
	claim(t, repo, other, top, "c", "c/**")
	if a := do(t, wholeClient{}, "SessionEnd", client.Input{SessionID: lead, Cwd: top}); a.out != nil || a.stderr != "" {
		t.Errorf("SessionEnd: %+v", a)
	}
	if got := activeGlobs(t, repo); got != "c/**" {
		t.Errorf("after SessionEnd: %q, want the other session's claim alone", got)
	}
}

// A subagent whose conversation was compacted gets the whole digest at its
// next call: what it was told is gone.
func TestCompactedAgentGetsTheDigest(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	in := client.Input{SessionID: lead, AgentID: subID, Cwd: repo.Top}
	do(t, c, "SubagentStart", in)
	do(t, c, "PreCompact", in)
	if rec, _, _ := agentstore.Load(repo, sub); !rec.Compacted {
		t.Fatal("PreCompact did not mark the subagent")
	}
	if a := do(t, c, "PreToolUse", in); !strings.HasPrefix(a.context(), "# lucid: what the agents in this repository share") {
		t.Errorf("the call after the compaction: %q, want the digest", a.context())
	}
	if a := do(t, c, "PreToolUse", in); a.out != nil {
		t.Errorf("the digest came twice: %+v", a.out)
	}
	// A woken teammate's SubagentStart says nothing again.
	if a := do(t, c, "SubagentStart", in); a.out != nil {
		t.Errorf("a known agent's start: %+v", a.out)
	}
}

// Where the client shows the model nothing of SubagentStart (Qwen Code),
// the subagent's digest comes with its first news instead, once.
func TestMutedStartGivesTheDigestLater(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	in := client.Input{SessionID: lead, AgentID: subID, AgentType: "general-purpose", Cwd: repo.Top, Caps: client.Mute}
	if a := do(t, c, "SubagentStart", in); a.out != nil {
		t.Errorf("a mute start printed %+v", a.out)
	}
	in.ToolName = "write_file"
	in.Caps = in.Caps&^client.Mute | client.NewsAfter
	if a := do(t, c, "PostToolUse", in); !strings.HasPrefix(a.context(), "# lucid: what the agents in this repository share") {
		t.Errorf("the first call after a mute start: %q, want the digest", a.context())
	}
	if a := do(t, c, "PostToolUse", in); a.out != nil {
		t.Errorf("the digest came twice: %+v", a.out)
	}
	if rec, _, _ := agentstore.Load(repo, sub); rec.Type != "general-purpose" {
		t.Errorf("the subagent's type: %q", rec.Type)
	}
}

// A lead whose client starts no session after a compaction (NoRestart) is
// marked at PreCompact too, and gets the digest at its next call; one
// whose client does start one is not.
func TestCompactedLeadWithoutRestart(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	for _, restarts := range []bool{true, false} {
		in := client.Input{SessionID: lead, Cwd: repo.Top, Caps: client.NoRestart.If(!restarts)}
		do(t, c, "SessionStart", in)
		do(t, c, "PreCompact", in)
		if rec, _, _ := agentstore.Load(repo, lead); rec.Compacted == restarts {
			t.Errorf("restarts %v: marked %v", restarts, rec.Compacted)
		}
		a := do(t, c, "UserPromptSubmit", in)
		if got := strings.HasPrefix(a.context(), "# lucid: what the agents in this repository share"); got == restarts {
			t.Errorf("restarts %v: the digest at the next call is %v (%q)", restarts, got, a.context())
		}
	}
}

// lucid commands in a shell line are signed with the caller's id; a line
// that runs lucid hook, or signs for another, is denied.
func TestLucidCommandsAreSigned(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	in := bash(lead, "", repo.Top, "lucid fact 'the API is v2'")
	a := do(t, c, "PreToolUse", in)
	if a.out == nil || a.out.Command != "LUCID_AGENT="+lead+" lucid fact 'the API is v2'" || a.out.Permission != "allow" {
		t.Errorf("a lucid command: %+v", a.out)
	}
	in.Command = "lucid note x && make"
	a = do(t, c, "PreToolUse", in)
	if a.out == nil || !strings.Contains(a.out.Command, "LUCID_AGENT="+lead+" lucid note x") || a.out.Permission != "ask" {
		t.Errorf("a lucid command beside another: %+v", a.out)
	}
	in.PermissionMode = "bypassPermissions"
	if a = do(t, c, "PreToolUse", in); a.out == nil || a.out.Permission != "allow" {
		t.Errorf("in bypassPermissions: %+v", a.out)
	}
	for command, want := range map[string]string{
		"lucid hook Stop < p.json":       "lucid: `lucid hook` is run by your client, never by hand",
		"LUCID_AGENT=human lucid fact x": `lucid: this line sets LUCID_AGENT (to "human")`,
		"eval \"lucid fact x\"":          "lucid: eval or an alias runs text that mentions lucid",
	} {
		if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, command)); a.out == nil || !strings.HasPrefix(a.out.Deny, want) {
			t.Errorf("%q: %+v, want a denial starting %q", command, a.out, want)
		}
	}
}

// Run is fail-open: a payload it cannot read, an event it does not know,
// a payload without a session, a bug between the handler and the answer:
// one line on stderr, nothing on stdout, exit 0.
func TestFailOpen(t *testing.T) {
	repo := newRepo(t)
	for _, tc := range []struct {
		name    string
		client  client.Client
		event   string
		payload string
		stderr  string
	}{
		{"not JSON", wholeClient{}, "PreToolUse", "{not json", "lucid hook PreToolUse: invalid character"},
		{"empty", wholeClient{}, "PreToolUse", " \n", "lucid hook PreToolUse: empty payload ignored"},
		{"unknown event", wholeClient{}, "Notification", "{}", `lucid hook: unknown event "Notification" of claude`},
		{"no session", wholeClient{}, "UserPromptSubmit", `{"Cwd":"` + repo.Top + `"}`, "lucid hook UserPromptSubmit: payload has no session_id"},
		{"encoder panics", wholeClient{failEncode: true}, "SessionStart", `{"SessionID":"` + lead + `","Cwd":"` + repo.Top + `"}`, "lucid hook SessionStart: internal error: encoder broke"},
	} {
		var stdout, stderr bytes.Buffer
		code := Run(tc.client, nil, naming, tc.event, strings.NewReader(tc.payload), &stdout, &stderr)
		if code != 0 || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), tc.stderr) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 0, no stdout, one line starting %q", tc.name, code, stdout.String(), stderr.String(), tc.stderr)
		}
	}
}

// xs reads as an endless run of 'x'.
type xs struct{}

func (xs) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

// A payload past MaxPayload is read as a stream, without the content of
// the file written: a big Write is still checked against the claims, and
// one that names no file says so.
func TestLargePayload(t *testing.T) {
	repo := newRepo(t)
	claim(t, repo, other, repo.Top, "api", "api/**")
	big := func(in client.Input) answer {
		b, _ := json.Marshal(in)
		payload := io.MultiReader(bytes.NewReader(b[:len(b)-1]), strings.NewReader(`,"tool_input":{"content":"`),
			io.LimitReader(xs{}, MaxPayload), strings.NewReader(`"}}`))
		var stdout, stderr bytes.Buffer
		a := answer{code: Run(wholeClient{}, nil, naming, "PreToolUse", payload, &stdout, &stderr), stderr: stderr.String()}
		if stdout.Len() > 0 {
			a.out = &client.Output{}
			json.Unmarshal(stdout.Bytes(), a.out)
		}
		return a
	}
	if a := big(edit(lead, "", repo.Top, "api/a.go")); a.out == nil || !strings.HasPrefix(a.out.Deny, "lucid: api/a.go is claimed") {
		t.Errorf("a large Write of a claimed file: %+v", a)
	}
	a := big(client.Input{SessionID: lead, Cwd: repo.Top, ToolName: "Write", Tool: client.ToolEdit})
	if a.out != nil || a.stderr != "lucid hook PreToolUse: payload over 16 MiB names no file for Write: not checked\n" {
		t.Errorf("a large Write naming no file: %+v", a)
	}
}

// Trouble that does not stop the call (the agents' folder cannot be made)
// is one line on stderr; the hook still answers.
func TestTroubleIsOneLine(t *testing.T) {
	repo := newRepo(t)
	if err := os.MkdirAll(filepath.Join(repo.CommonDir, "lucid"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo.CommonDir, "lucid", "agents"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := do(t, wholeClient{}, "Stop", client.Input{SessionID: lead, Cwd: repo.Top})
	if a.out != nil || a.code != 0 || strings.Count(a.stderr, "\n") != 1 || !strings.HasSuffix(a.stderr, "agents: not a directory\n") {
		t.Errorf("Stop with the agents' folder blocked: %+v", a)
	}
}

// A call waits for the lock well inside the timeout its client registered
// for the event, so that the client never kills a hook that was waiting:
// a start may wait longest, a SessionEnd (2 s, shared by all of a
// session's end hooks) a quarter of it, and a tool call, a prompt, a stop
// or an event without a known timeout a second.
func TestLockBudgetFromTheRegisteredTimeout(t *testing.T) {
	for _, c := range []struct{ timeout, want time.Duration }{
		{15 * time.Second, 3 * time.Second},
		{10 * time.Second, time.Second},
		{2 * time.Second, 500 * time.Millisecond},
		{0, time.Second},
	} {
		if got := lockBudget(c.timeout); got != c.want {
			t.Errorf("lockBudget(%v) = %v, want %v", c.timeout, got, c.want)
		}
	}
}
