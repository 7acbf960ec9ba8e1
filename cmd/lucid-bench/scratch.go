package main

// Scratch repositories and the logs written into them.
//
// A log of N entries is written straight into .lucid/log.jsonl through a
// bufio.Writer, with logformat.NewEntry and logformat.EncodeEntry, so the lines
// are exactly what lucid writes, and a million of them take seconds rather
// than the hours of a million `lucid fact` processes.
//
// The content is meant to look like a real log: mostly facts, decisions and
// notes of 40 to 200 characters, some dead-ends and plan changes, a few
// supersede entries (some of them retirements), and about one entry in ten
// citing a file of the scratch repository. The cited files changed at
// different points of the log's history, so some evidence is fresh, some
// stale (with the cited line moved, unchanged or gone) and some names a file
// that was deleted, near the end of the log as well as far back.

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// scratch is a git repository in the bench's temp dir, set up with lucid init.
type scratch struct {
	dir  string
	repo *gitstore.Repo
}

// newScratch makes a scratch repository: git init, then lucid init.
func (b *bench) newScratch(name string) (*scratch, error) {
	b.scratch++
	dir := filepath.Join(b.root, fmt.Sprintf("%s-%d", name, b.scratch))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	if err := b.runIn(dir, "git", "init", "-q"); err != nil {
		return nil, err
	}
	if err := b.runIn(dir, b.lucid, "init"); err != nil {
		return nil, fmt.Errorf("the lucid binary cannot set up a repository: %w", err)
	}
	repo, err := gitstore.Find(dir)
	if err != nil {
		return nil, err
	}
	return &scratch{dir: dir, repo: repo}, nil
}

// withLog runs fn in a scratch repository whose log has n generated
// entries, and removes the repository afterwards.
func (b *bench) withLog(name string, n int, fn func(*scratch) error) error {
	s, err := b.newScratch(name)
	if err != nil {
		return err
	}
	defer func() {
		s.remove()
		settle()
	}()
	start := time.Now()
	if err := s.generateLog(n); err != nil {
		return fmt.Errorf("generating a log of %d entries: %w", n, err)
	}
	if fi, err := os.Stat(s.repo.LogPath()); err == nil {
		fmt.Fprintf(os.Stderr, "bench: log of %d entries: %.1f MB, written in %.2f s\n",
			n, float64(fi.Size())/1e6, time.Since(start).Seconds())
	}
	// The generator's garbage is collected now, not by a GC running
	// beside the timed processes.
	debug.FreeOSMemory()
	settle()
	return fn(s)
}

// remove deletes the scratch repository (a 1M log is a few hundred MB).
func (s *scratch) remove() error { return os.RemoveAll(s.dir) }

// citedFile is a file the log cites. Entries before staleBefore(n) (counted
// from the start of a log of n entries) saw the old content; later ones the
// content that is on disk now. A gone file is deleted after the log ends.
type citedFile struct {
	path        string
	staleBefore func(n int) int
	gone        bool
}

var citedFiles = []citedFile{
	{path: "README.md", staleBefore: func(n int) int { return 0 }},                             // never changed: always fresh
	{path: "src/auth/session.go", staleBefore: func(n int) int { return max(n-20, 0) }},        // changed just now: the newest few are fresh
	{path: "src/db/migrate.go", staleBefore: func(n int) int { return n / 2 }},                 // changed half way
	{path: "internal/config/config.go", staleBefore: func(n int) int { return max(n-300, 0) }}, // changed recently
	{path: "docs/api.md", staleBefore: func(n int) int { return n }},                           // changed after every citation
	{path: "src/legacy/handler.go", staleBefore: func(n int) int { return n }, gone: true},     // deleted
}

// citedLines are the lines entries cite (0: the whole file).
var citedLines = []int{0, 3, 12, 27, 42, 57, 80}

// evidenceSet is, for each cited file, evidence as an entry written before
// its change (old) and after it (now) would hold, one per cited line.
type evidenceSet struct {
	old, now [][]logformat.Evidence // [file][line]
}

