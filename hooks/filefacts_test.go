package hooks

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// What the log knows of a file reaches the agent about to edit it, once.

// citing appends an entry of agent whose evidence cites paths, as
// `lucid fact -e PATH` does, and returns it.
func citing(t *testing.T, repo *gitstore.Repo, agent, kind, text string, paths ...string) logformat.Entry {
	t.Helper()
	e := logformat.NewEntry(time.Now(), agent, kind, text)
	for _, p := range paths {
		ev, err := logstore.Cite(repo, repo.Top, p)
		if err != nil {
			t.Fatal(err)
		}
		e.Evidence = append(e.Evidence, ev)
	}
	if err := logstore.Append(repo.LogPath(), e); err != nil {
		t.Fatal(err)
	}
	return e
}

// factsRepo is a repository with src/auth.go and src/db.go, and an entry
// of another session citing src/auth.go, older than the lead's start.
func factsRepo(t *testing.T) (*gitstore.Repo, logformat.Entry) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/auth.go", "package src\n\nfunc Login() {}\n")
	gittest.WriteFile(t, repo.Top, "src/db.go", "package src\n")
	e := citing(t, repo, other, logformat.KindFact, "tokens expire after 15 minutes", "src/auth.go:3")
	pad(t, repo)
	return repo, e
}

// pad appends notes that take the digest's room, so that it lists none
// of the entries before them.
func pad(t *testing.T, repo *gitstore.Repo) {
	for i := range 80 {
		record(t, repo, other, logformat.KindNote, fmt.Sprintf("note %d on something else, with words enough to fill a line of the digest", i))
	}
}

// An entry the agent's digest listed is not given again at an edit.
func TestFileFactsNotAfterTheDigest(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/auth.go", "package src\n")
	e := citing(t, repo, other, logformat.KindFact, "tokens expire after 15 minutes", "src/auth.go")
	c := wholeClient{}
	if got := do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top}).context(); !strings.Contains(got, e.ID) {
		t.Fatalf("the digest does not list the entry: %q", got)
	}
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/auth.go")).context(); got != "" {
		t.Errorf("the edit was told %q, which the digest said", got)
	}
}

// An entry from before the agent's start that cites the file it edits is
// given at its first edit of that file, and never again; another file's
// edit is told nothing.
func TestFileFactsGivenOnce(t *testing.T) {
	repo, e := factsRepo(t)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/db.go")).context(); got != "" {
		t.Errorf("an edit of a file nothing cites was told %q", got)
	}
	got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/auth.go")).context()
	for _, want := range []string{"what the log knows of src/auth.go", "tokens expire after 15 minutes", e.ID, "evidence: src/auth.go:3"} {
		if !strings.Contains(got, want) {
			t.Errorf("the first edit of src/auth.go was told %q, want %q in it", got, want)
		}
	}
	if strings.Contains(got, "⚠stale") {
		t.Errorf("fresh evidence marked stale: %q", got)
	}
	for range 2 {
		if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, repo.Top+"/src/auth.go")).context(); got != "" {
			t.Errorf("a later edit of src/auth.go was told %q", got)
		}
	}
	// Another agent has its own once.
	do(t, c, "SubagentStart", client.Input{SessionID: lead, AgentID: subID, AgentType: "general-purpose", Cwd: repo.Top})
	if got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "src/auth.go")).context(); strings.Count(got, e.ID) != 1 {
		t.Errorf("the subagent's first edit was told %q, want the entry once", got)
	}
	if got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "src/auth.go")).context(); got != "" {
		t.Errorf("the subagent's second edit was told %q", got)
	}
}

