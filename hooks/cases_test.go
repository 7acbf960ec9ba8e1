package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// More of the hooks' decisions through Run: logs rewritten by git, git's
// whole-tree commands, shared records of changes, lich mode, the shell's
// and the hooks' environments, the digest and lucid doctor.

// An entry that arrives by a rewrite of the log (a checkout of another
// branch) reaches the agent once, however old: it was on another branch
// when the agent started.
func TestRewrittenLogBringsAnEntryOnce(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	gittest.CommitAll(t, top, "init")
	gittest.Run(t, top, "checkout", "-q", "-b", "side")
	record(t, repo, other, logformat.KindFact, "S0 on side before the agent")
	gittest.CommitAll(t, top, "S0")
	gittest.Run(t, top, "checkout", "-q", "-")
	// M0 is often written in the start's own millisecond: the log the
	// agent started with held it all the same.
	record(t, repo, other, logformat.KindFact, "M0 on main, not yet committed")
	c := wholeClient{}
	read := client.Input{SessionID: lead, Cwd: top, ToolName: "Read"}
	if a := do(t, c, "SessionStart", read); !strings.Contains(a.context(), "M0 on main") {
		t.Fatalf("the digest: %q", a.context())
	}
	gittest.CommitAll(t, top, "M0")
	gittest.Run(t, top, "checkout", "-q", "side")
	a := do(t, c, "PreToolUse", read)
	if !strings.Contains(a.context(), "lucid: 1 new log entry") || !strings.Contains(a.context(), "] «S0 on side") {
		t.Errorf("after the checkout of side: %q, want S0 alone", a.context())
	}
	gittest.Run(t, top, "checkout", "-q", "-")
	if a := do(t, c, "PreToolUse", read); a.out != nil {
		t.Errorf("back on main, M0 came again: %+v", a.out)
	}
	gittest.Run(t, top, "checkout", "-q", "side")
	if a := do(t, c, "PreToolUse", read); a.out != nil {
		t.Errorf("S0 came twice: %+v", a.out)
	}
}

// git's whole-tree commands write what git says they would change: a
// claimed file among them is denied like any other write; a command whose
// changes git cannot tell beforehand, and one too big to read, are denied
// while other agents hold claims in the work tree; one that would lose the
// log's unsaved lines is denied always.
func TestGitCommandsAndUnreadableCommands(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	gittest.WriteFile(t, top, "src/a.go", "package src\n")
	gittest.CommitAll(t, top, "first")
	c := wholeClient{}
	long := strings.Repeat("true; ", 5000)
	if a := do(t, c, "PreToolUse", bash(lead, "", top, long)); a.out != nil && a.out.Deny != "" {
		t.Errorf("a long command, no claims: denied %q", a.out.Deny)
	}
	record(t, repo, lead, logformat.KindNote, "not committed yet")
	if a := do(t, c, "PreToolUse", bash(lead, "", top, "git reset --hard")); a.out == nil || !strings.HasPrefix(a.out.Deny, "lucid: `git reset --hard` would discard the changes to .lucid/log.jsonl that are not committed") ||
		!strings.HasSuffix(a.out.Deny, "The log's entries are every agent's record: none may be lost.") {
		t.Errorf("a reset that drops the log's new lines: %+v", a.out)
	}
	gittest.CommitAll(t, top, "note")

	claim(t, repo, other, top, "refactor auth", "src/**")
	gittest.WriteFile(t, top, "src/a.go", "package src // work in progress\n")
	a := do(t, c, "PreToolUse", bash(lead, "", top, "git stash"))
	if a.out == nil || !strings.HasPrefix(a.out.Deny, "lucid: `git stash` would change src/a.go, which is claimed by lead·0b2182 for «refactor auth»") {
		t.Errorf("git stash over a claimed change: %+v", a.out)
	}
	a = do(t, c, "PreToolUse", bash(lead, "", top, "git pull"))
	if a.out == nil || !strings.Contains(a.out.Deny, "which files `git pull` changes: it fetches first") ||
		!strings.Contains(a.out.Deny, "Other agents hold claims in this work tree") {
		t.Errorf("git pull while others hold claims: %+v", a.out)
	}
	a = do(t, c, "PreToolUse", bash(lead, "", top, long))
	if a.out == nil || a.out.Deny != "lucid: the command is too long or too nested for lucid to check (over 4096 steps): split it, or write a script. Until then lucid cannot tell whether it writes files other agents claimed." {
		t.Errorf("a long command while others hold claims: %+v", a.out)
	}
}