// writeCitedFiles writes the files entries cite, computing their evidence
// with logstore.Cite on the old content and then on the content left on disk.
func (s *scratch) writeCitedFiles() (evidenceSet, error) {
	var set evidenceSet
	cite := func(f citedFile) ([]logformat.Evidence, error) {
		var evs []logformat.Evidence
		for _, line := range citedLines {
			spec := f.path
			if line > 0 {
				spec = fmt.Sprintf("%s:%d", f.path, line)
			}
			ev, err := logstore.Cite(s.repo, s.dir, spec)
			if err != nil {
				return nil, err
			}
			evs = append(evs, ev)
		}
		return evs, nil
	}
	for i, f := range citedFiles {
		abs := s.repo.Abs(f.path)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return set, err
		}
		old, current := fileContents(i, f.path)
		if err := os.WriteFile(abs, old, 0o644); err != nil {
			return set, err
		}
		oldEv, err := cite(f)
		if err != nil {
			return set, err
		}
		if err := os.WriteFile(abs, current, 0o644); err != nil {
			return set, err
		}
		nowEv, err := cite(f)
		if err != nil {
			return set, err
		}
		if f.gone {
			if err := os.Remove(abs); err != nil {
				return set, err
			}
		}
		set.old = append(set.old, oldEv)
		set.now = append(set.now, nowEv)
	}
	return set, nil
}

// fileContents returns a file's old and current content: 90 to 150 lines of
// code; the current one has lines added at the top (cited lines move down)
// and a few lines rewritten (their text is gone).
func fileContents(seed int, path string) (old, current []byte) {
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	n := 90 + r.IntN(60)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = codeLine(r, path, i)
	}
	var cur []string
	for i := range 5 + r.IntN(10) {
		cur = append(cur, fmt.Sprintf("// added in review %d: %s", i, pick(r, details)))
	}
	for i, l := range lines {
		if i%9 == 4 {
			l = "\t" + strings.TrimSpace(l) + " // reworked"
		}
		cur = append(cur, l)
	}
	return []byte(strings.Join(lines, "\n") + "\n"), []byte(strings.Join(cur, "\n") + "\n")
}

func codeLine(r *rand.Rand, path string, i int) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	switch r.IntN(6) {
	case 0:
		return fmt.Sprintf("func %s%d(ctx context.Context, id string) error {", name, i)
	case 1:
		return fmt.Sprintf("\tif err := %s.check(%d); err != nil {", name, i)
	case 2:
		return fmt.Sprintf("\t\treturn fmt.Errorf(\"%s step %d: %%w\", err)", name, i)
	case 3:
		return "\t}"
	case 4:
		return fmt.Sprintf("\t// %s", pick(r, details))
	default:
		return fmt.Sprintf("\tcfg.Timeout = %d * time.Millisecond", 100+r.IntN(900))
	}
}

