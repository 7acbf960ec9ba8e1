package logquery_test

import (
	"bufio"
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
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logquery"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// TestFiltersUnderParallelReaders runs every filter, alone and together,
// in every form of query (words, none, kinds, since, all), over a log of
// tens of thousands of entries, large enough that logstore.Search reads it
// in parts at once: under -race, a filter that shares state between those
// readers (the agent filter's map of labels was one: `lucid search WORDS
// --agent LABEL` died with "concurrent map read and map write") fails it.
// Each answer is checked against the filter called on its own.
func TestFiltersUnderParallelReaders(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // four readers, whatever the machine
	repo := repotest.Lucid(t)
	if err := os.MkdirAll(filepath.Join(repo.Top, "src", "pkg2"), 0o755); err != nil { // a folder is named as one
		t.Fatal(err)
	}
	const sessions = 40
	var agents []string
	for i := range sessions {
		session := fmt.Sprintf("%06x00-1111-4222-8333-%012x", (i+1)*0x10101, i)
		agents = append(agents, session, session+"/a"+fmt.Sprintf("%015x", i))
		for _, id := range agents[len(agents)-2:] {
			if err := agentstore.Save(repo, agentstore.Record{ID: id, Type: "general-purpose", Worktree: repo.Top}); err != nil {
				t.Fatal(err)
			}
		}
	}
	agents = append(agents, "human")
	kinds := []string{logformat.KindFact, logformat.KindDecision, logformat.KindDeadEnd, logformat.KindNote}
	words := []string{"cache", "session", "token", "expiry", "handler", "retry", "login", "schema"}
	f, err := os.Create(repo.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	filler := strings.Repeat("and then more words no query asks for, ", 5)
	const n = 20000 // about 10 MB: past the size logstore reads in parts
	var ids []string
	for i := range n {
		e := logformat.NewEntry(start.Add(time.Duration(i)*time.Second), agents[i%len(agents)], kinds[i%len(kinds)],
			fmt.Sprintf("entry %d: the %s of the %s goes through the %s, checked twice before the %s is written; %s", i,
				words[i%len(words)], words[i/3%len(words)], words[i/7%len(words)], words[i/11%len(words)], filler))
		e.Evidence = []logformat.Evidence{{Path: fmt.Sprintf("src/pkg%d/file%d.go", i%9, i%31), Line: 1 + i%40, Blake3: strings.Repeat("ab", 16)}}
		if i%50 == 49 {
			e.Kind, e.Supersedes = logformat.KindSupersede, ids[len(ids)-10]
		}
		line, err := logformat.EncodeEntry(e)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(line)
		ids = append(ids, e.ID)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, _ := os.Stat(repo.LogPath()); fi.Size() < 8<<20+1 {
		t.Fatalf("the log is %d bytes, too small to be read in parts", fi.Size())
	}

	labels := present.NewLabeler(repo, identity.Naming())
	session := agents[6]
	type filter struct {
		name  string
		set   func(opt *logstore.SearchOptions)
		agent func(string) bool
		cites func(string) bool
	}
	agentBy := func(name, a string) filter {
		return filter{name: name + " " + a, set: func(opt *logstore.SearchOptions) {
			opt.Agent, opt.AgentHint = logquery.Agent(present.NewLabeler(repo, identity.Naming()), a)
		}, agent: func(s string) bool { m, _ := logquery.Agent(labels, a); return m(s) }}
	}
	pathBy := func(name, spec string) filter {
		return filter{name: name + " " + spec, set: func(opt *logstore.SearchOptions) {
			var err error
			if opt.Cites, opt.CitesHint, err = logquery.Path(repo.Top, spec, 0); err != nil {
				t.Fatal(err)
			}
		}, cites: func(p string) bool { m, _, _ := logquery.Path(repo.Top, spec, 0); return m(p) }}
	}
	// foldedBy finds, where names fold case, what its lower-case spelling
	// finds where they do not.
	foldedBy := func(name, spec string) filter {
		return filter{name: name + " " + spec, set: func(opt *logstore.SearchOptions) {
			var err error
			if opt.Cites, opt.CitesHint, err = logquery.Path(repo.Top, spec, gitstore.FoldsCase); err != nil {
				t.Fatal(err)
			}
		}, cites: func(p string) bool { m, _, _ := logquery.Path(repo.Top, strings.ToLower(spec), 0); return m(p) }}
	}
	filters := []filter{
		{name: "none", set: func(*logstore.SearchOptions) {}},
		agentBy("agent id", agents[3]),
		agentBy("session id", session),
		agentBy("lead label", identity.Naming().Label(session, "")),
		agentBy("subagent label", labels.Label(agents[9])),
		pathBy("path file", "src/pkg4/file13.go"),
		pathBy("path folder", "src/pkg2"),
		foldedBy("path file folded", "SRC/PKG4/File13.go"),
		foldedBy("path glob folded", "Src/Pkg2/**"),
		pathBy("path glob", "src/**/file1*.go"),
	}
	since := start.Add(n / 2 * time.Second)
	forms := []struct {
		name string
		opt  logstore.SearchOptions
	}{
		{"words", logstore.SearchOptions{Words: []string{"cache", "expiry"}, N: 20}},
		{"one word, all", logstore.SearchOptions{Words: []string{"retry"}, N: 50, All: true}},
		{"kinds", logstore.SearchOptions{Kinds: []string{logformat.KindFact, logformat.KindDecision}, N: 20}},
		{"since", logstore.SearchOptions{Since: since, N: 20}},
		{"words, kinds and since", logstore.SearchOptions{Words: []string{"login", "schema"}, Kinds: []string{logformat.KindDeadEnd}, Since: since, N: 20}},
		{"newest", logstore.SearchOptions{N: 30}},
	}
	for _, fl := range filters {
		for _, form := range forms {
			opt := form.opt
			fl.set(&opt)
			if len(opt.Words) == 0 && len(opt.Kinds) == 0 && opt.Since.IsZero() && opt.Agent == nil && opt.Cites == nil {
				opt.All = true
			}
			found, err := logstore.Search(t.Context(), repo, opt)
			if err != nil {
				t.Fatalf("%s, %s: %v", fl.name, form.name, err)
			}
			if len(found) == 0 {
				t.Errorf("%s, %s: nothing found", fl.name, form.name)
			}
			for _, e := range found {
				switch {
				case fl.agent != nil && !fl.agent(e.Agent):
					t.Errorf("%s, %s: found %s, written by %s", fl.name, form.name, e.ID, e.Agent)
				case fl.cites != nil && !slices.ContainsFunc(e.Evidence, func(ev logformat.Evidence) bool { return fl.cites(ev.Path) }):
					t.Errorf("%s, %s: found %s, which cites %v", fl.name, form.name, e.ID, e.Evidence)
				case !opt.Since.IsZero() && e.Time().Before(opt.Since):
					t.Errorf("%s, %s: found %s, written at %s", fl.name, form.name, e.ID, e.At)
				}
			}
		}
	}
}