// An entry that arrives after the agent's start reaches it in its delta,
// and is not said again as what is known of the file; the agent's own
// entries are not told to it; a superseded entry is not given, its
// replacement is; a stale citation comes with its mark.
func TestFileFactsLiveOnly(t *testing.T) {
	repo, old := factsRepo(t)
	leasesOff(t, repo) // two sessions write one file
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	citing(t, repo, lead, logformat.KindNote, "my own note on auth", "src/auth.go")
	s := logformat.NewEntry(time.Now(), other, logformat.KindSupersede, "tokens expire after 30 minutes now")
	s.Supersedes = old.ID
	s.Evidence = []logformat.Evidence{mustCite(t, repo, "src/auth.go:3")}
	if err := logstore.Append(repo.LogPath(), s); err != nil {
		t.Fatal(err)
	}
	news := citing(t, repo, other, logformat.KindDecision, "keep the login flow in one function", "src/auth.go")
	gittest.WriteFile(t, repo.Top, "src/auth.go", "package src\n\n// Login logs in.\nfunc Login() {}\n")

	got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/auth.go")).context()
	if strings.Count(got, news.ID) != 1 || strings.Count(got, s.ID) != 1 {
		t.Errorf("the edit was told %q: want the replacement and the decision once each (in the delta)", got)
	}
	if strings.Contains(got, "what the log knows of") {
		t.Errorf("what the delta gave was given again as what is known of the file: %q", got)
	}
	if strings.Contains(got, "tokens expire after 15 minutes") {
		t.Errorf("a superseded entry was given: %q", got)
	}

	// Another session, whose first look is this edit (no start), was
	// shown none of it.
	got = do(t, c, "PreToolUse", edit("5c1e2f3a-1111-4222-8333-944455556666", "", repo.Top, "src/auth.go")).context()
	for _, want := range []string{s.ID, news.ID, "my own note on auth", "⚠stale: src/auth.go changed (line 3 is now at 4)"} {
		if !strings.Contains(got, want) {
			t.Errorf("a new session's edit was told %q, want %q in it", got, want)
		}
	}
	if strings.Contains(got, "15 minutes") {
		t.Errorf("the superseded entry was given: %q", got)
	}
	// The lead wrote the note: it is not told of it, only that the other
	// session changed the file since.
	got = do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/auth.go")).context()
	if strings.Contains(got, "my own note on auth") || strings.Contains(got, news.ID) {
		t.Errorf("the lead's later edit was told %q", got)
	}
	if !strings.HasPrefix(got, "lucid: src/auth.go was changed since your last write of it by lead·5c1e2f") || strings.Contains(got, "is now editing") {
		t.Errorf("the lead's later edit was told %q; want once that the other session changed the file", got)
	}
}

func mustCite(t *testing.T, repo *gitstore.Repo, spec string) logformat.Evidence {
	t.Helper()
	ev, err := logstore.Cite(repo, repo.Top, spec)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// Many entries on one file: the newest that fit the budget, and a count
// of the rest with the command that lists them; the rest is not given at
// the next edit.
func TestFileFactsBudget(t *testing.T) {
	repo, _ := factsRepo(t)
	for i := range 40 {
		citing(t, repo, other, logformat.KindFact, fmt.Sprintf("fact %02d about the login, long enough to take room in the budget of the hook", i), "src/auth.go")
	}
	pad(t, repo)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/auth.go")).context()
	if len(got) > factsBudget+300 {
		t.Errorf("the edit was told %d bytes, over the budget of %d", len(got), factsBudget)
	}
	if !strings.Contains(got, "fact 39") || strings.Contains(got, "fact 00") {
		t.Errorf("want the newest first: %q", got)
	}
	if !strings.Contains(got, " more: `lucid log --path src/auth.go`") {
		t.Errorf("the rest is not counted: %q", got)
	}
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/auth.go")).context(); got != "" {
		t.Errorf("the next edit was told %q", got)
	}
}

// Parallel edits of one agent: the entry reaches one of them.
func TestFileFactsParallelOnce(t *testing.T) {
	repo, e := factsRepo(t)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/auth.go")).context()
		}()
	}
	wg.Wait()
	if n := strings.Count(strings.Join(got, ""), e.ID); n != 1 {
		t.Errorf("8 parallel edits gave the entry %d times: %q", n, got)
	}
}

