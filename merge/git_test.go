package merge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Real git merges of the log, with lucid (the test binary) on PATH and the
// driver installed by Install.

// twoBranches makes a repository whose main has one entry, and branches a
// and b that each append two more in a commit of their own.
func twoBranches(t *testing.T) (*sandbox, *clock) {
	s := newSandbox(t, true)
	c := newClock()
	s.newRepo("r")
	s.appendEntries("r", c, "base")
	s.git("r", "branch", "a")
	s.git("r", "branch", "b")
	s.git("r", "switch", "-q", "a")
	s.appendEntries("r", c, "a1", "a2")
	s.git("r", "switch", "-q", "b")
	s.appendEntries("r", c, "b1", "b2")
	return s, c
}

// wantRuns checks how many times git ran lucid's driver so far.
func (s *sandbox) wantRuns(n int) {
	s.t.Helper()
	if got := s.driverRuns(); got != n {
		s.t.Errorf("git ran lucid's driver %d times, want %d", got, n)
	}
}

func wantTexts(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !equalLists(got, want) {
		t.Errorf("the log's entries are %q, want %q", got, want)
	}
}

func TestGitMerge(t *testing.T) {
	s, _ := twoBranches(t)
	s.git("r", "switch", "-q", "a")
	out := s.git("r", "merge", "--no-edit", "b")
	if strings.Contains(out, "CONFLICT") {
		t.Fatalf("merge reported a conflict:\n%s", out)
	}
	wantTexts(t, s.logTexts("r"), "base", "a1", "a2", "b1", "b2")
	s.wantRuns(1)
	if st := s.git("r", "status", "--porcelain"); st != "" {
		t.Errorf("the work tree is not clean after the merge:\n%s", st)
	}
	// The merge commit holds the merged log.
	if show := s.git("r", "show", "HEAD:.lucid/log.jsonl"); show != s.readFile("r/.lucid/log.jsonl") {
		t.Errorf("the committed log differs from the work tree's")
	}
}

func TestGitRebase(t *testing.T) {
	s, _ := twoBranches(t)
	// Rebasing b onto a replays b's commit with a's log as "ours".
	s.git("r", "switch", "-q", "b")
	s.git("r", "rebase", "-q", "a")
	wantTexts(t, s.logTexts("r"), "base", "a1", "a2", "b1", "b2")
	s.wantRuns(1)
	if n := s.git("r", "rev-list", "--count", "a..b"); strings.TrimSpace(n) != "1" {
		t.Errorf("b has %s commits over a after the rebase, want 1", n)
	}
}

func TestGitCherryPick(t *testing.T) {
	s, c := twoBranches(t)
	s.git("r", "switch", "-q", "b")
	s.appendEntries("r", c, "b3")
	s.git("r", "switch", "-q", "a")
	// The commit that added b1 and b2 only.
	s.git("r", "cherry-pick", "b~1")
	wantTexts(t, s.logTexts("r"), "base", "a1", "a2", "b1", "b2")
	s.wantRuns(1)
	// Then b itself: b1 and b2 are there already, once.
	s.git("r", "merge", "--no-edit", "b")
	wantTexts(t, s.logTexts("r"), "base", "a1", "a2", "b1", "b2", "b3")
}

func TestGitCrissCross(t *testing.T) {
	s, c := twoBranches(t)
	// a and b each merge the other's tip as it is now: two merge bases.
	aTip := strings.TrimSpace(s.git("r", "rev-parse", "a"))
	bTip := strings.TrimSpace(s.git("r", "rev-parse", "b"))
	s.git("r", "switch", "-q", "a")
	s.git("r", "merge", "-q", "--no-edit", bTip)
	s.appendEntries("r", c, "a3")
	s.git("r", "switch", "-q", "b")
	s.git("r", "merge", "-q", "--no-edit", aTip)
	s.appendEntries("r", c, "b3")
	if bases := strings.Fields(s.git("r", "merge-base", "--all", "a", "b")); len(bases) != 2 {
		t.Fatalf("want a criss-cross history with two merge bases, have %v", bases)
	}
	s.git("r", "switch", "-q", "a")
	out := s.git("r", "merge", "--no-edit", "b")
	if strings.Contains(out, "CONFLICT") {
		t.Fatalf("merge reported a conflict:\n%s", out)
	}
	wantTexts(t, s.logTexts("r"), "base", "a1", "a2", "b1", "b2", "a3", "b3")
	// Two for the first merges, and at least two for the last: one merges
	// the two bases into a virtual one, one merges the tips.
	if n := s.driverRuns(); n < 4 {
		t.Errorf("git ran lucid's driver %d times, want 4 or more", n)
	}
}

