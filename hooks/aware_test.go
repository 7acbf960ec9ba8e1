package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/settings"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// Edit awareness and leases, through Run as a client calls it.

// leasesOff turns leases off in repo, for a test of what holds without
// them: its agents' writes take none.
func leasesOff(t *testing.T, repo *gitstore.Repo) {
	t.Helper()
	if _, err := settings.SetLeases(repo, false); err != nil {
		t.Fatal(err)
	}
}

// prompt is a UserPromptSubmit of agent (session, agentID): its delta.
func prompt(session, agentID, cwd string) client.Input {
	return client.Input{SessionID: session, AgentID: agentID, Cwd: cwd}
}

// Two agents with no claim write one file: the second is told before its
// write who changed it, and the first learns at its next delta that the
// second is now editing it; each once.
func TestAwareTwoAgentsOneFile(t *testing.T) {
	repo := newRepo(t)
	leasesOff(t, repo)
	gittest.WriteFile(t, repo.Top, "match.go", "package m\n")
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: subID, AgentType: "general-purpose", Cwd: repo.Top})

	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "match.go")).context(); got != "" {
		t.Fatalf("the first write was told %q", got)
	}
	got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "match.go")).context()
	for _, want := range []string{"lucid: match.go was changed since your last write of it by lead·30df32 (claude) under a minute ago, holding no claim on it",
		"read the file again before you change it", "`lucid ask " + lead + " 'Are you still changing match.go? I am about to edit it.'`"} {
		if !strings.Contains(got, want) {
			t.Errorf("the second writer was told %q; want %q in it", got, want)
		}
	}
	if got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "match.go")).context(); got != "" {
		t.Errorf("the second writer's next write was told %q; want nothing (it knew)", got)
	}
	got = do(t, c, "UserPromptSubmit", prompt(lead, "", repo.Top)).context()
	if !strings.Contains(got, "lucid: general-purpose·a2adb9 (claude) is now editing match.go, which you changed under a minute ago; it was told of your change") ||
		!strings.Contains(got, "`lucid tell "+sub+" \"…\"`") {
		t.Errorf("the first writer's next delta is %q; want that the subagent is editing its file", got)
	}
	if got := do(t, c, "UserPromptSubmit", prompt(lead, "", repo.Top)).context(); got != "" {
		t.Errorf("the first writer's delta after that is %q; want nothing", got)
	}
	// Back to the lead: the subagent changed the file since the lead's
	// write, which the lead is told once; its notice said it already.
	got = do(t, c, "PreToolUse", edit(lead, "", repo.Top, filepath.Join(repo.Top, "match.go"))).context()
	if !strings.Contains(got, "by general-purpose·a2adb9 (claude)") || strings.Count(got, "lucid:") != 1 {
		t.Errorf("the lead writing again was told %q; want once who changed it", got)
	}
}

// The other agent's change is news only while it is within the window, the
// agent is still at work (its session not ended), and the file is the
// same; nothing is told at all when there is nothing.
func TestAwareOnlyLiveRecentChanges(t *testing.T) {
	repo := newRepo(t)
	leasesOff(t, repo)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: other, Cwd: repo.Top})
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	path := filepath.Join(repo.Top, "old.go")
	if err := lichstore.RecordEdit(repo, path, other, time.Now().Add(-11*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, path)).context(); got != "" {
		t.Errorf("a change 11 minutes old was told: %q", got)
	}
	// The window is the repository's to set.
	gittest.WriteFile(t, repo.Top, settings.Name, `{"awareness_window": "20m"}`)
	if err := lichstore.RecordEdit(repo, path, other, time.Now().Add(-11*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, path)).context(); !strings.Contains(got, "old.go was changed") {
		t.Errorf("with a window of 20 min, a change 11 minutes old was told %q", got)
	}

	do(t, c, "PreToolUse", edit(other, "", repo.Top, "new.go"))
	do(t, c, "SessionEnd", client.Input{SessionID: other, Cwd: repo.Top})
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "new.go")).context(); got != "" {
		t.Errorf("the change of an agent whose session ended was told: %q", got)
	}
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "mine.go"))
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "mine.go")).context(); got != "" {
		t.Errorf("an agent's own change was told to it: %q", got)
	}
}