// A client whose PreToolUse shows the model nothing gets it with the
// call's PostToolUse; a shell command's named writes count.
func TestFileFactsAfterAMuteCall(t *testing.T) {
	repo, e := factsRepo(t)
	c := wholeClient{name: "gemini"}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	pre := bash(lead, "", repo.Top, "sed -i s/Login/SignIn/ src/auth.go > src/auth.go.out")
	pre.Caps |= client.Mute | client.NewsAfter
	if got := do(t, c, "PreToolUse", pre).context(); got != "" {
		t.Errorf("a mute PreToolUse said %q", got)
	}
	post := bash(lead, "", repo.Top, "echo hi > src/auth.go")
	post.Caps |= client.NewsAfter | client.Unrecorded
	if got := do(t, c, "PostToolUse", post).context(); strings.Count(got, e.ID) != 1 {
		t.Errorf("the PostToolUse was told %q, want the entry once", got)
	}
	if got := do(t, c, "PostToolUse", post).context(); strings.Contains(got, e.ID) {
		t.Errorf("the next PostToolUse was told %q", got)
	}
}

// A log rewritten under the index (a checkout of another branch) is
// indexed anew: the places of the old log are not read in the new.
func TestFileFactsRewrittenLog(t *testing.T) {
	repo, old := factsRepo(t)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/db.go")) // the index is built
	if !logstore.CitesFresh(repo) {
		t.Fatal("the index is not fresh after an edit")
	}
	// Another branch's log: other entries, other places.
	b := logformat.NewEntry(time.Now(), other, logformat.KindFact, "the other branch says db.go is generated")
	b.Evidence = []logformat.Evidence{mustCite(t, repo, "src/db.go")}
	line, err := logformat.EncodeEntry(b)
	if err != nil {
		t.Fatal(err)
	}
	tmp := repo.LogPath() + ".new"
	if err := os.WriteFile(tmp, append([]byte(`{"id":"01JEX0000000000000000000AA","at":"2024-12-01T10:00:00.000Z","agent":"x","kind":"note","text":"padding padding padding padding padding"}`+"\n"), line...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, repo.LogPath()); err != nil {
		t.Fatal(err)
	}
	got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/db.go", "src/auth.go")).context()
	if !strings.Contains(got, "db.go is generated") || strings.Contains(got, old.ID) {
		t.Errorf("after the rewrite the edit was told %q: want the new branch's entry, not the old one", got)
	}
}

// What an edit pays with nothing new for the agent, beside an edit of a
// file nothing cites: 1,000 live entries citing 100 files.
func BenchmarkFileFactsNothingNew(b *testing.B) {
	t := &testing.T{}
	gittest.Setenv(b)
	repo, err := gitstore.Find(gittest.Init(b))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := repo.Init(); err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		gittest.WriteFile(b, repo.Top, fmt.Sprintf("pkg/f%d.go", i), "package pkg\n")
	}
	for i := range 1000 {
		e := logformat.NewEntry(time.Now(), other, logformat.KindFact, fmt.Sprintf("fact %d", i))
		ev, err := logstore.Cite(repo, repo.Top, fmt.Sprintf("pkg/f%d.go", i%100))
		if err != nil {
			b.Fatal(err)
		}
		e.Evidence = []logformat.Evidence{ev}
		if err := logstore.Append(repo.LogPath(), e); err != nil {
			b.Fatal(err)
		}
	}
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "pkg/f42.go")).context(); !strings.Contains(got, "fact 942") {
		b.Fatalf("the first edit was told %q", got)
	}
	// fileFacts alone, as the hook runs it with the delta's record.
	b.Run("fileFacts", func(b *testing.B) {
		rec, _, _ := agentstore.Load(repo, lead)
		for b.Loop() {
			cl := &call{naming: naming, in: edit(lead, "", repo.Top, "pkg/f42.go"), repo: repo, home: true, agent: lead, now: time.Now(), looked: &rec}
			if got, err := cl.fileFacts([]string{"pkg/f42.go"}); got != "" || err != nil {
				b.Fatalf("told %q, %v", got, err)
			}
		}
	})
	for _, file := range []string{"pkg/f42.go", "pkg/none.go"} {
		b.Run(file, func(b *testing.B) {
			for b.Loop() {
				if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, file)).context(); got != "" {
					b.Fatalf("told %q", got)
				}
			}
		})
	}
}

