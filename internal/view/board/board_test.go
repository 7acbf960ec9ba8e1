package board

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/talk"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// naming names the agents as lucid-view does.
var naming = identity.Naming()

func newRepo(t *testing.T) *gitstore.Repo {
	gittest.Setenv(t)
	return repotest.Lucid(t)
}

// agent saves a record for id, as its first hook call would, reading the
// log from its end now.
func agent(t *testing.T, repo *gitstore.Repo, id, client string) {
	t.Helper()
	end, err := logstore.EndCursor(repo.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := agentstore.Save(repo, agentstore.Record{ID: id, Client: client, Worktree: repo.Top, Cursor: end}); err != nil {
		t.Fatal(err)
	}
}

func claim(t *testing.T, repo *gitstore.Repo, owner, task string, globs ...string) {
	t.Helper()
	if _, _, err := claims.Acquire(repo, claims.Request{Owner: owner, Worktree: repo.Top, Task: task, Globs: globs, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

func find[T any](t *testing.T, list []T, what string, ok func(T) bool) T {
	t.Helper()
	i := slices.IndexFunc(list, ok)
	if i < 0 {
		t.Fatalf("no %s in %+v", what, list)
	}
	return list[i]
}

// What a person checks on the board: who works, who holds what, what each
// has not read, who waits on whose claim, and what went wrong.
func TestLoad(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/auth/login.go", "package auth\n")
	gittest.WriteFile(t, repo.Top, "README.md", "hello\n")
	agent(t, repo, "sess-a", "")
	agent(t, repo, "sess-b", "codex")
	claim(t, repo, "sess-a", "fix login", "src/auth/**")

	// Three entries of a's that b has not read, a message for b, and one of
	// b's own.
	for _, text := range []string{"one", "two"} {
		if _, err := logstore.Record(repo, "sess-a", "fact", text, repo.Top, nil); err != nil {
			t.Fatal(err)
		}
	}
	stale, err := logstore.Record(repo, "sess-a", "fact", "login checks the token", repo.Top, []string{"src/auth/login.go"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := talk.Send(repo, "sess-a", []string{"sess-b"}, "leave auth to me", false, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := logstore.Record(repo, "sess-b", "note", "mine", repo.Top, nil); err != nil {
		t.Fatal(err)
	}
	violation := logformat.NewEntry(time.Now(), "sess-b", logformat.KindViolation, "make wrote src/auth/login.go, claimed by sess-a")
	if err := logstore.Append(repo.LogPath(), violation); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, repo.Top, "src/auth/login.go", "package auth // changed\n")
	set, _ := claims.Load(repo, time.Now())
	if err := agentstore.SaveDenial(repo, "sess-b", agentstore.Denial{At: time.Now(), Path: "src/auth/login.go", Claim: set.Claims[0].ID, Owner: "sess-a", Glob: "src/auth/**"}); err != nil {
		t.Fatal(err)
	}
	// A subagent that edited and recorded nothing, and ended.
	agent(t, repo, "sess-a/agent-1", "")
	rec, _, _ := agentstore.Load(repo, "sess-a/agent-1")
	rec.Edits = 2
	agentstore.Save(repo, rec)
	agentstore.MarkEnded(repo, "sess-a/agent-1")

	b, err := Load(repo, naming, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	a := find(t, b.Agents, "agent a", func(a Agent) bool { return a.ID == "sess-a" })
	bb := find(t, b.Agents, "agent b", func(a Agent) bool { return a.ID == "sess-b" })
	sub := find(t, b.Agents, "the subagent", func(a Agent) bool { return a.ID == "sess-a/agent-1" })
	if a.State != Working || a.Client != "claude" || len(a.Claims) != 1 {
		t.Errorf("agent a: %+v", a)
	}
	if bb.Client != "codex" || bb.Unread != 3 || bb.Waiting != 1 || bb.UnreadMore {
		t.Errorf("agent b should have 3 entries unread and 1 message waiting: %+v", bb)
	}
	if bb.Denied == nil || bb.Denied.Path != "src/auth/login.go" || bb.Denied.Owner != "sess-a" {
		t.Errorf("agent b should be waiting on a's claim: %+v", bb.Denied)
	}
	if sub.State != Ended {
		t.Errorf("the subagent should have ended: %+v", sub)
	}
	c := find(t, b.Claims, "a's claim", func(c Claim) bool { return c.Owner == "sess-a" })
	if !c.Active || c.Task != "fix login" || !slices.Equal(c.Globs, []string{"src/auth/**"}) || c.Ends.IsZero() || c.Label != a.Label {
		t.Errorf("a's claim: %+v", c)
	}
	for kind, want := range map[string]string{NoticeViolation: violation.ID, NoticeStale: stale.ID, NoticeDenied: "", NoticeUnreported: ""} {
		n := find(t, b.Notices, kind+" notice", func(n Notice) bool { return n.Kind == kind })
		if n.Entry != want || n.ID == "" || n.Text == "" {
			t.Errorf("%s notice: %+v", kind, n)
		}
	}
	again, _ := Load(repo, naming, time.Now())
	for i := range b.Notices {
		if again.Notices[i].ID != b.Notices[i].ID {
			t.Errorf("a notice's id changed from one board to the next: %q, %q", b.Notices[i].ID, again.Notices[i].ID)
		}
	}

	// Once a person ends the claim, b waits on nothing, and a is told.
	released, err := Release(repo, "sess-a", nil, "b needs it")
	if err != nil || !slices.Equal(released, []string{"src/auth/**"}) {
		t.Fatalf("Release = %v, %v", released, err)
	}
	b, _ = Load(repo, naming, time.Now())
	if bb := find(t, b.Agents, "agent b", func(a Agent) bool { return a.ID == "sess-b" }); bb.Denied != nil || len(b.Claims) != 0 {
		t.Errorf("after the release: b %+v, claims %+v", bb.Denied, b.Claims)
	}
	page, _ := Log(t.Context(), repo, naming, LogQuery{N: 1})
	if e := page.Entries[0]; e.Kind != logformat.KindRelease || e.Agent != agentstore.AgentHuman || e.Owner != "sess-a" || e.Text != "b needs it" {
		t.Errorf("the release as logged: %+v", e)
	}
	if _, err := Release(repo, "sess-a", nil, ""); err == nil {
		t.Error("releasing claims no longer held should be refused")
	}
}

// The log a page at a time, newest first, and what was appended since.
func TestLogPages(t *testing.T) {
	repo := newRepo(t)
	var ids []string
	for i := range 7 {
		e, err := logstore.Record(repo, "sess-a", "fact", "fact number "+string(rune('a'+i)), repo.Top, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	tail, _ := End(repo)
	var got []string
	before := ""
	for pages := 0; ; pages++ {
		p, err := Log(t.Context(), repo, naming, LogQuery{N: 3, Before: before})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Entries {
			got = append(got, e.ID)
		}
		if !p.More {
			if pages != 2 {
				t.Errorf("7 entries in pages of 3 took %d pages", pages+1)
			}
			break
		}
		before = p.Entries[len(p.Entries)-1].ID
	}
	slices.Reverse(got)
	if !slices.Equal(got, ids) {
		t.Errorf("paged: %v, want %v", got, ids)
	}
	if p, _ := Log(t.Context(), repo, naming, LogQuery{Words: "number c"}); len(p.Entries) == 0 || p.Entries[0].ID != ids[2] {
		t.Errorf("searching for 'number c': %+v", p.Entries)
	}
	if _, err := Log(t.Context(), repo, naming, LogQuery{Kind: "gossip"}); err == nil || !strings.Contains(err.Error(), "fact") {
		t.Errorf("an unknown kind: %v", err)
	}
	// A page asks for paths in the work tree only, and names entries by id.
	for _, q := range []LogQuery{{Path: "../../etc"}, {Path: "/etc/passwd"}, {Path: "src/../../x"}, {Before: "x"}, {Before: "../log"}} {
		if _, err := Log(t.Context(), repo, naming, q); err == nil {
			t.Errorf("Log(%+v) answered", q)
		}
	}

	e, _ := Record(repo, "decision", "use <b>tokens</b>")
	news, next, rewritten, err := Since(repo, naming, tail, 10)
	if err != nil || rewritten || len(news) != 1 || news[0].ID != e.ID || news[0].Label == "" {
		t.Fatalf("Since = %+v, %v, %v", news, rewritten, err)
	}
	if news, _, _, _ := Since(repo, naming, next, 10); len(news) != 0 {
		t.Errorf("nothing appended since, yet %+v", news)
	}
	// A rewrite of the log (a checkout) starts the reader again.
	b, _ := os.ReadFile(repo.LogPath())
	gitstore.WriteFileAtomic(repo.LogPath(), b[:len(b)/2], 0o644)
	if _, _, rewritten, _ := Since(repo, naming, next, 10); !rewritten {
		t.Error("a log cut in half was not seen as rewritten")
	}
}

// The person's writes are recorded as a person's, as the commands record
// them.
func TestActions(t *testing.T) {
	repo := newRepo(t)
	agent(t, repo, "sess-a", "")
	p, err := LoadPlan(repo, naming, 10)
	if err != nil {
		t.Fatal(err)
	}
	e, err := WritePlan(repo, "1. ship the page\n", p.Hash)
	if err != nil || e.Kind != logformat.KindPlan || e.Agent != agentstore.AgentHuman || !strings.Contains(e.Diff, "+1. ship the page") {
		t.Fatalf("WritePlan = %+v, %v", e, err)
	}
	if _, err := WritePlan(repo, "2. something else\n", p.Hash); err != ErrPlanChanged {
		t.Errorf("a write from a stale copy of the plan: %v", err)
	}
	p, _ = LoadPlan(repo, naming, 10)
	if p.Text != "1. ship the page\n" || len(p.History) != 1 || p.History[0].ID != e.ID {
		t.Errorf("the plan after the write: %+v", p)
	}
	// An agent's edit no hook saw yet stays the agent's (the user's).
	os.WriteFile(repo.PlanPath(), []byte("1. ship the page\n2. and the tests\n"), 0o644)
	p, _ = LoadPlan(repo, naming, 10)
	if _, err := WritePlan(repo, "1. ship the page\n2. and the tests\n3. then rest\n", p.Hash); err != nil {
		t.Fatal(err)
	}
	p, _ = LoadPlan(repo, naming, 10)
	if len(p.History) != 3 || p.History[1].Agent != agentstore.AgentUser || p.History[0].Agent != agentstore.AgentHuman {
		t.Errorf("history: %+v", p.History)
	}

	n, err := Record(repo, "note", "read the page")
	if err != nil || n.Agent != agentstore.AgentHuman {
		t.Fatalf("Record = %+v, %v", n, err)
	}
	if _, err := Record(repo, "plan", "x"); err == nil {
		t.Error("recording a plan entry by hand should be refused")
	}
	s, err := Supersede(repo, n.ID, "not needed", true)
	if err != nil || s.Supersedes != n.ID || !s.Retired {
		t.Fatalf("Supersede = %+v, %v", s, err)
	}
	if _, err := Supersede(repo, n.ID, "again", true); err == nil {
		t.Error("retiring a retired entry should be refused")
	}
	m, err := Send(repo, naming, "sess-a", "stop", false)
	if err != nil || !slices.Equal(m.To, []string{"sess-a"}) || m.Agent != agentstore.AgentHuman {
		t.Fatalf("Send = %+v, %v", m, err)
	}
	if _, err := Send(repo, naming, "nobody", "hi", false); err == nil {
		t.Error("a message to no one should be refused")
	}
}

// The tree shows each claim over what it covers, and who edited a file.
func TestTree(t *testing.T) {
	repo := newRepo(t)
	for _, f := range []string{"src/a.go", "src/b/c.go", "docs/x.md"} {
		gittest.WriteFile(t, repo.Top, f, "x\n")
	}
	agent(t, repo, "sess-a", "")
	claim(t, repo, "sess-a", "t", "src/b/**", "new.go")
	b, _ := Load(repo, naming, time.Now())
	tree, err := LoadTree(repo, naming, b, "")
	if err != nil {
		t.Fatal(err)
	}
	claimed := map[string]bool{}
	for _, f := range tree.Files {
		if len(f.Claims) > 0 {
			claimed[f.Path] = true
		}
	}
	if !claimed["src/b/c.go"] || !claimed["new.go"] || claimed["src/a.go"] || len(claimed) != 2 {
		t.Errorf("claimed files: %v", claimed)
	}
	if _, err := LoadTree(repo, naming, b, filepath.Dir(repo.Top)); err != ErrUnknownTree {
		t.Errorf("a folder outside the repository: %v", err)
	}

	// Another machine's claim, from the copy of the remote's, is shown as
	// that machine's and laid over the same files here; the folder it
	// names is that machine's, and not listed.
	far := claimstore.Claim{ID: "far-claim", Owner: "sess-far", Created: time.Now(), Worktree: "/home/far/repo", Task: "far work",
		Globs: []string{"docs/**"}, Machine: "laptop-2", Expires: time.Now().Add(time.Hour)}
	if err := remoteclaims.SaveCopy(repo, []claimstore.Claim{far}); err != nil {
		t.Fatal(err)
	}
	// And an edit lich's marker names.
	if err := lichstore.RecordEdit(repo, filepath.Join(repo.Top, "src/a.go"), "sess-a", time.Now()); err != nil {
		t.Fatal(err)
	}
	b, _ = Load(repo, naming, time.Now())
	c := find(t, b.Claims, "the other machine's claim", func(c Claim) bool { return c.ID == far.ID })
	if c.Machine != "laptop-2" || !c.Active || b.Fetched.IsZero() {
		t.Errorf("the other machine's claim: %+v, copy fetched %v", c, b.Fetched)
	}
	tree, err = LoadTree(repo, naming, b, "")
	if err != nil {
		t.Fatal(err)
	}
	if f := find(t, tree.Files, "docs/x.md", func(f File) bool { return f.Path == "docs/x.md" }); !slices.Equal(f.Claims, []string{far.ID}) {
		t.Errorf("docs/x.md under the other machine's claim: %+v", f)
	}
	if f := find(t, tree.Files, "src/a.go", func(f File) bool { return f.Path == "src/a.go" }); len(f.Edits) != 1 || f.Edits[0].Agent != "sess-a" || f.Edits[0].Label == "" {
		t.Errorf("src/a.go's recent edits: %+v", f.Edits)
	}
	if _, err := LoadTree(repo, naming, b, far.Worktree); err != ErrUnknownTree {
		t.Errorf("the other machine's folder: %v", err)
	}
}

// The tree lists the files of the work tree asked for, whatever the
// environment the page was started in says of another repository: a
// GIT_DIR left over in a shell does not show that repository's files.
func TestTreeIgnoresGitEnvironment(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "here.go", "x\n")
	other := gittest.Init(t)
	gittest.WriteFile(t, other, "elsewhere.go", "x\n")
	gittest.CommitAll(t, other, "other")
	b, _ := Load(repo, naming, time.Now())
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	tree, err := LoadTree(repo, naming, b, "")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range tree.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Contains(paths, "here.go") || slices.Contains(paths, "elsewhere.go") {
		t.Errorf("the tree of %s with GIT_DIR=%s/.git: %v", repo.Top, other, paths)
	}
}

// A claim made in a linked work tree is laid over that tree's files, not
// the main one's, and the board opened in either shows both trees' agents.
func TestLinkedWorkTree(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/a.go", "x\n")
	gittest.CommitAll(t, repo.Top, "src")
	linkedTop := filepath.Join(t.TempDir(), "linked")
	gittest.Run(t, repo.Top, "worktree", "add", "-q", "-b", "side", linkedTop)
	linked, err := gitstore.Find(linkedTop)
	if err != nil {
		t.Fatal(err)
	}
	agent(t, repo, "sess-main", "")
	end, _ := logstore.EndCursor(linked.LogPath())
	agentstore.Save(linked, agentstore.Record{ID: "sess-side", Client: "codex", Worktree: linked.Top, Cursor: end})
	if _, _, err := claims.Acquire(linked, claims.Request{Owner: "sess-side", Worktree: linked.Top, Task: "side work", Globs: []string{"src/**"}, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	b, err := Load(repo, naming, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	side := find(t, b.Agents, "the linked tree's agent", func(a Agent) bool { return a.ID == "sess-side" })
	if side.Worktree != linked.Top || len(side.Claims) != 1 {
		t.Errorf("the linked tree's agent: %+v", side)
	}
	for top, want := range map[string]bool{repo.Top: false, linked.Top: true} {
		tree, err := LoadTree(repo, naming, b, top)
		if err != nil {
			t.Fatal(err)
		}
		f := find(t, tree.Files, "src/a.go", func(f File) bool { return f.Path == "src/a.go" })
		if got := len(f.Claims) > 0; got != want {
			t.Errorf("in the tree of %s, src/a.go claimed: %v, want %v", top, got, want)
		}
	}
}

// writeEntries appends n notes to the log at once, as a merge would.
func writeEntries(t *testing.T, repo *gitstore.Repo, n int, text string) {
	t.Helper()
	f, err := os.OpenFile(repo.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b []byte
	at := time.Now().Add(-time.Hour)
	for i := range n {
		line, err := logformat.EncodeEntry(logformat.NewEntry(at.Add(time.Duration(i)*time.Millisecond), "human", logformat.KindNote, fmt.Sprintf("%s %d", text, i)))
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, line...)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// Since reads what was appended from the log's end, no further back than
// its max: a reader whose tail is of an empty log, with 100,000 entries
// appended since, is told to reload without the entries being read (the
// page's catch-up read them all into memory, 320 MB at 200,000); up to
// max, it gets them, oldest first, and an unfinished last line waits.
func TestSinceReadsFromTheTail(t *testing.T) {
	repo := newRepo(t)
	empty, err := End(repo)
	if err != nil || empty.Size != 0 {
		t.Fatalf("the tail of an empty log: %+v, %v", empty, err)
	}
	writeEntries(t, repo, 100000, "appended while the page slept")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	news, next, reload, err := Since(repo, naming, empty, 500)
	runtime.ReadMemStats(&after)
	if err != nil || !reload || len(news) != 0 || next.Size == 0 {
		t.Fatalf("Since an empty log's tail = %d entries, %+v, reload %v, %v; want a reload", len(news), next, reload, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("Since an empty log's tail allocated %d MB: it read more than 500 entries", got>>20)
	}

	writeEntries(t, repo, 500, "a page's worth")
	f, _ := os.OpenFile(repo.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"id":"01M`) // unfinished
	f.Close()
	news, next2, reload, err := Since(repo, naming, next, 500)
	if err != nil || reload || len(news) != 500 || news[0].Text != "a page's worth 0" || news[499].Text != "a page's worth 499" {
		t.Fatalf("Since after 500 = %d entries, reload %v, %v", len(news), reload, err)
	}
	if fi, _ := os.Stat(repo.LogPath()); next2.Size != fi.Size()-int64(len(`{"id":"01M`)) {
		t.Errorf("the tail %d is not before the unfinished line (log of %d)", next2.Size, fi.Size())
	}
	if _, _, reload, _ := Since(repo, naming, next, 499); !reload {
		t.Error("500 appended, at most 499 wanted: no reload")
	}
}

// Where the file system folds case, a claim and an edit marker spelled
// otherwise mark the file git lists, and list no second file.
func TestTreeFoldsCase(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/Match.go", "x\n")
	gittest.Run(t, repo.Top, "config", "core.ignorecase", "true")
	agent(t, repo, "sess-a", "")
	claim(t, repo, "sess-a", "t", "SRC/MATCH.GO", "Docs/**")
	if err := lichstore.RecordEdit(repo, filepath.Join(repo.Top, "SRC/match.GO"), "sess-a", time.Now()); err != nil {
		t.Fatal(err)
	}
	b, _ := Load(repo, naming, time.Now())
	tree, err := LoadTree(repo, naming, b, "")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range tree.Files {
		paths = append(paths, f.Path)
		if f.Path == "src/Match.go" && (len(f.Claims) != 1 || len(f.Edits) != 1) {
			t.Errorf("src/Match.go: claims %v, edits %v", f.Claims, f.Edits)
		}
	}
	if slices.ContainsFunc(paths, func(p string) bool { return strings.EqualFold(p, "src/match.go") && p != "src/Match.go" }) ||
		!slices.Contains(paths, "src/Match.go") {
		t.Errorf("the tree lists %v, want src/Match.go once", paths)
	}
}