// A client that shows the model nothing before a tool runs (Mute) is told
// with the tool's result (NewsAfter), once.
func TestAwareMuteClientToldAfter(t *testing.T) {
	repo := newRepo(t)
	leasesOff(t, repo)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	do(t, c, "SessionStart", client.Input{SessionID: other, Cwd: repo.Top})
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "a.go"))

	pre := edit(other, "", repo.Top, "a.go")
	pre.Caps |= client.Mute | client.NewsAfter
	if got := do(t, c, "PreToolUse", pre).context(); got != "" {
		t.Errorf("a mute PreToolUse printed %q", got)
	}
	post := pre
	post.Changed = post.Paths
	got := do(t, c, "PostToolUse", post).context()
	if !strings.Contains(got, "a.go was changed since your last write of it by lead·30df32") {
		t.Errorf("the tool's result carried %q; want who changed the file", got)
	}
	if got := do(t, c, "PostToolUse", post).context(); got != "" {
		t.Errorf("the next result carried %q; want nothing", got)
	}
	// The lead writes the file again (and the mute agent is to hear that
	// it is editing it); then the mute agent writes it again: its result
	// says once that the lead changed the file, in words that hold whether
	// or not its own write went in (its client may have refused it).
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "a.go"))
	do(t, c, "PreToolUse", pre)
	got = do(t, c, "PostToolUse", post).context()
	if strings.Count(got, "lucid:") != 1 || !strings.Contains(got, "a.go was changed since your last write of it by lead·30df32") ||
		!strings.Contains(got, "where your change went in, check that theirs still holds") {
		t.Errorf("the result after the lead's second write carried %q; want once that the lead changed it", got)
	}
}

// After a command, a change the guard could not name before it (the
// client's own list) is recorded and told.
func TestAwareAfterShellCommand(t *testing.T) {
	repo := newRepo(t)
	leasesOff(t, repo)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	do(t, c, "SessionStart", client.Input{SessionID: other, Cwd: repo.Top})
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "gen.go"))
	sh := client.Input{SessionID: other, Cwd: repo.Top, ToolName: "Bash", Tool: client.ToolShell, Command: "make generate"}
	if got := do(t, c, "PreToolUse", sh).context(); got != "" {
		t.Errorf("before make: %q", got)
	}
	sh.Changed = []string{filepath.Join(repo.Top, "gen.go")}
	got := do(t, c, "PostToolUse", sh).context()
	if !strings.Contains(got, "gen.go was changed since your last write of it by lead·30df32") || !strings.Contains(got, "your command changed it after them") {
		t.Errorf("after make: %q", got)
	}
	m, err := lichstore.ReadMarker(repo, filepath.Join(repo.Top, "gen.go"))
	if err != nil || m == nil || m.Session != other {
		t.Errorf("the marker after make: %+v, %v; want the command's agent newest", m, err)
	}
}