// generateLog writes n entries to the scratch repository's log, oldest
// first, spread over the last 180 days.
func (s *scratch) generateLog(n int) error {
	evs, err := s.writeCitedFiles()
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.repo.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)

	agents := makeAgents(rand.New(rand.NewPCG(1, 2)))
	// Each entry draws from a source seeded with its distance from the end,
	// so the newest entries, which status and log read, are the same in logs
	// of every length: what differs between sizes is only the length.
	src := rand.NewPCG(0, 0)
	r := rand.New(src)
	staleBefore := make([]int, len(citedFiles))
	for i, cf := range citedFiles {
		staleBefore[i] = cf.staleBefore(n)
	}
	end := time.Now().Add(-time.Minute)
	span := 180 * 24 * time.Hour
	step := span / time.Duration(n)
	start := end.Add(-span)
	var recent [256]string // ids an entry may supersede, a ring
	nRecent := 0

	for i := range n {
		src.Seed(3, uint64(n-i))
		at := start.Add(time.Duration(i)*step + time.Duration(r.Int64N(int64(step)+1)))
		kind := pickKind(r)
		if kind == logformat.KindSupersede && nRecent == 0 {
			kind = logformat.KindFact
		}
		e := logformat.NewEntry(at, agents[r.IntN(len(agents))], kind, text(r))
		switch kind {
		case logformat.KindSupersede:
			back := 1 + r.IntN(min(nRecent, len(recent)))
			e.Supersedes = recent[(nRecent-back)%len(recent)]
			if r.IntN(4) == 0 {
				e.Retired = true
				e.Text = "no longer holds: " + pick(r, details)
			}
		case logformat.KindPlan:
			e.Text = "plan.md changed"
			e.Diff = planDiff(r)
		}
		if !e.Retired && kind != logformat.KindPlan && r.IntN(10) == 0 {
			e.Evidence = append(e.Evidence, pickEvidence(r, evs, staleBefore, i))
			if r.IntN(5) == 0 {
				if ev := pickEvidence(r, evs, staleBefore, i); ev.Path != e.Evidence[0].Path {
					e.Evidence = append(e.Evidence, ev)
				}
			}
		}
		if kind != logformat.KindSupersede {
			recent[nRecent%len(recent)] = e.ID
			nRecent++
		}
		line, err := logformat.EncodeEntry(e)
		if err != nil {
			return err
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	// Written back now, so the disk is quiet while the commands are timed.
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

func pickEvidence(r *rand.Rand, evs evidenceSet, staleBefore []int, i int) logformat.Evidence {
	fi := r.IntN(len(citedFiles))
	li := r.IntN(len(citedLines))
	if i < staleBefore[fi] {
		return evs.old[fi][li]
	}
	return evs.now[fi][li]
}

// pickKind draws a kind: mostly facts, decisions and notes.
func pickKind(r *rand.Rand) string {
	switch p := r.IntN(1000); {
	case p < 420:
		return logformat.KindFact
	case p < 640:
		return logformat.KindDecision
	case p < 900:
		return logformat.KindNote
	case p < 970:
		return logformat.KindDeadEnd
	case p < 990:
		return logformat.KindSupersede
	default:
		return logformat.KindPlan
	}
}

// makeAgents returns the writers of the log: a few lead sessions, some of
// their subagents, and a person.
func makeAgents(r *rand.Rand) []string {
	var out []string
	for range 8 {
		session := fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<12), r.Uint64()&(1<<48-1))
		out = append(out, session, session)
		for range r.IntN(3) {
			out = append(out, agentstore.AgentID(session, fmt.Sprintf("a%015x", r.Uint64()>>4)))
		}
	}
	return append(out, agentstore.AgentHuman)
}

// text returns 40 to 200 characters of sentences about code.
func text(r *rand.Rand) string {
	want := 40 + r.IntN(161)
	var b strings.Builder
	for b.Len() < want {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(pick(r, subjects))
		b.WriteByte(' ')
		b.WriteString(pick(r, predicates))
		b.WriteByte(' ')
		b.WriteString(pick(r, details))
	}
	t := b.String()
	if len(t) > 200 {
		t = t[:200]
		if i := strings.LastIndexByte(t, ' '); i >= 40 {
			t = t[:i]
		}
		t = strings.ToValidUTF8(t, "")
	}
	return t
}

func planDiff(r *rand.Rand) string {
	return fmt.Sprintf("@@ -3,2 +3,2 @@\n-- %s\n+- %s\n", pick(r, details), pick(r, details))
}

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

var subjects = []string{
	"the session cache", "auth middleware", "the migration runner", "config.Load",
	"the retry loop in the HTTP client", "`make test`", "the CI job on macOS",
	"the websocket handler", "the rate limiter", "user IDs", "the payments webhook",
	"the feature flag `new_checkout`", "the ORM's batch insert", "the queue consumer",
	"the API's v2 routes", "the test fixtures", "go test -race", "the Docker image",
	"the login form", "the search index", "the cron job", "error wrapping",
}

var predicates = []string{
	"must not be called before", "is only safe with", "breaks when it meets",
	"now goes through", "was rewritten to use", "depends on", "times out under",
	"silently drops", "is covered by", "should be replaced by", "leaks memory with",
	"is faster than", "reads the env var before", "was kept instead of",
}

var details = []string{
	"the DB pool is ready", "a nil context", "tokens older than 15 min",
	"the `X-Request-ID` header", "SQLite in WAL mode", "a slow upstream (> 2 s)",
	"requests with an empty body", "the fixtures in testdata/", "UTC timestamps only",
	`the "strict" JSON decoder`, `paths like C:\Users\dev`, "a <script> tag in the name",
	"x < y && y > z checks", "names with accents (é, ü, ø)", "the → arrow in labels",
	"the old v1 client", "retries with jitter", "the lock in config.go:57",
	"a context deadline of 30 s", "concurrent writers", "the migration 0042_users",
	"100k rows in one batch", "redis on port 6380", "the 3rd-party SDK v4",
}
