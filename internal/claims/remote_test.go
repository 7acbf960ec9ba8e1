package claims

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/present"
)

// remoteFixture is a repository (folders only: nothing here runs git) with
// a machine identity, and the identity of another machine.
func remoteFixture(t *testing.T) (*gitstore.Repo, string, string) {
	t.Helper()
	repo := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	me, err := remoteclaims.Machine(repo)
	if err != nil {
		t.Fatal(err)
	}
	return repo, me, "0123456789ab@laptop"
}

// The copy of the remote's claims: another machine's live claim applies to
// the same relative paths in every work tree here, whoever the writer is
// (the same owner id on another machine is another agent); an expired one
// and this machine's own (which its store holds) do not.
func TestForeignClaimsInTheGuard(t *testing.T) {
	repo, me, other := remoteFixture(t)
	now := time.Now()
	copyOf := []claimstore.Claim{
		{ID: "live", Owner: agentstore.AgentHuman, Machine: other, Worktree: "/elsewhere", Task: "auth", Globs: []string{"src/**"}, Created: now.Add(-10 * time.Second), Expires: now.Add(time.Hour)},
		{ID: "gone", Owner: "s", Machine: other, Worktree: "/elsewhere", Task: "old", Globs: []string{"docs/**"}, Created: now.Add(-3 * time.Hour), Expires: now.Add(-time.Hour)},
		{ID: "mine", Owner: "s", Machine: me, Worktree: repo.Top, Task: "mine", Globs: []string{"lib/**"}, Created: now, Expires: now.Add(time.Hour)},
	}
	if err := remoteclaims.SaveCopy(repo, copyOf); err != nil {
		t.Fatal(err)
	}
	set, err := Load(repo, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Remote) != 2 || set.Fetched.IsZero() {
		t.Fatalf("Remote %v, fetched %v: want the two claims of the other machine", set.Remote, set.Fetched)
	}
	for _, top := range []string{repo.Top, "/another/work/tree"} {
		hits := set.Check(agentstore.AgentHuman, top, "src/a.go")
		if len(hits) != 1 || hits[0].Claim.ID != "live" || !hits[0].Here {
			t.Errorf("in %s: hits %+v, want the live claim, here", top, hits)
		}
	}
	if hits := set.CheckTree("x", repo.Top, "src"); len(hits) != 1 {
		t.Errorf("rm -rf src: %+v", hits)
	}
	for _, rel := range []string{"docs/a.md", "lib/a.go", "README.md"} {
		if hits := set.Check("x", repo.Top, rel); len(hits) != 0 {
			t.Errorf("%s: %+v", rel, hits)
		}
	}
	d := set.Describe(set.Remote[0], present.NewLabeler(repo, naming))
	if d != `human on laptop (012345) for «auth» (src/**, claimed under a minute ago)` {
		t.Errorf("Describe: %s", d)
	}
	if line := set.ClaimLine(set.Remote[0], present.NewLabeler(repo, naming), repo.Top); line != `src/**: human on laptop (012345) for «auth» (under a minute ago)` {
		t.Errorf("ClaimLine: %s", line)
	}
	active := set.ActiveClaims()
	if len(active) != 1 || active[0].ID != "live" {
		t.Errorf("ActiveClaims: %v", active)
	}

	// Without the network, a claim is still decided against the copy.
	_, _, err = Acquire(repo, Request{Owner: agentstore.AgentHuman, Worktree: repo.Top, Task: "t", Globs: []string{"src/x/**"}, Now: now, Naming: naming})
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "claimed by human on laptop (012345)") {
		t.Errorf("overlapping claim: %v", err)
	}
	if _, _, err := Acquire(repo, Request{Owner: agentstore.AgentHuman, Worktree: repo.Top, Task: "t", Globs: []string{"docs/**"}, Now: now, Naming: naming}); err != nil {
		t.Errorf("a claim over an expired one: %v", err)
	}
}