// Of a record of changes shared with other agents' commands (Claude Code's
// "shared" bashEditDiff), a file counts as the caller's only where lucid
// can tell: the caller alone claims it. Nobody is charged with another's
// change.
func TestSharedRecordOfChanges(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	a, b := "a1111111111111111", "a8d2f99cab08460fe"
	for _, id := range []string{a, b} {
		do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: id, Cwd: top})
	}
	claim(t, repo, lead+"/"+a, top, "edit a", "a.txt")
	shared := func(agentID string) client.Input {
		in := bash(lead, agentID, top, "python3 gen.py")
		in.Unsure = []string{filepath.Join(top, "a.txt")}
		return in
	}
	if ans := do(t, c, "PostToolUse", shared(b)); ans.out != nil {
		t.Errorf("b charged with a's file: %+v", ans.out)
	}
	if v := entries(t, repo, logformat.KindViolation); len(v) != 0 {
		t.Errorf("violations: %+v", v)
	}
	do(t, c, "PostToolUse", shared(a))
	if rec, _, _ := agentstore.Load(repo, lead+"/"+a); rec.Edits != 1 {
		t.Errorf("a's own claimed file counted %d edits, want 1", rec.Edits)
	}
	if rec, _, _ := agentstore.Load(repo, lead+"/"+b); rec.Edits != 0 {
		t.Errorf("b counted %d edits, want 0", rec.Edits)
	}
}

// A subagent run in the foreground hands its news back with its result.
func TestSubagentResultCarriesTheNews(t *testing.T) {
	repo := newRepo(t)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	record(t, repo, sub, logformat.KindFact, "what the subagent found")
	a := do(t, c, "PostToolUse", client.Input{SessionID: lead, Cwd: repo.Top, ToolName: "Agent", Tool: client.ToolAgent})
	if !strings.Contains(a.context(), "what the subagent found") {
		t.Errorf("the Agent tool's PostToolUse: %q", a.context())
	}
}

// A session started in the folder above its repositories has its shell
// commands watched in the work trees right below it.
func TestSessionAboveTheRepositories(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	gittest.WriteFile(t, top, "src/a.go", "package src\n")
	claim(t, repo, other, top, "refactor auth", "src/**")
	in := bash(lead, "", filepath.Dir(top), "make -C "+filepath.Base(top))
	in.Caps |= client.Unrecorded
	do(t, wholeClient{}, "PreToolUse", in)
	gittest.WriteFile(t, top, "src/a.go", "package src // made\n")
	if a := do(t, wholeClient{}, "PostToolUse", in); !strings.HasPrefix(a.context(), "lucid: your command changed src/a.go") {
		t.Errorf("from the folder above: %q", a.context())
	}
}