// With leases on, a write takes a lease: another session's write of the
// file is denied with the way to ask for it, the writer's own session's
// agents are told, not denied, and the lease ends with the writer's turn.
func TestLeases(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	if _, err := settings.SetLeases(repo, true); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{lead, other} {
		do(t, c, "SessionStart", client.Input{SessionID: s, Cwd: repo.Top})
	}
	do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: subID, AgentType: "general-purpose", Cwd: repo.Top})
	if a := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/a.go")); a.out != nil {
		t.Fatalf("the first write: %+v", a.out)
	}
	if got := activeGlobs(t, repo); got != "src/a.go" {
		t.Fatalf("after the first write the claims are %q; want the lease on src/a.go", got)
	}
	// Its next write takes nothing more.
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/a.go"))
	if got := activeGlobs(t, repo); got != "src/a.go" {
		t.Fatalf("after the second write the claims are %q", got)
	}
	a := do(t, c, "PreToolUse", edit(other, "", repo.Top, "src/a.go"))
	if a.out == nil || !strings.Contains(a.out.Deny, "lucid: src/a.go is being edited by lead·30df32 (a lease on src/a.go, taken by its write under a minute ago and held until its turn ends)") ||
		!strings.Contains(a.out.Deny, "lucid ask "+lead+" --for-claim src/a.go") || !strings.Contains(a.out.Deny, "lucid release src/a.go --to YOU") {
		t.Fatalf("another session's write: %+v; want denied by the lease, with the ask", a.out)
	}
	got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "src/a.go")).context()
	if !strings.Contains(got, "by lead·30df32 (claude) under a minute ago, editing it under a lease") {
		t.Errorf("the lead's subagent was told %q; want the lead's lease named, and no denial", got)
	}
	// A claim of the same session still denies, as it always did.
	claim(t, repo, lead, repo.Top, "b", "src/b.go")
	if a := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "src/b.go")); a.out == nil || a.out.Deny == "" {
		t.Errorf("the lead's claim let its subagent through: %+v", a.out)
	}
	// Not even a lucid claim takes what another session leased.
	if _, _, err := claims.Acquire(repo, claims.Request{Owner: other, Worktree: repo.Top, Task: "t", Globs: []string{"src/**"}, Now: time.Now()}); err == nil || !strings.Contains(err.Error(), "a lease on src/a.go") {
		t.Errorf("another session's claim over the lease: %v", err)
	}
	// The subagent's write took a lease of its own: when the lead's turn
	// ends, the file is still being edited.
	do(t, c, "Stop", client.Input{SessionID: lead, Cwd: repo.Top})
	set, err := claims.Load(repo, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range set.ActiveClaims() {
		if cl.Owner == lead && cl.Lease {
			t.Errorf("after the lead's turn it still holds %v", cl.Globs)
		}
	}
	if a := do(t, c, "PreToolUse", edit(other, "", repo.Top, "src/a.go")); a.out == nil || !strings.Contains(a.out.Deny, "being edited by general-purpose·a2adb9") {
		t.Errorf("after the lead's turn, with its subagent at work, another session's write: %+v", a.out)
	}
	do(t, c, "SubagentStop", client.Input{SessionID: lead, AgentID: subID, Cwd: repo.Top, StopHookActive: true})
	if got := activeGlobs(t, repo); strings.Contains(got, "src/a.go") {
		t.Errorf("after the subagent stopped the claims are %q", got)
	}
	if a := do(t, c, "PreToolUse", edit(other, "", repo.Top, "src/a.go")); a.out != nil && a.out.Deny != "" {
		t.Errorf("once both turns ended, another session's write: %+v", a.out)
	}
	// The plan is everyone's: no lease on it.
	do(t, c, "PreToolUse", edit(other, "", repo.Top, gitstore.PlanName))
	if got := activeGlobs(t, repo); strings.Contains(got, "plan.md") {
		t.Errorf("an edit of the plan took a lease: %q", got)
	}
}

// A teammate's leases end when its task is completed; its claims stay.
func TestLeasesEndWithTask(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	if _, err := settings.SetLeases(repo, true); err != nil {
		t.Fatal(err)
	}
	mate := lead + "/" + mateID
	do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: mateID, AgentType: "alpha", Cwd: repo.Top})
	claim(t, repo, mate, repo.Top, "its task", "docs/**")
	do(t, c, "PreToolUse", edit(lead, mateID, repo.Top, "src/x.go"))
	do(t, c, "PostToolUse", client.Input{SessionID: lead, AgentID: mateID, Cwd: repo.Top, ToolName: "Edit", Tool: client.ToolEdit, Paths: []string{"src/x.go"}, Changed: []string{filepath.Join(repo.Top, "src/x.go")}})
	if err := agentstore.Save(repo, func() agentstore.Record { r, _, _ := agentstore.Load(repo, mate); r.Entries = 1; return r }()); err != nil {
		t.Fatal(err)
	}
	do(t, c, "TaskCompleted", client.Input{SessionID: lead, AgentID: mateID, Cwd: repo.Top})
	if got := activeGlobs(t, repo); got != "docs/**" {
		t.Errorf("after its task the claims are %q; want its claim, not its lease", got)
	}
}

