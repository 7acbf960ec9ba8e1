package claims

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// The claim rules against a real repository: what Acquire refuses and
// what it warns of, when a claim stops holding, what a set says of a path,
// and the transactions that end claims.

// Owners of the tests' claims: two sessions, a subagent, a teammate.
const (
	alice = "30df32ba-0d45-4195-af71-803394f51561"
	bob   = "0b218250-bcad-4f28-bb25-013e7e946655"
	sub   = alice + "/a2adb9a7d441d9c57"
	mate  = alice + "/aalpha-29065eaa7bbaa962"
)

// gitRepo is a git repository in a temp folder, as gitstore finds it, with
// git's environment fixed and the claims' TTL at its default.
func gitRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	gittest.Setenv(t)
	t.Setenv("LUCID_CLAIM_TTL", "")
	repo, err := gitstore.Find(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// acquire makes a claim of owner in the repository's work tree at now.
func acquire(repo *gitstore.Repo, owner string, now time.Time, task string, globs ...string) (claimstore.Claim, []claimstore.Claim, error) {
	return Acquire(repo, Request{Owner: owner, Worktree: repo.Top, Task: task, Globs: globs, Now: now, Naming: naming})
}

// stored is the ids of the claims in the store, and their globs.
func stored(t *testing.T, repo *gitstore.Repo) string {
	t.Helper()
	cs, _, err := claimstore.Load(repo)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		out = append(out, c.Owner[:5]+":"+strings.Join(c.Globs, ","))
	}
	return strings.Join(out, " ")
}

// A claim is refused when one of its globs can match a path that another
// agent's active claim in the same work tree can match, and the error
// names the two globs, a path both match, the claim and what to do.
func TestAcquireRefusesAnOverlap(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	if _, _, err := acquire(repo, sub, now, "refactor auth", "src/**"); err != nil {
		t.Fatal(err)
	}
	_, _, err := acquire(repo, bob, now, "api", "docs/**", "src/api/*.go")
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("an overlapping claim: %v", err)
	}
	want := `src/api/*.go overlaps src/** (both can match src/api/.go), claimed by agent·a2adb9 for «refactor auth» (src/**, claimed under a minute ago): wait until it is released, ask for it with ` + "`lucid ask " + sub + ` --for-claim 'src/**' "why you need it"` + "`, or work on other files"
	if ce.Glob != "src/api/*.go" || ce.Theirs != "src/**" || ce.Owner != sub || err.Error() != want {
		t.Errorf("conflict %+v\n got %s\nwant %s", ce, err, want)
	}
	if got := stored(t, repo); got != "30df3:src/**" {
		t.Errorf("a refused claim was stored: %s", got)
	}
	// Globs that cannot meet, by their literal prefixes or by the patterns.
	for _, g := range []string{"docs/**", "srcs/**", "*.md", "src.go"} {
		if _, _, err := acquire(repo, bob, now, "other", g); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
	// A person's claim says to ask the person.
	if _, _, err := acquire(repo, agentstore.AgentHuman, now, "design", "design/**"); err != nil {
		t.Fatal(err)
	}
	_, _, err = acquire(repo, bob, now, "x", "design/logo.svg")
	if err == nil || !strings.HasSuffix(err.Error(), "claimed by human for «design» (design/**, claimed under a minute ago): ask the person who claimed it, or work on other files") {
		t.Errorf("over a person's claim: %v", err)
	}
}

// An agent's claims never conflict with its own, and a glob it holds is
// not claimed twice; a request says what it is for and what it claims, in
// globs relative to the top.
func TestAcquireOwnClaimsAndRequests(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	acquire(repo, alice, now, "auth", "src/**")
	c, _, err := acquire(repo, alice, now, "auth", "src/**", "./src/a.go", "lib/**")
	if err != nil || !slices.Equal(c.Globs, []string{"src/a.go", "lib/**"}) || c.Task != "auth" || c.Owner != alice || c.Worktree != repo.Top {
		t.Errorf("own claims again: %+v, %v", c, err)
	}
	if c, _, err := acquire(repo, alice, now, "auth", "lib/**"); err != nil || len(c.Globs) != 0 {
		t.Errorf("a glob held already: %+v, %v", c, err)
	}
	for _, tc := range []struct {
		task  string
		globs []string
		err   string
	}{
		{" ", []string{"a"}, `say what the claim is for: --for "TASK"`},
		{"t", nil, `name what to claim: lucid claim GLOB... --for "TASK"`},
		{"t", []string{"/etc/passwd"}, `claim glob "/etc/passwd" is absolute`},
		{"t", []string{"../x"}, `claim glob "../x" has a '..' segment`},
		{"t", []string{"src/[a"}, `claim glob "src/[a" is not a valid glob`},
	} {
		if _, _, err := acquire(repo, bob, now, tc.task, tc.globs...); err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("%q %v: %v, want %q", tc.task, tc.globs, err, tc.err)
		}
	}
}