// A compaction took what the agent was given from its context: its next
// edit of the file, which carries the digest again, is given it again.
func TestFileFactsAgainAfterCompaction(t *testing.T) {
	repo, e := factsRepo(t)
	c := wholeClient{}
	in := client.Input{SessionID: lead, AgentID: subID, Cwd: repo.Top}
	do(t, c, "SubagentStart", in)
	if got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "src/auth.go")).context(); strings.Count(got, e.ID) != 1 {
		t.Fatalf("the first edit was told %q", got)
	}
	do(t, c, "PreCompact", in)
	got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "src/auth.go")).context()
	if !strings.HasPrefix(got, "# lucid: what the agents in this repository share") || strings.Count(got, e.ID) != 1 {
		t.Errorf("the edit after the compaction was told %q: want the digest, and the entry once", got)
	}
	if got := do(t, c, "PreToolUse", edit(lead, subID, repo.Top, "src/auth.go")).context(); got != "" {
		t.Errorf("the next edit was told %q", got)
	}
}

// A shell command's writes, as the guard reads them, count as an edit's.
func TestFileFactsOfAShellWrite(t *testing.T) {
	repo, e := factsRepo(t)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	if got := do(t, c, "PreToolUse", bash(lead, "", repo.Top, "cat src/auth.go > /dev/null")).context(); got != "" {
		t.Errorf("a command that only reads the file was told %q", got)
	}
	if got := do(t, c, "PreToolUse", bash(lead, "", repo.Top+"/src", "gofmt -l . > auth.go")).context(); strings.Count(got, e.ID) != 1 {
		t.Errorf("a command writing src/auth.go was told %q, want the entry once", got)
	}
}

// One call is told at most factsBudget of all the files it writes, every
// header and count included: a command writing 300 cited files (each
// cited by two entries from before the agent's start) is told the newest
// of the first files, and the rest is counted, naming the files as far as
// room allows (it was told 38,532 characters). What was counted is not
// told again.
func TestFileFactsBudgetPerCall(t *testing.T) {
	var files []string
	for i := range 300 {
		files = append(files, fmt.Sprintf("pkg/f%03d.go", i))
	}
	for _, call := range []func(top string) client.Input{
		func(top string) client.Input { return bash(lead, "", top, "sed -i s/a/b/ "+strings.Join(files, " ")) },
		func(top string) client.Input { return edit(lead, "", top, files...) },
	} {
		repo := newRepo(t)
		for _, rel := range files {
			gittest.WriteFile(t, repo.Top, rel, "package pkg\n")
		}
		for round := range 2 {
			for _, rel := range files {
				citing(t, repo, other, logformat.KindFact, fmt.Sprintf("fact %d about %s: it is generated, do not edit it by hand", round, rel), rel)
			}
		}
		pad(t, repo)
		c := wholeClient{}
		do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
		in := call(repo.Top)
		got := do(t, c, "PreToolUse", in).context()
		if len(got) > factsBudget {
			t.Errorf("%s: told %d bytes, over the call's budget of %d:\n%s", in.ToolName, len(got), factsBudget, got)
		}
		for _, want := range []string{"what the log knows of pkg/f000.go", "fact 1 about pkg/f000.go", "lucid: 594 more entries the log knows of 297 of the files you are about to change, not shown to you before: `lucid log --path FILE` for each: pkg/f003.go, pkg/f004.go, "} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: told %q, want %q in it", in.ToolName, got, want)
			}
		}
		if got := do(t, c, "PreToolUse", in).context(); got != "" {
			t.Errorf("%s again: told %q", in.ToolName, got)
		}
	}
}