// Leases turned off (by LUCID_LEASES here, which outweighs the settings)
// stop no one, even those taken before; a claim still does.
func TestLeasesOffHoldNothing(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	if _, err := settings.SetLeases(repo, true); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{lead, other} {
		do(t, c, "SessionStart", client.Input{SessionID: s, Cwd: repo.Top})
	}
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/a.go"))
	claim(t, repo, lead, repo.Top, "b", "src/b.go")
	if got := activeGlobs(t, repo); !strings.Contains(got, "src/a.go") {
		t.Fatalf("the lead's write took no lease: the claims are %q", got)
	}
	t.Setenv("LUCID_LEASES", "off")
	if a := do(t, c, "PreToolUse", edit(other, "", repo.Top, "src/a.go")); a.out != nil && a.out.Deny != "" {
		t.Errorf("with leases off, the lead's earlier lease denied another session: %s", a.out.Deny)
	}
	if a := do(t, c, "PreToolUse", edit(other, "", repo.Top, "src/b.go")); a.out == nil || a.out.Deny == "" {
		t.Errorf("with leases off, the lead's claim let another session through: %+v", a.out)
	}
}

// An agent may not turn leases off (or on) by editing the settings: they
// are the person's.
func TestSettingsArePersons(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	gittest.WriteFile(t, repo.Top, "off.json", `{"leases":false}`)
	gittest.CommitAll(t, repo.Top, "init")
	for _, in := range []client.Input{
		edit(lead, "", repo.Top, settings.Name),
		edit(lead, subID, repo.Top, filepath.Join(repo.Top, "src", "..", settings.Name)),
		bash(lead, "", repo.Top, `echo '{"leases":false}' > .lucid/settings.json`),
		bash(lead, "", filepath.Join(repo.Top, ".lucid"), `rm settings.json`),
		bash(lead, "", repo.Top, `cp off.json .lucid/settings.json`),
		bash(lead, "", repo.Top, `mv off.json .lucid/settings.json`),
		bash(lead, "", repo.Top, `tee .lucid/settings.json < off.json`),
		bash(lead, "", repo.Top, `sed -i s/true/false/ .lucid/settings.json`),
		bash(lead, "", repo.Top, `python3 -c 'open(".lucid/settings.json", "w").write("{}")'`),
		bash(lead, "", repo.Top, `cd .lucid && printf '{}' > settings.json`),
		bash(lead, "", repo.Top, `find .lucid -name '*.json' -delete`),
	} {
		if a := do(t, c, "PreToolUse", in); a.out == nil || !strings.Contains(a.out.Deny, "settings.json holds this repository's lucid settings") {
			t.Errorf("%s %v %q: %+v; want denied", in.ToolName, in.Paths, in.Command, a.out)
		}
	}
}