// Inside lich (LICH_SESSION_ID), an edit leaves a marker, and another
// session's next edit of the file is told who edited it; a denied edit
// gets no note.
func TestLichMode(t *testing.T) {
	repo := newRepo(t)
	leasesOff(t, repo) // two lich sessions write one file
	path := gittest.WriteFile(t, repo.Top, "a.txt", "hello\n")
	c := wholeClient{}
	post := edit(lead, "", repo.Top, path)
	post.Changed = post.Paths
	t.Setenv("LICH_SESSION_ID", "lich-a")
	if a := do(t, c, "PostToolUse", post); a.stderr != "" {
		t.Fatalf("lich-a's edit: %+v", a)
	}
	t.Setenv("LICH_SESSION_ID", "lich-b")
	a := do(t, c, "PreToolUse", edit(other, "", repo.Top, path))
	if !strings.HasPrefix(a.context(), "lucid: a.txt was changed since your last write of it by lead·30df32 (claude, the lich session lich-a)") {
		t.Errorf("lich-b before its edit: %q", a.context())
	}
	// Written by lich's own guard, a session lucid knows nothing of is
	// named as lich names it.
	if err := lichstore.RecordEdit(repo, path, "lich-c", time.Now()); err != nil {
		t.Fatal(err)
	}
	a = do(t, c, "PreToolUse", edit(other, "", repo.Top, path))
	if !strings.HasPrefix(a.context(), "lucid (lich): "+path+" was also edited by the lich session lich-c") {
		t.Errorf("lich-b after lich-c's edit: %q", a.context())
	}
	claim(t, repo, lead, repo.Top, "a", "a.txt")
	if a := do(t, c, "PreToolUse", edit(other, "", repo.Top, path)); a.out == nil || a.out.Context != "" || a.out.Deny == "" {
		t.Errorf("a denied edit in lich mode: %+v", a.out)
	}
}