func TestGitSameEntriesOnBothSides(t *testing.T) {
	s, _ := twoBranches(t)
	// The same lines appended on both branches (an entry copied over by
	// hand, or both sides merged the same third branch).
	s.git("r", "switch", "-q", "a")
	shared := entryLine(t, newClock().next().Add(-1e9), "shared") // earlier than every other entry
	s.appendFile("r/.lucid/log.jsonl", shared)
	s.git("r", "commit", "-qam", "shared on a")
	s.git("r", "switch", "-q", "b")
	s.appendFile("r/.lucid/log.jsonl", shared)
	s.git("r", "commit", "-qam", "shared on b")
	s.git("r", "switch", "-q", "a")
	s.git("r", "merge", "--no-edit", "b")
	wantTexts(t, s.logTexts("r"), "base", "a1", "a2", "shared", "b1", "b2")
}

func TestGitTornLastLine(t *testing.T) {
	s, c := twoBranches(t)
	// b committed a log whose last line was cut short.
	s.git("r", "switch", "-q", "b")
	torn := `{"id":"01KTC4VN86Q9S4HEG3T05G1190","at":"2026-03-0`
	s.appendFile("r/.lucid/log.jsonl", torn)
	s.git("r", "commit", "-qam", "torn")
	s.git("r", "switch", "-q", "a")
	s.appendEntries("r", c, "a3")
	s.git("r", "merge", "--no-edit", "b")
	lines := s.logLines("r") // fails unless the log ends with a newline
	if last := lines[len(lines)-1]; last != torn {
		t.Errorf("the torn line is not kept last: the log ends with %q", last)
	}
}

func TestGitLogOnOneSide(t *testing.T) {
	s := newSandbox(t, true)
	c := newClock()
	s.git("", "init", "-q", "r")
	r := s.repo("r")
	if _, err := Install(r, false); err != nil {
		t.Fatal(err)
	}
	s.git("r", "add", "-A")
	s.git("r", "commit", "-qm", "attributes only")
	s.git("r", "branch", "b")
	// Only a has a log: git takes it as it is, without the driver.
	s.git("r", "switch", "-qc", "a")
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	s.git("r", "add", "-A")
	s.appendEntries("r", c, "a1")
	s.git("r", "switch", "-q", "main")
	s.git("r", "merge", "-q", "--no-edit", "a")
	wantTexts(t, s.logTexts("r"), "a1")
	s.wantRuns(0)

	// Both b and main created the log on their own (add/add): git runs the
	// driver with an empty base.
	s.git("r", "switch", "-q", "b")
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	s.git("r", "add", "-A")
	s.appendEntries("r", c, "b1")
	s.git("r", "switch", "-q", "main")
	out := s.git("r", "merge", "--no-edit", "b")
	if strings.Contains(out, "CONFLICT") {
		t.Fatalf("add/add merge reported a conflict:\n%s", out)
	}
	wantTexts(t, s.logTexts("r"), "a1", "b1")
	s.wantRuns(1)
}