// A claim in another work tree of the repository does not refuse one
// here: Acquire returns it, for a warning.
func TestAcquireInAnotherWorktree(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	acquire(repo, alice, now, "auth", "src/**")
	c, elsewhere, err := Acquire(repo, Request{Owner: bob, Worktree: "/elsewhere/wt", Task: "t", Globs: []string{"src/a.go"}, Now: now, Naming: naming})
	if err != nil || len(c.Globs) != 1 || len(elsewhere) != 1 || elsewhere[0].Owner != alice {
		t.Fatalf("a claim in another work tree: %+v, elsewhere %+v, %v", c, elsewhere, err)
	}
	set, _ := Load(repo, now)
	hits := set.Check(agentstore.AgentHuman, repo.Top, "src/a.go")
	if len(hits) != 2 || !hits[0].Here || hits[0].Claim.Owner != alice || hits[1].Here {
		t.Errorf("hits here first, then elsewhere: %+v", hits)
	}
	if line := set.ClaimLine(hits[1].Claim, present.NewLabeler(repo, naming), repo.Top); line != `src/a.go: lead·0b2182 for «t» (under a minute ago) in the work tree /elsewhere/wt` {
		t.Errorf("ClaimLine: %s", line)
	}
}

// An agent's claim holds while the agent made a hook call within the TTL
// (or was made within it); a person's until it is released. An expired
// claim blocks nobody, and a claim over it removes it.
func TestExpiry(t *testing.T) {
	repo := gitRepo(t)
	t.Setenv("LUCID_CLAIM_TTL", "60")
	if TTL() != time.Minute {
		t.Fatalf("LUCID_CLAIM_TTL=60: %v", TTL())
	}
	now := time.Now()
	then := now.Add(-2 * time.Minute)
	acquire(repo, alice, then, "auth", "src/**")
	acquire(repo, agentstore.AgentHuman, then.Add(-48*time.Hour), "docs", "docs/**")
	set, _ := Load(repo, now)
	if active := set.ActiveClaims(); len(active) != 1 || active[0].Owner != agentstore.AgentHuman {
		t.Errorf("active: %+v, want the person's claim alone", active)
	}
	if hits := set.Check(bob, repo.Top, "src/a.go"); len(hits) != 0 {
		t.Errorf("an expired claim hits: %+v", hits)
	}
	// A hook call of its owner brings it back.
	if err := agentstore.Save(repo, agentstore.Record{ID: alice, Worktree: repo.Top}); err != nil {
		t.Fatal(err)
	}
	set, _ = Load(repo, now)
	if len(set.ActiveClaims()) != 2 || !set.Owns(alice, repo.Top, "src/a/b.go") || set.Owns(alice, repo.Top, "docs/a.md") || set.Owns(alice, "/elsewhere", "src/a.go") {
		t.Errorf("after its owner's hook call: %+v", set.ActiveClaims())
	}
	// Two minutes on, it is silent again: a claim over it takes its place.
	later := now.Add(2 * time.Minute)
	if _, _, err := acquire(repo, bob, later, "auth too", "src/a.go"); err != nil {
		t.Fatalf("a claim over an expired one: %v", err)
	}
	if got := stored(t, repo); got != "human:docs/** 0b218:src/a.go" {
		t.Errorf("the store: %s, want the expired claim gone", got)
	}
}

// What a set says of a folder written whole, of a teammate's claim, of a
// path that is a folder, and of how old the other machines' copy is.
func TestSetAnswers(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	gittest.WriteFile(t, repo.Top, "src/a.go", "package src\n")
	acquire(repo, mate, now, "tests", "src/**/*_test.go")
	acquire(repo, bob, now, "odd", "we[ir]d/x")
	set, _ := Load(repo, now)
	for _, tc := range []struct {
		rel  string
		want int
	}{{"src", 1}, {"src/lib", 1}, {"docs", 0}, {"we[ir]d", 0}, {"weid", 1}} {
		if hits := set.CheckTree(alice+"/x", repo.Top, tc.rel); len(hits) != tc.want {
			t.Errorf("rm -rf %s: %d hits, want %d", tc.rel, len(hits), tc.want)
		}
	}
	if d := set.Describe(set.Claims[0], present.NewLabeler(repo, naming)); d != `teammate alpha·29065e for «tests» (src/**/*_test.go, claimed under a minute ago)` {
		t.Errorf("Describe: %s", d)
	}
	if f := set.Freshness(); f != "at an unknown time" {
		t.Errorf("Freshness without a copy: %s", f)
	}
	for g, want := range map[string]string{"src": "src/**", "src/a.go": "src/a.go", "src/": "src/", "src/*": "src/*", "nope": "nope"} {
		if got := FolderGlob(repo.Top, g); got != want {
			t.Errorf("FolderGlob(%s) = %s, want %s", g, got, want)
		}
	}
}