// The digest: the plan without its comments, digest.md and only the
// entries after the dream it covers, superseded and retired entries left
// out, evidence cited, and what does not fit the budget counted.
func TestDigest(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	now := time.Now()
	gittest.WriteFile(t, top, ".lucid/plan.md", "# Plan\n<!-- the template's help -->\nShip the login page.\n")
	entry := func(kind, text string) logformat.Entry {
		e := logformat.NewEntry(now, other, kind, text)
		if err := logstore.Append(repo.LogPath(), e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	entry(logformat.KindFact, "before the dream")
	entry(logformat.KindDream, "consolidated")
	old := entry(logformat.KindFact, "the old fact")
	s := logformat.NewEntry(now, other, logformat.KindSupersede, "the new fact")
	s.Supersedes = old.ID
	if err := logstore.Append(repo.LogPath(), s); err != nil {
		t.Fatal(err)
	}
	e := logformat.NewEntry(now, other, logformat.KindFact, "cited")
	e.Evidence = []logformat.Evidence{{Path: "src/a.go", Line: 3}}
	if err := logstore.Append(repo.LogPath(), e); err != nil {
		t.Fatal(err)
	}

	d, err := BuildDigest(repo, DigestOptions{Naming: naming, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if d.Plan != "# Plan\n\nShip the login page." || d.Summary != "" || len(d.Entries) != 3 || d.More {
		t.Errorf("without digest.md: plan %q, summary %q, %d entries, more %v", d.Plan, d.Summary, len(d.Entries), d.More)
	}
	for _, want := range []string{"## Active claims\nnone\n", "- [replaces " + old.ID + "] «the new fact»", "  evidence: src/a.go:3"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("the digest lacks %q:\n%s", want, d.Text)
		}
	}
	if strings.Contains(d.Text, "the old fact") || strings.Contains(d.Text, "template's help") {
		t.Errorf("the digest holds a superseded entry or the plan's comment:\n%s", d.Text)
	}

	gittest.WriteFile(t, top, ".lucid/digest.md", "Everything up to the dream.\n")
	d, err = BuildDigest(repo, DigestOptions{Naming: naming, Now: now, Claims: []string{"- src/**: someone"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Summary != "Everything up to the dream." || d.SinceDream == "" || strings.Contains(d.Text, "before the dream") ||
		!strings.Contains(d.Text, "## Consolidated digest (.lucid/digest.md)\n│ Everything up to the dream.\n") || !strings.Contains(d.Text, "- src/**: someone") {
		t.Errorf("with digest.md:\n%s", d.Text)
	}

	gittest.WriteFile(t, top, ".lucid/plan.md", strings.Repeat("A long plan line.\n", 200))
	d, err = BuildDigest(repo, DigestOptions{Naming: naming, Now: now, Budget: 1500})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Text) > 1500 || !strings.Contains(d.Text, "… (cut: read .lucid/plan.md for the rest)") || !d.More {
		t.Errorf("a digest over its budget (%d bytes, more %v):\n%s", len(d.Text), d.More, d.Text)
	}
	// A cut never splits a character.
	if got := clip(strings.Repeat("é", 20), 15, ""); got != "éé\n… (cut)" {
		t.Errorf("clip inside a character: %q", got)
	}
}

// Claims hold for the repository that holds the written path wherever the
// session runs: in a repository nested in the work tree, in a work tree
// whose branch has no .lucid/ (the claims are in the common git dir); a
// violation there is recorded in the main work tree's log.
func TestClaimsHoldAnywhere(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	gittest.WriteFile(t, top, "src/a.go", "package a\n")
	gittest.CommitAll(t, top, "first")
	wt := filepath.Join(filepath.Dir(top), "wt")
	gittest.Run(t, top, "worktree", "add", "-q", "-b", "old", wt)
	gittest.Run(t, wt, "rm", "-q", "-r", ".lucid")
	gittest.CommitAll(t, wt, "a branch from before lucid")
	claim(t, repo, sub, top, "rewrite auth", "src/**")
	c := wholeClient{}

	nested := filepath.Join(top, "vendor", "lib")
	os.MkdirAll(nested, 0o755)
	gittest.Run(t, nested, "init", "-q")
	if a := do(t, c, "PreToolUse", bash(other, "", nested, "echo x >> ../../src/a.go")); a.out == nil || !strings.HasPrefix(a.out.Deny, "lucid: src/a.go is claimed by agent·a2adb9") {
		t.Errorf("from a nested repository: %+v", a.out)
	}

	// In the work tree without .lucid/, a claim made there holds, and a
	// violation is recorded in the main work tree's log.
	if _, _, err := claims.Acquire(repo, claims.Request{Owner: other, Worktree: wt, Task: "old api", Globs: []string{"api/**"}, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if a := do(t, c, "PreToolUse", edit(lead, "", wt, "api/v1.go")); a.out == nil || !strings.HasPrefix(a.out.Deny, "lucid: api/v1.go is claimed by lead·0b2182") {
		t.Errorf("in a work tree without .lucid/: %+v", a.out)
	}
	in := bash(lead, "", wt, "make")
	in.Changed = []string{filepath.Join(wt, "api/v1.go")}
	if a := do(t, c, "PostToolUse", in); !strings.HasPrefix(a.context(), "lucid: your command changed api/v1.go") {
		t.Errorf("after a command there: %q", a.context())
	}
	if v := entries(t, repo, logformat.KindViolation); len(v) != 1 || !strings.HasPrefix(v[0].Text, "changed api/v1.go") {
		t.Errorf("violations in the main log: %+v", v)
	}
}

// The delta keeps to its budget (LUCID_BUDGET): what does not fit is
// counted, and seen all the same.
func TestDeltaBudget(t *testing.T) {
	repo := newRepo(t)
	t.Setenv("LUCID_BUDGET", "600")
	c := wholeClient{}
	read := client.Input{SessionID: lead, Cwd: repo.Top, ToolName: "Read"}
	do(t, c, "SessionStart", read)
	for i := range 20 {
		record(t, repo, other, logformat.KindNote, strings.Repeat("n", 40)+string(rune('a'+i)))
	}
	a := do(t, c, "PreToolUse", read)
	if !strings.HasPrefix(a.context(), "lucid: 20 new log entries") || !strings.Contains(a.context(), " more: `lucid log`\n") || len(a.context()) > 600 {
		t.Errorf("a delta over its budget (%d bytes): %q", len(a.context()), a.context())
	}
	if a := do(t, c, "PreToolUse", read); a.out != nil {
		t.Errorf("what did not fit came again: %+v", a.out)
	}
}
