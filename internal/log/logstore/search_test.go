package logstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/search"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// searchAll is Search as it reads without its shortcuts: every entry
// decoded, liveness and kinds from liveAll's rules, every filter on the
// decoded entry, each scored whole. Search must agree with it.
func searchAll(t *testing.T, path string, opt SearchOptions) []Found {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	q := search.NewQuery(opt.Words)
	df := make([]int, len(q.Terms()))
	lines := strings.SplitAfter(string(raw), "\n")
	if !strings.HasSuffix(lines[len(lines)-1], "\n") {
		lines = lines[:len(lines)-1] // unfinished
	}
	for _, l := range lines {
		low := string(search.Lower(nil, []byte(l)))
		for i, term := range q.Terms() {
			if strings.Contains(low, term) {
				df[i]++
			}
		}
	}
	q.SetCounts(len(lines), df)
	var all []logformat.Entry
	byID := map[string]logformat.Entry{}
	supersededBy := map[string]string{}
	Scan(path, func(e logformat.Entry) bool {
		all = append(all, e)
		byID[e.ID] = e
		if e.Kind == logformat.KindSupersede {
			if old, ok := supersededBy[e.Supersedes]; !ok || e.ID < old {
				supersededBy[e.Supersedes] = e.ID
			}
		}
		return true
	})
	quote := func(s string) []byte { b, _ := json.Marshal(s); return b[1 : len(b)-1] }
	var out []Found
	for _, e := range all {
		by := supersededBy[e.ID]
		if !opt.All && (by != "" || e.Retired || e.Kind == logformat.KindDream) {
			continue
		}
		root := e
		for hops := 0; root.Kind == logformat.KindSupersede && hops < len(all); hops++ {
			next, ok := byID[root.Supersedes]
			if !ok {
				break
			}
			root = next
		}
		if len(opt.Kinds) > 0 && !slices.Contains(opt.Kinds, e.Kind) && !(e.Kind == logformat.KindSupersede && !e.Retired && slices.Contains(opt.Kinds, root.Kind)) {
			continue
		}
		if !opt.Since.IsZero() && e.Time().Before(opt.Since) {
			continue
		}
		if opt.Agent != nil && !opt.Agent(e.Agent) {
			continue
		}
		if opt.Cites != nil && !slices.ContainsFunc(e.Evidence, func(ev logformat.Evidence) bool { return opt.Cites(ev.Path) }) {
			continue
		}
		score := 0.0
		if !q.Empty() {
			d := q.NewDoc()
			d.AddJSON(quote(e.Text))
			d.AddJSON(quote(e.Diff))
			for _, ev := range e.Evidence {
				d.AddJSON(quote(ev.Path))
				d.AddJSON(quote(ev.Text))
			}
			if score = d.Score(); score == 0 {
				continue
			}
		}
		out = append(out, Found{Listed: Listed{Entry: e, SupersededBy: by}, Score: score})
	}
	slices.SortStableFunc(out, func(a, b Found) int {
		switch {
		case a.Score != b.Score:
			if a.Score > b.Score {
				return -1
			}
			return 1
		case a.At != b.At:
			return strings.Compare(b.At, a.At)
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out[:min(len(out), opt.N)]
}

// TestSearchAgrees: on random logs of texts with capitals, accents,
// escapes and words inside words, with replacements, retirements, dream
// points and invalid lines, read in blocks of every size, Search finds what
// searchAll finds, in the same order, with the same scores.
func TestSearchAgrees(t *testing.T) {
	defer func(block int, split int64) { searchBlock, countSplitSize = block, split }(searchBlock, countSplitSize)
	dir := t.TempDir()
	repo := &gitstore.Repo{Top: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git")}
	os.MkdirAll(filepath.Join(dir, gitstore.LucidDirName), 0o755)
	kinds := []string{logformat.KindFact, logformat.KindDecision, logformat.KindDeadEnd, logformat.KindNote, logformat.KindDream}
	words := []string{"cache", "Cache", "CACHED", "caches", "session", "sessions", "token", "x", "é", "É", "über", "Über", "\"cache\"", "cache\nsession", `C:\cache`, "cachê", "<b>", "token_cache"}
	paths := []string{"src/a.go", "src/b/c.go", "docs/cache.md", `we"ird.go`}
	agents := []string{"human", "s1", "s1/sub", "s2", `a"b`}
	queries := [][]string{{"cache"}, {"CACHE", "session"}, {"é"}, {"über"}, {"token", "cache"}, {"src"}, {"cache", "é", "x"}, nil}
	for seed := range uint64(120) {
		r := rand.New(rand.NewPCG(seed, 11))
		f, err := os.Create(repo.LogPath())
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for range 5 + r.IntN(60) {
			now = now.Add(time.Duration(r.IntN(3)) * time.Second) // equal times too
			var text []string
			for range 1 + r.IntN(6) {
				text = append(text, words[r.IntN(len(words))])
			}
			e := logformat.NewEntry(now, agents[r.IntN(len(agents))], kinds[r.IntN(len(kinds))], strings.Join(text, " "))
			if r.IntN(3) == 0 {
				e.Evidence = append(e.Evidence, logformat.Evidence{Path: paths[r.IntN(len(paths))], Line: 1, Blake3: "00", Text: words[r.IntN(len(words))]})
			}
			if x := r.IntN(10); x < 3 && len(ids) > 0 {
				e.Kind = logformat.KindSupersede
				e.Supersedes = ids[r.IntN(len(ids))]
				e.Retired = r.IntN(4) == 0
			}
			line, _ := logformat.EncodeEntry(e)
			if r.IntN(15) == 0 {
				f.WriteString("<<<<<<< cache\n")
			}
			if r.IntN(20) == 0 {
				f.WriteString("\n")
			}
			f.Write(line)
			ids = append(ids, e.ID)
		}
		if seed%3 == 0 {
			f.WriteString(`{"id":"torn cache`) // an unfinished last line
		}
		f.Close()
		searchBlock = []int{1 << 20, 64, 300, 7}[seed%4]
		countSplitSize = []int64{8 << 20, 0}[seed/4%2] // in parts, or one
		for _, words := range queries {
			opt := SearchOptions{Words: words, N: 1 + r.IntN(8), All: r.IntN(3) == 0}
			if r.IntN(3) == 0 {
				opt.Kinds = []string{kinds[r.IntN(len(kinds))], []string{logformat.KindSupersede, logformat.KindNote}[r.IntN(2)]}[:1+r.IntN(2)]
			}
			if r.IntN(4) == 0 {
				opt.Since = time.Date(2026, 1, 1, 0, 0, r.IntN(60), 0, time.UTC)
			}
			if r.IntN(4) == 0 {
				a := agents[r.IntN(len(agents))]
				opt.Agent = func(agent string) bool { return agent == a || strings.HasPrefix(agent, a+"/") }
				if !strings.Contains(a, `"`) {
					opt.AgentHint = a
				}
			}
			if r.IntN(4) == 0 {
				p := paths[r.IntN(len(paths))]
				opt.Cites = func(path string) bool { return path == p || strings.HasPrefix(path, "src/") && p == "src/a.go" }
			}
			if words == nil && opt.Kinds == nil && opt.Since.IsZero() && opt.Agent == nil && opt.Cites == nil {
				opt.All = true // a listing of everything, newest first
			}
			got, err := Search(t.Context(), repo, opt)
			if err != nil {
				t.Fatal(err)
			}
			want := searchAll(t, repo.LogPath(), opt)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("seed %d, block %d, %q (n %d, all %v, kinds %v, since %v, agent %v, cites %v):\ngot  %v\nwant %v",
					seed, searchBlock, words, opt.N, opt.All, opt.Kinds, opt.Since, opt.Agent != nil, opt.Cites != nil, got, want)
			}
		}
	}
}

// TestSearchRanks: the entry that says the rare word ranks above those
// that say the common one; more of a word ranks higher, with diminishing
// returns; a long entry ranks below a short one that says as much; equals
// come newest first; N keeps the best.
func TestSearchRanks(t *testing.T) {
	r := repotest.Lucid(t)
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	add := func(kind, text string) {
		at = at.Add(time.Minute)
		e := logformat.NewEntry(at, "human", kind, text)
		if err := Append(r.LogPath(), e); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	add(logformat.KindFact, "the build is slow")                                                       // 0
	add(logformat.KindFact, "the build uses redis")                                                    // 1: the rare word
	add(logformat.KindNote, "the build, the build, the build")                                         // 2
	add(logformat.KindNote, "the build is slow because the linker runs twice over every package here") // 3: long
	add(logformat.KindFact, "the build is slow")                                                       // 4: as 0, newer
	add(logformat.KindFact, "nothing to see")                                                          // 5
	found, err := Search(t.Context(), r, SearchOptions{Words: []string{"build", "redis"}, N: 10})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.ID)
	}
	want := []string{ids[1], ids[2], ids[4], ids[0], ids[3]}
	if !slices.Equal(got, want) {
		t.Fatalf("ranked %v, want %v", got, want)
	}
	found, _ = Search(t.Context(), r, SearchOptions{Words: []string{"build", "redis"}, N: 2})
	if len(found) != 2 || found[0].ID != ids[1] || found[1].ID != ids[2] {
		t.Fatalf("-n 2 kept %v", found)
	}
	// No words: newest first.
	found, _ = Search(t.Context(), r, SearchOptions{Kinds: []string{logformat.KindFact}, N: 2})
	if len(found) != 2 || found[0].ID != ids[5] || found[1].ID != ids[4] || found[0].Score != 0 {
		t.Fatalf("newest facts: %v", found)
	}
}

// TestSearchKindOfReplacement: a replacement is of the kind it stands
// for; a retirement is not; a superseded entry shows with --all only, with
// its replacement.
func TestSearchKindOfReplacement(t *testing.T) {
	r := repotest.Lucid(t)
	fact := logformat.NewEntry(time.Now(), "human", logformat.KindFact, "the cache lives 5 minutes")
	Append(r.LogPath(), fact)
	fix := logformat.NewEntry(time.Now(), "human", logformat.KindSupersede, "the cache lives 10 minutes")
	fix.Supersedes = fact.ID
	Append(r.LogPath(), fix)
	note := logformat.NewEntry(time.Now(), "human", logformat.KindNote, "a cache note")
	Append(r.LogPath(), note)
	retire := logformat.NewEntry(time.Now(), "human", logformat.KindSupersede, "no cache note after all")
	retire.Supersedes, retire.Retired = note.ID, true
	Append(r.LogPath(), retire)
	found, _ := Search(t.Context(), r, SearchOptions{Words: []string{"cache"}, Kinds: []string{logformat.KindFact}, N: 5})
	if len(found) != 1 || found[0].ID != fix.ID {
		t.Fatalf("facts about the cache: %v", found)
	}
	found, _ = Search(t.Context(), r, SearchOptions{Words: []string{"cache"}, N: 5})
	if len(found) != 1 || found[0].ID != fix.ID {
		t.Fatalf("live entries about the cache: %v", found)
	}
	found, _ = Search(t.Context(), r, SearchOptions{Words: []string{"cache"}, N: 5, All: true})
	if len(found) != 4 {
		t.Fatalf("every entry about the cache: %v", found)
	}
	for _, f := range found {
		if f.ID == fact.ID && f.SupersededBy != fix.ID || f.ID == note.ID && f.SupersededBy != retire.ID {
			t.Fatalf("%s superseded by %q", f.ID, f.SupersededBy)
		}
	}
}

func TestSearchOfAMissingLog(t *testing.T) {
	r := repotest.Lucid(t)
	os.Remove(r.LogPath())
	found, err := Search(t.Context(), r, SearchOptions{Words: []string{"x"}, N: 5})
	if err != nil || len(found) != 0 {
		t.Fatalf("Search of a missing log = %v, %v", found, err)
	}
}

// TestSearchBounds: a search of more words than search.MaxWords is
// refused before the log is read (ten thousand words did not finish); one
// whose context ended reads nothing, and one whose context ends while it
// reads stops within a few lines of each part, returning the context's
// error: the page's server stops a search whose page went away.
func TestSearchBounds(t *testing.T) {
	defer func(split int64) { countSplitSize = split }(countSplitSize)
	countSplitSize = 0 // in parts, at once
	r := repotest.Lucid(t)
	f, err := os.Create(r.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	const n = 20 * checkEvery
	for i := range n {
		line, _ := logformat.EncodeEntry(logformat.NewEntry(at.Add(time.Duration(i)*time.Second), fmt.Sprintf("agent%d", i%5), logformat.KindFact, fmt.Sprintf("the cache holds entry %d", i)))
		f.Write(line)
	}
	f.Close()

	many := make([]string, 10000)
	for i := range many {
		many[i] = fmt.Sprintf("word%d", i)
	}
	var tooMany *search.TooManyWordsError
	if _, err := Search(t.Context(), r, SearchOptions{Words: many, N: 5}); !errors.As(err, &tooMany) || tooMany.N != len(many) {
		t.Fatalf("10,000 words: %v, want a *search.TooManyWordsError of 10000", err)
	}
	if _, err := Search(t.Context(), r, SearchOptions{Words: many[:search.MaxWords], N: 5}); err != nil {
		t.Fatalf("%d words: %v", search.MaxWords, err)
	}

	ended, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Search(ended, r, SearchOptions{Words: []string{"cache"}, N: 5}); !errors.Is(err, context.Canceled) {
		t.Fatalf("an ended context: %v, want context.Canceled", err)
	}
	for _, words := range [][]string{{"cache"}, nil} {
		ctx, cancel := context.WithCancel(t.Context())
		var calls atomic.Int64
		_, err := Search(ctx, r, SearchOptions{Words: words, N: 5, Agent: func(string) bool {
			calls.Add(1)
			cancel() // the page goes away while its search reads
			return true
		}})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("words %q, the context ended while reading: %v, want context.Canceled", words, err)
		}
		if c := calls.Load(); c > 4*checkEvery {
			t.Errorf("words %q: %d lines of %d read after the context ended", words, c, n)
		}
		cancel()
	}
}