// Release ends the owner's claims on globs, or all of them; a glob it
// does not hold is an error, and then nothing is released. ReleaseWhere
// ends the claims of the owners that match, Prune the expired ones and the
// lines that cannot be read.
func TestReleaseAndPrune(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	if n, err := ReleaseWhere(repo, func(claimstore.Claim) bool { return true }, time.Second); n != 0 || err != nil {
		t.Errorf("ReleaseWhere without a store: %d, %v", n, err)
	}
	acquire(repo, alice, now, "a", "a/**", "b/**")
	acquire(repo, sub, now, "c", "c/**")
	acquire(repo, bob, now, "d", "d/**")
	if _, _, err := Release(repo, alice, []string{"a/**", "z/**"}); err == nil || err.Error() != "you hold no claim on z/**: `lucid claims` lists the claims" {
		t.Errorf("release of a glob not held: %v", err)
	}
	released, shared, err := Release(repo, alice, []string{"./a/**"})
	if err != nil || !slices.Equal(released, []string{"a/**"}) || shared {
		t.Errorf("Release: %v %v %v", released, shared, err)
	}
	if got := stored(t, repo); got != "30df3:b/** 30df3:c/** 0b218:d/**" {
		t.Errorf("after releasing a/**: %s", got)
	}
	n, err := ReleaseWhere(repo, func(c claimstore.Claim) bool { return strings.HasPrefix(c.Owner, alice) }, time.Second)
	if n != 2 || err != nil || stored(t, repo) != "0b218:d/**" {
		t.Errorf("ReleaseWhere of alice's session: %d, %v; %s", n, err, stored(t, repo))
	}

	// Held by another: ReleaseWhere gives up within its wait.
	lock, err := repo.Lock()
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReleaseWhere(repo, func(c claimstore.Claim) bool { return c.Owner == bob }, 50*time.Millisecond)
	lock.Unlock()
	if !errors.Is(err, ErrStillLocked) {
		t.Errorf("ReleaseWhere under another's lock: %v", err)
	}

	acquire(repo, agentstore.AgentHuman, now, "kept", "k/**")
	f, _ := os.OpenFile(repo.ClaimsPath(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not a claim\n")
	f.Close()
	n, err = Prune(repo, now.Add(2*DefaultTTL))
	if n != 1 || err != nil {
		t.Errorf("Prune: %d, %v", n, err)
	}
	if cs, bad, _ := claimstore.Load(repo); len(cs) != 1 || cs[0].Owner != agentstore.AgentHuman || bad != 0 {
		t.Errorf("after Prune: %+v, %d bad lines", cs, bad)
	}
	if released, _, err := Release(repo, agentstore.AgentHuman, nil); err != nil || !slices.Equal(released, []string{"k/**"}) {
		t.Errorf("release of all: %v %v", released, err)
	}
}

// The files a shell command is watched for: those other agents' claims
// cover in the work tree, each once, up to a limit.
func TestClaimedFiles(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	for _, f := range []string{"src/a.go", "src/b/c.go", "src/b/c.txt", "README.md", ".lucid/log.jsonl"} {
		gittest.WriteFile(t, repo.Top, f, "x\n")
	}
	acquire(repo, alice, now, "go", "src/**/*.go", "README.md", "missing/**")
	if _, _, err := acquire(repo, bob, now, "mine", "src/b/*.txt"); err != nil {
		t.Fatal(err)
	}
	set, err := LoadIn(repo, now, repo.Top)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Claims) != 2 {
		t.Errorf("LoadIn read %d claims", len(set.Claims))
	}
	files, ok := set.ClaimedFiles(bob, repo.Top, 100)
	slices.Sort(files)
	if !ok || !slices.Equal(files, []string{"README.md", "src/a.go", "src/b/c.go"}) {
		t.Errorf("ClaimedFiles: %v %v", files, ok)
	}
	if files, ok := set.ClaimedFiles(bob, repo.Top, 1); ok || len(files) != 1 {
		t.Errorf("ClaimedFiles past its limit: %v %v", files, ok)
	}
	if files, _ := set.ClaimedFiles(alice, repo.Top, 100); !slices.Equal(files, []string{"src/b/c.txt"}) {
		t.Errorf("ClaimedFiles of the other owner: %v", files)
	}
}

// machine is a clone of a shared remote: another machine, with its own
// identity and claims store.
func machine(t *testing.T, remote string) *gitstore.Repo {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Run(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	repo, err := gitstore.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// Claims shared through a git remote: a claim another machine pushed
// refuses an overlapping one here, fetched now or as last fetched; a
// release here leaves the remote at the next sync; an unreachable remote
// claims nothing, and says what to do.
func TestSharedThroughARemote(t *testing.T) {
	gittest.Setenv(t)
	t.Setenv("LUCID_CLAIM_TTL", "")
	remote := filepath.Join(t.TempDir(), "remote.git")
	gittest.Run(t, filepath.Dir(remote), "init", "-q", "--bare", remote)
	laptop, desktop := machine(t, remote), machine(t, remote)
	now := time.Now()
	shared := func(repo *gitstore.Repo, owner string, globs ...string) (claimstore.Claim, error) {
		c, _, err := Acquire(repo, Request{Owner: owner, Worktree: repo.Top, Task: "shared", Globs: globs, Now: now, Remote: "origin", Naming: naming})
		return c, err
	}
	c, err := shared(laptop, agentstore.AgentHuman, "src/**")
	if err != nil || c.Machine == "" || !c.Expires.Equal(now.Add(DefaultRemoteTTL)) {
		t.Fatalf("a shared claim: %+v, %v", c, err)
	}
	_, err = shared(desktop, bob, "src/a.go")
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "claimed by human on ") {
		t.Fatalf("an overlap with another machine's claim: %v", err)
	}
	if _, err := shared(desktop, bob, "docs/**"); err != nil {
		t.Fatalf("another machine's claim on other files: %v", err)
	}
	// The laptop learns of the desktop's claim at its sync, and decides
	// against that copy without the network.
	res, err := Sync(laptop, "origin", SyncOptions{Now: now})
	if err != nil || res.Others != 1 || res.Pushed {
		t.Errorf("Sync with nothing to change: %+v, %v", res, err)
	}
	if _, _, err := acquire(laptop, alice, now, "local", "docs/x.md"); !errors.As(err, &ce) {
		t.Errorf("a local claim over the copy of the desktop's: %v", err)
	}
	// Released on the laptop, the claim leaves the remote at its sync.
	if _, shared, err := Release(laptop, agentstore.AgentHuman, nil); err != nil || !shared {
		t.Fatalf("release of a shared claim: shared %v, %v", shared, err)
	}
	res, err = Sync(laptop, "origin", SyncOptions{Now: now})
	if err != nil || res.Removed != 1 || !res.Pushed {
		t.Errorf("Sync after the release: %+v, %v", res, err)
	}
	if _, err := shared(desktop, bob, "src/a.go"); err != nil {
		t.Errorf("after the laptop's release: %v", err)
	}
	later := now.Add(time.Minute)
	res, err = Sync(desktop, "origin", SyncOptions{Now: later, Renew: true})
	if err != nil || res.Renewed != 2 || !res.Pushed {
		t.Errorf("Sync --renew: %+v, %v", res, err)
	}
	// (The store keeps times to the millisecond.)
	if cs, _, _ := claimstore.Load(desktop); len(cs) != 2 || cs[0].Expires.Sub(later.Add(DefaultRemoteTTL)).Abs() >= time.Millisecond {
		t.Errorf("the store's expiries after the renewal: %+v", cs)
	}

	_, _, err = Acquire(laptop, Request{Owner: alice, Worktree: laptop.Top, Task: "t", Globs: []string{"x/**"}, Now: now, Remote: "nowhere", Naming: naming})
	if err == nil || !strings.HasPrefix(err.Error(), "nothing was claimed: ") || !strings.HasSuffix(err.Error(), "; try again when it answers, or claim on this machine only with --local-only") {
		t.Errorf("through a remote that is not there: %v", err)
	}
	if cs, _, _ := claimstore.Load(laptop); len(cs) != 0 {
		t.Errorf("a claim the remote did not take is held here: %+v", cs)
	}
}