// reconcile keeps the other machines' live claims as they are, and this
// machine's as its store has them; shareLapsed brings back this machine's
// claims missing there, unless another machine's claim overlaps them now.
func TestReconcile(t *testing.T) {
	repo, me, other := remoteFixture(t)
	now := time.Now()
	exp := now.Add(time.Hour)
	store := []claimstore.Claim{
		{ID: "partly", Owner: agentstore.AgentHuman, Machine: me, Globs: []string{"a/**"}, Task: "p", Created: now, Expires: exp},
		{ID: "lapsed", Owner: agentstore.AgentHuman, Machine: me, Globs: []string{"b/**"}, Task: "l", Created: now, Expires: now.Add(-time.Minute)},
		{ID: "taken", Owner: agentstore.AgentHuman, Machine: me, Globs: []string{"c/**"}, Task: "t", Created: now, Expires: now.Add(-time.Minute)},
		{ID: "local", Owner: agentstore.AgentHuman, Globs: []string{"d/**"}, Task: "only here", Created: now},
		// An agent silent for longer than the TTL: its claim ended here.
		{ID: "stopped", Owner: "s/a", Machine: me, Globs: []string{"e/**"}, Task: "s", Created: now.Add(-time.Hour), Expires: exp},
	}
	if err := claimstore.Save(repo, store); err != nil {
		t.Fatal(err)
	}
	remote := []claimstore.Claim{
		{ID: "partly", Owner: agentstore.AgentHuman, Machine: me, Globs: []string{"a/**", "a2/**"}, Created: now, Expires: exp},
		{ID: "released", Owner: agentstore.AgentHuman, Machine: me, Globs: []string{"r/**"}, Created: now, Expires: exp},
		{ID: "stopped", Owner: "s/a", Machine: me, Globs: []string{"e/**"}, Created: now, Expires: exp},
		{ID: "theirs", Owner: "x", Machine: other, Globs: []string{"c/sub/**"}, Created: now, Expires: exp},
		{ID: "theirs-old", Owner: "x", Machine: other, Globs: []string{"z/**"}, Created: now, Expires: now.Add(-time.Second)},
	}
	set, err := Load(repo, now)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(cs []claimstore.Claim) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	next, changed := reconcile(set, remote, me, false, 0)
	if ids(next) != "partly theirs" || !changed {
		t.Fatalf("reconcile: %s, changed %v", ids(next), changed)
	}
	for _, c := range next {
		if c.ID == "partly" && (!slices.Equal(c.Globs, []string{"a/**"}) || !c.Expires.Equal(exp)) {
			t.Errorf("partly released: %+v", c)
		}
	}
	if _, changed := reconcile(set, next, me, false, 0); changed {
		t.Error("reconciled claims changed again")
	}

	next, _ = reconcile(set, remote, me, true, 2*time.Hour)
	next, shared, lapsed := shareLapsed(set, next, me, 2*time.Hour)
	if ids(next) != "lapsed partly theirs" || shared != 1 || len(lapsed) != 1 || lapsed[0].ID != "taken" {
		t.Fatalf("renew: %s, shared %d, lapsed %v", ids(next), shared, lapsed)
	}
	for _, c := range next {
		if c.Machine == me && !c.Expires.Equal(now.Add(2*time.Hour)) {
			t.Errorf("%s expires %v, want renewed", c.ID, c.Expires)
		}
	}
}

// A remote that cannot be reached is worth trying again; one that answered
// and refused the push (a hook, a protected ref) is not, and the message
// says whom to ask instead.
func TestSharedClaimErrorSaysWhatToDo(t *testing.T) {
	for _, c := range []struct {
		err  *remoteclaims.RemoteError
		want string
	}{
		{&remoteclaims.RemoteError{Remote: "origin", Reason: "'/nowhere' does not appear to be a git repository"},
			"nothing was claimed: cannot reach the remote origin (git: '/nowhere' does not appear to be a git repository); try again when it answers, or claim on this machine only with --local-only"},
		{&remoteclaims.RemoteError{Remote: "origin", Reason: "[remote rejected] (pre-receive hook declined)", Refused: true},
			"nothing was claimed: the remote origin refused the push (git: [remote rejected] (pre-receive hook declined)); ask the remote's owner to let refs/lucid/claims be pushed, or claim on this machine only with --local-only"},
	} {
		if got := sharedClaimError("origin", nothingClaimed, c.err).Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