// A lease holds whatever spelling of the path the other agent writes by:
// a relative path, one through "..", a link to the folder; and against a
// git command that would change the file. Awareness follows the same
// file through the same spellings.
func TestLeaseAndAwarenessSpellings(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	if _, err := settings.SetLeases(repo, true); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, repo.Top, "src/a.go", "package src\n")
	gittest.CommitAll(t, repo.Top, "init")
	if err := os.Symlink("src", filepath.Join(repo.Top, "link")); err != nil {
		t.Fatal(err)
	}
	if a := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "link/a.go")); a.out != nil && a.out.Deny != "" {
		t.Fatalf("the lead's write through the link: %+v", a.out)
	}
	gittest.WriteFile(t, repo.Top, "src/a.go", "package src // changed\n")
	for _, in := range []client.Input{
		edit(other, "", repo.Top, "src/a.go"),
		edit(other, "", filepath.Join(repo.Top, "src"), "a.go"),
		edit(other, "", repo.Top, filepath.Join(repo.Top, "docs", "..", "src", "a.go")),
		bash(other, "", repo.Top, "echo x >> ./src//a.go"),
		bash(other, "", repo.Top, "git checkout -- src/a.go"),
		bash(other, "", repo.Top, "git stash"),
	} {
		a := do(t, c, "PreToolUse", in)
		if a.out == nil || !strings.Contains(a.out.Deny, "being edited by lead·30df32") {
			t.Errorf("%v %q: %+v; want denied by the lead's lease", in.Paths, in.Command, a.out)
		}
	}
	// Leases off: the other session is told instead, by any spelling.
	if _, err := settings.SetLeases(repo, false); err != nil {
		t.Fatal(err)
	}
	got := do(t, c, "PreToolUse", edit(other, "", filepath.Join(repo.Top, "src"), "./a.go")).context()
	if !strings.Contains(got, "src/a.go was changed since your last write of it by lead·30df32") {
		t.Errorf("the other session writing ./a.go in src/ was told %q", got)
	}
}

// With leases on, a command that turned out to write a file another
// session leased records its change and tells it, and takes no lease over
// the other's: the write happened, and its violation is told.
func TestLeasesAfterTheFact(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	if _, err := settings.SetLeases(repo, true); err != nil {
		t.Fatal(err)
	}
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "gen.go"))
	sh := bash(other, "", repo.Top, "make generate")
	do(t, c, "PreToolUse", sh)
	sh.Changed = []string{filepath.Join(repo.Top, "gen.go"), filepath.Join(repo.Top, "other.go")}
	got := do(t, c, "PostToolUse", sh).context()
	if !strings.Contains(got, "your command changed gen.go, claimed by lead·30df32 (a lease on gen.go") || !strings.Contains(got, "gen.go was changed since your last write of it by lead·30df32") {
		t.Errorf("after make: %q; want the violation and who changed it", got)
	}
	if m, err := lichstore.ReadMarker(repo, filepath.Join(repo.Top, "gen.go")); err != nil || m == nil || m.Session != other {
		t.Errorf("the marker after make: %+v, %v; want the command's agent newest", m, err)
	}
	set, err := claims.Load(repo, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var mine []string
	for _, cl := range set.ActiveClaims() {
		if cl.Owner == other {
			mine = append(mine, cl.Globs...)
		}
	}
	if strings.Join(mine, " ") != "other.go" {
		t.Errorf("after make the command's agent leases %v; want other.go alone", mine)
	}
}

// git's path forms over a whole folder (git restore ., git checkout --
// .) write only the files git tracks, never lucid's state in the git dir:
// they are not refused as if they removed it (found by the real-client
// suite), while rm -rf of the same folder still is.
func TestGitPathsOverTheTopAreNotState(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	gittest.WriteFile(t, repo.Top, "src/a.go", "package src\n")
	gittest.CommitAll(t, repo.Top, "init")
	for _, cmd := range []string{"git restore .", "git checkout -- .", "git restore --staged --worktree .", "cd src && git checkout -- .."} {
		if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, cmd)); a.out != nil && a.out.Deny != "" {
			t.Errorf("%q: denied: %s", cmd, a.out.Deny)
		}
	}
	if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, "rm -rf .")); a.out == nil || !strings.Contains(a.out.Deny, "holds lucid's shared state") {
		t.Errorf("rm -rf . was not refused: %+v", a.out)
	}
	// With lines of the log not committed yet, they would lose them: git's
	// answer says so, and they are refused.
	record(t, repo, other, "fact", "not committed yet")
	for _, cmd := range []string{"git restore .", "git checkout -- .", "git restore .lucid", "git checkout -- .lucid/log.jsonl"} {
		if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, cmd)); a.out == nil || a.out.Deny == "" {
			t.Errorf("%q with the log's lines not committed: %+v; want refused", cmd, a.out)
		}
	}
}