// TestGitLogDeletedOnOneSide records what git does when one side deleted
// the log and the other appended to it: a modify/delete conflict, which
// no merge driver sees; the appended log stays in the work tree.
func TestGitLogDeletedOnOneSide(t *testing.T) {
	s, _ := twoBranches(t)
	s.git("r", "switch", "-q", "b")
	s.git("r", "rm", "-q", ".lucid/log.jsonl")
	s.git("r", "commit", "-qm", "no log")
	s.git("r", "switch", "-q", "a")
	out, err := s.try("r", "merge", "--no-edit", "b")
	if err == nil || !strings.Contains(out, "CONFLICT (modify/delete)") {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	s.wantRuns(0)
	wantTexts(t, s.logTexts("r"), "base", "a1", "a2")
}

func TestGitFallbackWithoutLucid(t *testing.T) {
	s, _ := twoBranches(t)
	// The same repository, merged where lucid is not on PATH: git runs the
	// driver's fallback, git merge-file --union, and keeps both sides.
	s.env = gitEnv(t, false)
	s.git("r", "switch", "-q", "a")
	out, err := s.try("r", "merge", "--no-edit", "b")
	if err != nil {
		t.Fatalf("merge without lucid failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "lucid: not found") {
		t.Errorf("git's output did not say that lucid was missing:\n%s", out)
	}
	s.wantRuns(0)
	texts := s.logTexts("r")
	for _, want := range []string{"base", "a1", "a2", "b1", "b2"} {
		if !strings.Contains(strings.Join(texts, "\n")+"\n", want+"\n") {
			t.Errorf("the log lacks %q after the fallback merge: %q", want, texts)
		}
	}
}

func TestGitLinkedWorktree(t *testing.T) {
	s := newSandbox(t, true)
	c := newClock()
	s.git("", "init", "-q", "main")
	s.git("main", "commit", "-q", "--allow-empty", "-m", "first")
	// extensions.worktreeConfig: `git config --worktree` writes per work
	// tree; lucid's keys must still go where every work tree reads them.
	s.git("main", "config", "core.repositoryformatversion", "1")
	s.git("main", "config", "extensions.worktreeConfig", "true")
	s.git("main", "worktree", "add", "-q", "../linked")
	linked := s.repo("linked")
	if _, err := linked.Init(); err != nil {
		t.Fatal(err)
	}
	changes, err := Install(linked, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 {
		t.Errorf("Install in a linked work tree: %v, want the attribute and the config", changes)
	}
	for _, dir := range []string{"main", "linked"} {
		if got := strings.TrimSpace(s.git(dir, "config", "merge.lucid.driver")); got != DriverCommand {
			t.Errorf("merge.lucid.driver seen from %s: %q", dir, got)
		}
		if !ConfigInstalled(s.repo(dir)) {
			t.Errorf("ConfigInstalled in %s: false", dir)
		}
	}
	// A merge in the linked work tree runs the driver.
	s.git("linked", "add", "-A")
	s.appendEntries("linked", c, "base")
	s.mergeDiverged("linked", c)
	wantTexts(t, s.logTexts("linked"), "base", "ours", "theirs")
	s.wantRuns(1)
}

// mergeDiverged appends "ours" on the current branch of dir and "theirs"
// on a branch made from it, then merges that branch into it.
func (s *sandbox) mergeDiverged(dir string, c *clock) {
	s.t.Helper()
	branch := strings.TrimSpace(s.git(dir, "branch", "--show-current"))
	s.git(dir, "branch", "theirs")
	s.appendEntries(dir, c, "ours")
	s.git(dir, "switch", "-q", "theirs")
	s.appendEntries(dir, c, "theirs")
	s.git(dir, "switch", "-q", branch)
	if out := s.git(dir, "merge", "--no-edit", "theirs"); strings.Contains(out, "CONFLICT") {
		s.t.Fatalf("merge reported a conflict:\n%s", out)
	}
}

// TestGitRandomHistories is the property test: branches that append,
// merge each other, rebase and cherry-pick at random, then are merged
// together in two random orders. Every entry ever appended comes out
// exactly once, whatever the order, and no branch ever holds a double.
func TestGitRandomHistories(t *testing.T) {
	trials := 3
	if testing.Short() {
		trials = 1
	}
	for trial := range trials {
		t.Run(fmt.Sprint("seed", trial), func(t *testing.T) { randomHistory(t, uint64(trial)) })
	}
}

func randomHistory(t *testing.T, seed uint64) {
	s := newSandbox(t, true)
	c := newClock()
	r := rand.New(rand.NewPCG(seed, 99))
	s.newRepo("r")
	var all []string // every text appended
	n := 0
	appendSome := func() {
		var texts []string
		for range 1 + r.IntN(3) {
			n++
			texts = append(texts, fmt.Sprintf("e%d", n))
		}
		s.appendEntries("r", c, texts...)
		all = append(all, texts...)
	}
	appendSome()
	branches := []string{"b0", "b1", "b2", "b3"}
	for _, b := range branches {
		s.git("r", "branch", b)
	}
	for step := range 24 {
		b := branches[r.IntN(len(branches))]
		other := branches[r.IntN(len(branches))]
		s.git("r", "switch", "-q", b)
		var op string
		var out string
		var err error
		switch p := r.IntN(10); {
		case p < 5 || other == b:
			op = "append"
			appendSome()
		case p < 8:
			op = "merge " + other
			out, err = s.try("r", "merge", "--no-edit", other)
		case p < 9:
			op = "rebase onto " + other
			out, err = s.try("r", "rebase", "-q", other)
		default:
			pick := strings.TrimSpace(s.git("r", "rev-list", "--no-merges", "-1", other))
			op = "cherry-pick from " + other
			out, err = s.try("r", "cherry-pick", "--keep-redundant-commits", pick)
		}
		if err != nil {
			t.Fatalf("step %d on %s: %s: %v\n%s", step, b, op, err, out)
		}
		s.logTexts("r") // fails on a double or a line that is not an entry
	}
	// Merge everything together, in two orders.
	var results [][]string
	for k := range 2 {
		order := slices.Clone(branches)
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		final := fmt.Sprint("final", k)
		s.git("r", "switch", "-qc", final, order[0])
		for _, b := range order[1:] {
			if out, err := s.try("r", "merge", "--no-edit", b); err != nil || strings.Contains(out, "CONFLICT") {
				t.Fatalf("merging %s into %s (order %v): %v\n%s", b, final, order, err, out)
			}
		}
		texts := s.logTexts("r")
		slices.Sort(texts)
		results = append(results, texts)
	}
	want := slices.Clone(all)
	slices.Sort(want)
	for k, got := range results {
		if !equalLists(got, want) {
			t.Errorf("order %d: the merged log has %d entries %q, want the %d appended %q", k, len(got), got, len(want), want)
		}
	}
	if s.driverRuns() == 0 {
		t.Error("git never ran lucid's driver")
	}
}