// A file that many entries cite which the agent was shown (in its delta)
// costs a call no more than maxFileWalk of its citations, and does not keep
// the call from the other files: an old entry on the next file is given.
func TestFileFactsManyShownDoNotStarveOthers(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/busy.go", "package src\n")
	gittest.WriteFile(t, repo.Top, "src/quiet.go", "package src\n")
	old := citing(t, repo, other, logformat.KindFact, "quiet.go is generated", "src/quiet.go")
	pad(t, repo)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	for i := range maxFileWalk + 100 {
		citing(t, repo, other, logformat.KindNote, fmt.Sprintf("busy note %d", i), "src/busy.go")
	}
	do(t, c, "PreToolUse", client.Input{SessionID: lead, Cwd: repo.Top, ToolName: "Read"}) // the delta shows them
	got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/busy.go", "src/quiet.go")).context()
	if !strings.Contains(got, old.ID) || strings.Contains(got, "busy note") || strings.Contains(got, "busy.go") {
		t.Errorf("the edit was told %q: want the old entry on quiet.go, nothing of busy.go", got)
	}
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/busy.go", "src/quiet.go")).context(); got != "" {
		t.Errorf("the next edit was told %q", got)
	}
}

// What an Edit costs does not grow with how many entries cite its file:
// with 10,000 of them, given once (the newest that fit, the rest
// counted), the next edit reads the file's citations from the newest and
// stops where that count began, as many allocations as for a file that 10
// entries cite (it parsed all 10,000, 2.3 times an edit of an uncited
// file). The first is within the budget too.
func TestFileFactsFlatInCitations(t *testing.T) {
	repo := newRepo(t)
	gittest.WriteFile(t, repo.Top, "src/many.go", "package src\n")
	gittest.WriteFile(t, repo.Top, "src/few.go", "package src\n")
	f, err := os.OpenFile(repo.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	many, few := mustCite(t, repo, "src/many.go"), mustCite(t, repo, "src/few.go")
	at := time.Now().Add(-time.Hour)
	for i := range 10010 {
		e := logformat.NewEntry(at.Add(time.Duration(i)*time.Millisecond), other, logformat.KindFact, fmt.Sprintf("fact %d about the file", i))
		e.Evidence = []logformat.Evidence{many}
		if i >= 10000 {
			e.Evidence = []logformat.Evidence{few}
		}
		line, _ := logformat.EncodeEntry(e)
		f.Write(line)
	}
	f.Close()
	pad(t, repo)
	c := wholeClient{}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: repo.Top})
	for _, rel := range []string{"src/many.go", "src/few.go"} {
		got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, rel)).context()
		if len(got) > factsBudget || !strings.Contains(got, "what the log knows of "+rel) {
			t.Fatalf("the first edit of %s was told %d bytes: %q", rel, len(got), got)
		}
	}
	if got := do(t, c, "PreToolUse", edit(lead, "", repo.Top, "src/many.go")).context(); got != "" {
		t.Fatalf("the second edit was told %q", got)
	}
	rec, _, _ := agentstore.Load(repo, lead)
	allocs := func(rel string) float64 {
		return testing.AllocsPerRun(20, func() {
			cl := &call{naming: naming, in: edit(lead, "", repo.Top, rel), repo: repo, home: true, agent: lead, now: time.Now(), looked: &rec}
			if got, err := cl.fileFacts([]string{rel}); got != "" || err != nil {
				t.Fatalf("told %q, %v", got, err)
			}
		})
	}
	if m, f := allocs("src/many.go"), allocs("src/few.go"); m > f+20 {
		t.Errorf("an edit of a file 10,000 entries cite made %.0f allocations, one of a file 10 cite %.0f", m, f)
	}
}