// lucid's state is closed to links: a link into it that the line itself
// makes is followed, a hard link to one of its files (or the log) is a
// write of that file, and a hard link made earlier (by a script lucid
// could not read) is known by its inode when written through.
func TestStateClosedToLinks(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	claim(t, repo, other, repo.Top, "theirs", "src/**")
	for _, cmd := range []string{
		"ln -sfn .git/lucid x && : > x/claims",
		"ln -s .git/lucid/claims c; echo > c",
		"mkdir -p sub && ln -s ../.git/lucid sub/link",
		"ln .git/lucid/claims h",
		"ln .lucid/log.jsonl mine.jsonl",
		"ln src/a.go /tmp/escape-a.go",
		"mkdir -p d && ln -s ../.git d/g && truncate -s 0 d/g/lucid/claims",
	} {
		if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, cmd)); a.out == nil || a.out.Deny == "" {
			t.Errorf("%q: %+v; want denied", cmd, a.out)
		}
	}
	// Every store: an agent's record, a lich marker, the log's cursor of
	// the cited files, a shell watch, the lock.
	do(t, c, "PreToolUse", edit(other, "", repo.Top, "src/b.go"))
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	stores, _ := filepath.Glob(filepath.Join(repo.CommonDir, "lucid", "*", "*"))
	marks, _ := filepath.Glob(filepath.Join(repo.GitDir, "lich-edits", "*"))
	stores = append(append(stores, marks...), repo.LockPath())
	if len(marks) == 0 || len(stores) < 4 {
		t.Fatalf("stores to link: %v", stores)
	}
	for i, store := range stores {
		name := fmt.Sprintf("store%d", i)
		if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, "ln "+store+" "+name)); a.out == nil || a.out.Deny == "" {
			t.Errorf("ln %s: %+v; want denied", store, a.out)
		}
		if err := os.Link(store, filepath.Join(repo.Top, name)); err != nil {
			t.Fatal(err)
		}
		if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, ": > "+name)); a.out == nil || !strings.Contains(a.out.Deny, "a hard link to "+store) {
			t.Errorf("writing %s, a hard link to %s: %+v; want denied", name, store, a.out)
		}
	}
	if err := os.Link(repo.ClaimsPath(), filepath.Join(repo.Top, "h")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(repo.LogPath(), filepath.Join(repo.Top, "l.jsonl")); err != nil {
		t.Fatal(err)
	}
	for _, in := range []client.Input{
		bash(lead, "", repo.Top, ": > h"),
		bash(lead, "", repo.Top, "cp /dev/null h"),
		edit(lead, "", repo.Top, "h"),
		bash(lead, "", repo.Top, "echo '{}' > l.jsonl"),
	} {
		if a := do(t, c, "PreToolUse", in); a.out == nil || a.out.Deny == "" {
			t.Errorf("%v %q through a hard link: %+v; want denied", in.Paths, in.Command, a.out)
		}
	}
	if a := do(t, c, "PreToolUse", bash(lead, "", repo.Top, "ln -s README.md readme && ln notes.txt n2")); a.out != nil && a.out.Deny != "" {
		t.Errorf("links among ordinary files: %s", a.out.Deny)
	}
}

// One command writing many files others just changed is told of them
// within one budget, the rest counted: every injected byte is the user's.
func TestAwareBudgetPerCall(t *testing.T) {
	repo := newRepo(t)
	leasesOff(t, repo)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: other, Cwd: repo.Top})
	var paths []string
	for i := range 300 {
		paths = append(paths, filepath.Join(repo.Top, "gen", fmt.Sprintf("f%03d.go", i)))
	}
	do(t, c, "PreToolUse", edit(other, "", repo.Top, paths...))
	got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, paths...)).context()
	if len(got) > 2*awareBudget || !strings.Contains(got, "more files you are writing were changed by other agents lately") {
		t.Errorf("told %d bytes of 300 files others changed:\n%s", len(got), got)
	}
}
