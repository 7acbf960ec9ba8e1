package remoteclaims

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// network makes a bare remote and n clones of it, each with the remote as
// origin and claims shared through it, and returns the remote's folder and
// the clones.
func network(t *testing.T, n int) (string, []*gitstore.Repo) {
	t.Helper()
	gittest.Setenv(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "remote.git")
	gittest.Run(t, dir, "init", "-q", "--bare", bare)
	var clones []*gitstore.Repo
	for range n {
		top := gittest.Committed(t)
		gittest.Run(t, top, "remote", "add", "origin", bare)
		r, err := gitstore.Find(top)
		if err != nil {
			t.Fatal(err)
		}
		if err := SetRemote(r, "origin"); err != nil {
			t.Fatal(err)
		}
		clones = append(clones, r)
	}
	return bare, clones
}

// claimOf is a claim of the clone r on globs.
func claimOf(t *testing.T, r *gitstore.Repo, id string, globs ...string) claimstore.Claim {
	t.Helper()
	m, err := Machine(r)
	if err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1764662400123)
	return claimstore.Claim{ID: id, Owner: "s/" + id, Machine: m, Worktree: r.Top, Globs: globs, Task: "task " + id, Created: at, Expires: at.Add(time.Hour)}
}

// ids lists the ids of claims, sorted.
func ids(claims []claimstore.Claim) string {
	var out []string
	for _, c := range claims {
		out = append(out, c.ID)
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// ref is what the ref name points to in the repository at dir, "" when
// there is no such ref.
func ref(t *testing.T, dir, name string) string {
	t.Helper()
	return gittest.Run(t, dir, "for-each-ref", "--format=%(objectname)", name)
}

// A claim pushed by one clone is fetched by another, whole; each keeps the
// remote's claims in its local copy, and the commits form a history.
func TestClaimsTravelBetweenClones(t *testing.T) {
	bare, clones := network(t, 2)
	a, b := clones[0], clones[1]
	if Remote(a) != "origin" {
		t.Fatalf("Remote: %q", Remote(a))
	}
	if claims, at, err := LoadCopy(a); claims != nil || !at.IsZero() || err != nil {
		t.Fatalf("a copy before any fetch: %v, %v, %v", claims, at, err)
	}

	// A remote without the ref: no claims, and a copy that says when it was seen.
	base, err := Fetch(a, "origin", false)
	if err != nil || base.Commit != "" || len(base.Claims) != 0 || base.Remote != "origin" {
		t.Fatalf("Fetch of a remote without claims: %+v, %v", base, err)
	}
	if claims, at, err := LoadCopy(a); len(claims) != 0 || at.IsZero() || err != nil {
		t.Fatalf("the copy after fetching no claims: %v, %v, %v", claims, at, err)
	}

	c1 := claimOf(t, a, "01KA1", "src/**")
	pushed, err := Push(a, base, []claimstore.Claim{c1}, "claim src", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got := ref(t, bare, Ref); got != pushed.Commit || got == "" {
		t.Fatalf("the remote's ref %q, pushed %q", got, pushed.Commit)
	}
	if got := ref(t, a.Top, CopyRef); got != pushed.Commit {
		t.Errorf("the pusher's copy ref %q, pushed %q", got, pushed.Commit)
	}
	if claims, _, _ := LoadCopy(a); ids(claims) != "01KA1" {
		t.Errorf("the pusher's copy: %v", claims)
	}

	got, err := Fetch(b, "origin", false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Commit != pushed.Commit || len(got.Claims) != 1 {
		t.Fatalf("fetched %+v, pushed %s", got, pushed.Commit)
	}
	g := got.Claims[0]
	if g.ID != c1.ID || g.Owner != c1.Owner || g.Machine != KnownMachine(a) || g.Worktree != a.Top || !slices.Equal(g.Globs, c1.Globs) ||
		g.Task != c1.Task || !g.Created.Equal(c1.Created) || !g.Expires.Equal(c1.Expires) {
		t.Errorf("fetched %+v\nwant %+v", g, c1)
	}
	if KnownMachine(a) == KnownMachine(b) {
		t.Error("two clones are one machine")
	}
	if claims, _, _ := LoadCopy(b); ids(claims) != "01KA1" {
		t.Errorf("the fetcher's copy: %v", claims)
	}
	if r := ref(t, b.Top, CopyRef); r != pushed.Commit {
		t.Errorf("the fetcher's copy ref %q", r)
	}

	// The second clone adds its claim on top: the first sees both, and the
	// remote's commit has the first as its parent.
	c2 := claimOf(t, b, "01KB1", "docs/*.md")
	second, err := Push(b, got, append(got.Claims, c2), "claim docs", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if parent := gittest.Run(t, bare, "rev-parse", second.Commit+"^"); parent != pushed.Commit {
		t.Errorf("the parent of the second commit is %s, want %s", parent, pushed.Commit)
	}
	again, err := Fetch(a, "origin", false)
	if err != nil || again.Commit != second.Commit || ids(again.Claims) != "01KA1,01KB1" {
		t.Fatalf("the first clone fetches %+v, %v", again, err)
	}
	// Nothing changed: the same commit, read from what is here.
	if same, err := Fetch(a, "origin", false); err != nil || same.Commit != second.Commit || ids(same.Claims) != "01KA1,01KB1" {
		t.Errorf("a second fetch: %+v, %v", same, err)
	}
}

// Two clones update the same commit: the remote takes the first push and
// refuses the second as a lost lease, leaving the first's claims; the
// loser fetches again at once and its next push, on what won, goes in.
func TestPushLosesTheLease(t *testing.T) {
	bare, clones := network(t, 2)
	a, b := clones[0], clones[1]
	baseA, err := Fetch(a, "origin", false)
	if err != nil {
		t.Fatal(err)
	}
	baseB, err := Fetch(b, "origin", false)
	if err != nil {
		t.Fatal(err)
	}
	won, err := Push(a, baseA, []claimstore.Claim{claimOf(t, a, "01KA1", "src/**")}, "a", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// On a remote that had no ref.
	if _, err := Push(b, baseB, []claimstore.Claim{claimOf(t, b, "01KB1", "src/**")}, "b", time.Now()); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("the second push on the same base: %v", err)
	}
	if got := ref(t, bare, Ref); got != won.Commit {
		t.Fatalf("the remote's ref moved to %s after a lost lease", got)
	}
	if claims, _, _ := LoadCopy(b); len(claims) != 0 {
		t.Errorf("the loser's copy holds %v", claims)
	}
	// The loser fetches straight away, sees the winner's claim and adds its own.
	moved, err := Fetch(b, "origin", true)
	if err != nil || moved.Commit != won.Commit || ids(moved.Claims) != "01KA1" {
		t.Fatalf("Fetch after the lost lease: %+v, %v", moved, err)
	}
	next, err := Push(b, moved, append(moved.Claims, claimOf(t, b, "01KB1", "docs/**")), "b again", time.Now())
	if err != nil {
		t.Fatalf("the push after fetching again: %v", err)
	}
	// On a ref that moved since: the winner's own base is stale now.
	if _, err := Push(a, won, nil, "release", time.Now()); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("a push on a stale commit: %v", err)
	}
	if got := ref(t, bare, Ref); got != next.Commit {
		t.Fatalf("the remote's ref is %s, want %s", got, next.Commit)
	}
}

// A remote whose claims were deleted has none: the fetch forgets the
// copy ref; one rolled back to an older commit that is here already is
// read without a fetch.
func TestFetchFollowsTheRemote(t *testing.T) {
	bare, clones := network(t, 1)
	a := clones[0]
	base, _ := Fetch(a, "origin", false)
	first, err := Push(a, base, []claimstore.Claim{claimOf(t, a, "01KA1", "a/**")}, "one", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	second, err := Push(a, first, []claimstore.Claim{claimOf(t, a, "01KA2", "b/**")}, "two", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	gittest.Run(t, bare, "update-ref", Ref, first.Commit, second.Commit)
	got, err := Fetch(a, "origin", false)
	if err != nil || got.Commit != first.Commit || ids(got.Claims) != "01KA1" {
		t.Fatalf("after the remote went back: %+v, %v", got, err)
	}
	if r := ref(t, a.Top, CopyRef); r != first.Commit {
		t.Errorf("the copy ref %s, want %s", r, first.Commit)
	}
	gittest.Run(t, bare, "update-ref", "-d", Ref)
	got, err = Fetch(a, "origin", false)
	if err != nil || got.Commit != "" || len(got.Claims) != 0 {
		t.Fatalf("after the remote's ref was deleted: %+v, %v", got, err)
	}
	if r := ref(t, a.Top, CopyRef); r != "" {
		t.Errorf("the copy ref is still %s", r)
	}
	if claims, at, _ := LoadCopy(a); len(claims) != 0 || at.IsZero() {
		t.Errorf("the copy: %v, %v", claims, at)
	}
	// A fetch after the lease was lost, on a remote with no ref.
	if got, err := Fetch(a, "origin", true); err != nil || got.Commit != "" {
		t.Errorf("a moved fetch of no ref: %+v, %v", got, err)
	}
	// A ref that is not a claims commit leaves the copy as it was.
	SaveCopy(a, []claimstore.Claim{claimOf(t, a, "01KKEEP", "k")})
	blob := gittest.Run(t, a.Top, "hash-object", "-w", gittest.WriteFile(t, t.TempDir(), "x", "not claims\n"))
	gittest.Run(t, a.Top, "push", "-q", "origin", blob+":"+Ref)
	var bad *BadRefError
	if _, err := Fetch(a, "origin", false); !errors.As(err, &bad) || bad.Commit != blob || !strings.Contains(err.Error(), "it points to a blob, not a commit") {
		t.Errorf("a blob on the ref: %v", err)
	}
	if claims, _, _ := LoadCopy(a); ids(claims) != "01KKEEP" {
		t.Errorf("a bad ref changed the copy: %v", claims)
	}
}

// A remote that git cannot reach is a RemoteError with git's reason, and
// the local copy stays as it was.
func TestUnreachableRemote(t *testing.T) {
	_, clones := network(t, 1)
	a := clones[0]
	nowhere := filepath.Join(t.TempDir(), "nowhere.git")
	gittest.Run(t, a.Top, "remote", "set-url", "origin", nowhere)
	kept := []claimstore.Claim{claimOf(t, a, "01KKEEP", "k")}
	if err := SaveCopy(a, kept); err != nil {
		t.Fatal(err)
	}
	want := "cannot reach the remote origin (git: '" + nowhere + "' does not appear to be a git repository)"
	_, err := Fetch(a, "origin", false)
	var re *RemoteError
	if !errors.As(err, &re) || err.Error() != want {
		t.Errorf("Fetch: %v\nwant %s", err, want)
	}
	if _, err := Fetch(a, "origin", true); !errors.As(err, &re) || err.Error() != want {
		t.Errorf("a moved Fetch: %v\nwant %s", err, want)
	}
	if _, err := Push(a, &State{Remote: "origin"}, kept, "x", time.Now()); !errors.As(err, &re) || err.Error() != want {
		t.Errorf("Push: %v\nwant %s", err, want)
	}
	if claims, _, _ := LoadCopy(a); ids(claims) != "01KKEEP" {
		t.Errorf("the copy after failures: %v", claims)
	}
}

// A remote that never answers is given up after LUCID_REMOTE_TIMEOUT, so
// that a claim does not hold the lock for ever.
func TestRemoteThatNeverAnswers(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the remote's end is a shell script")
	}
	_, clones := network(t, 1)
	a := clones[0]
	// The remote's end reads and never speaks; it ends when git does.
	gittest.Run(t, a.Top, "config", "remote.origin.uploadpack", "cat >/dev/null; :")
	t.Setenv("LUCID_REMOTE_TIMEOUT", "1")
	start := time.Now()
	_, err := Fetch(a, "origin", false)
	var re *RemoteError
	if !errors.As(err, &re) || err.Error() != "cannot reach the remote origin (git: no answer within 1s (LUCID_REMOTE_TIMEOUT))" {
		t.Errorf("a remote that never answers: %v", err)
	}
	if took := time.Since(start); took < time.Second || took > 10*time.Second {
		t.Errorf("gave up after %v", took)
	}
}

// A push the remote refuses for its own reasons (a hook) is not a lost
// lease: trying again would not help, and the error says what the remote said.
func TestPushRefusedByTheRemote(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the remote's end is a shell script")
	}
	bare, clones := network(t, 1)
	a := clones[0]
	hook := filepath.Join(bare, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho no claims here >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	base, _ := Fetch(a, "origin", false)
	_, err := Push(a, base, []claimstore.Claim{claimOf(t, a, "01KA1", "a")}, "x", time.Now())
	var re *RemoteError
	if !errors.As(err, &re) || errors.Is(err, ErrLeaseLost) || err.Error() != "the remote origin refused the push (git: [remote rejected] (pre-receive hook declined))" {
		t.Errorf("a declined push: %v", err)
	}
	if got := ref(t, bare, Ref); got != "" {
		t.Errorf("the remote took it: %s", got)
	}
}

// Setting the remote checks it exists and forgets the copy of another
// remote's claims; unsetting it stops the sharing and says whether it was on.
func TestSetAndUnsetRemote(t *testing.T) {
	bare, clones := network(t, 1)
	a := clones[0]
	if url, err := RemoteURL(a, "origin"); err != nil || url != bare {
		t.Errorf("RemoteURL: %q, %v", url, err)
	}
	for name, want := range map[string]string{
		"":        `"" is not the name of a git remote: ` + "`git remote -v` lists them",
		"-x":      `"-x" is not the name of a git remote: ` + "`git remote -v` lists them",
		"a b":     `"a b" is not the name of a git remote: ` + "`git remote -v` lists them",
		"missing": `this repository has no remote "missing": ` + "`git remote -v` lists them, `git remote add missing URL` adds one",
	} {
		if err := SetRemote(a, name); err == nil || err.Error() != want {
			t.Errorf("SetRemote(%q): %v\nwant %s", name, err, want)
		}
	}
	if Remote(a) != "origin" {
		t.Fatalf("a refused remote changed the setting: %q", Remote(a))
	}
	base, _ := Fetch(a, "origin", false)
	if _, err := Push(a, base, []claimstore.Claim{claimOf(t, a, "01KA1", "a")}, "x", time.Now()); err != nil {
		t.Fatal(err)
	}
	// The same remote again keeps the copy.
	if err := SetRemote(a, "origin"); err != nil {
		t.Fatal(err)
	}
	if claims, _, _ := LoadCopy(a); ids(claims) != "01KA1" || ref(t, a.Top, CopyRef) == "" {
		t.Errorf("setting the same remote forgot its claims: %v", claims)
	}
	gittest.Run(t, a.Top, "remote", "add", "other", bare)
	if err := SetRemote(a, "other"); err != nil {
		t.Fatal(err)
	}
	if Remote(a) != "other" || gittest.Run(t, a.Top, "config", "--local", ConfigKey) != "other" {
		t.Errorf("the remote is %q", Remote(a))
	}
	if _, err := os.Stat(a.RemoteClaimsPath()); !errors.Is(err, os.ErrNotExist) || ref(t, a.Top, CopyRef) != "" {
		t.Errorf("a new remote kept the old one's copy: %v, %s", err, ref(t, a.Top, CopyRef))
	}
	Fetch(a, "other", false)
	if set, err := UnsetRemote(a); !set || err != nil {
		t.Errorf("UnsetRemote: %v, %v", set, err)
	}
	if Remote(a) != "" || ref(t, a.Top, CopyRef) != "" {
		t.Errorf("after UnsetRemote: %q, %s", Remote(a), ref(t, a.Top, CopyRef))
	}
	if _, err := os.Stat(a.RemoteClaimsPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the copy is left: %v", err)
	}
	if got := ref(t, bare, Ref); got == "" {
		t.Error("unsetting the remote deleted its claims")
	}
	if set, err := UnsetRemote(a); set || err != nil {
		t.Errorf("UnsetRemote again: %v, %v", set, err)
	}
}

// Two pushes that meet on the remote: the remote's own compare-and-swap
// of the ref refuses the one that came second, which is a lost lease like
// any other. The remote's update hook stands for the other push: it moves
// the ref to another machine's claims just before the remote updates it.
func TestPushMeetsAnotherOnTheRemote(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the remote's hook is a shell script")
	}
	bare, clones := network(t, 2)
	a, b := clones[0], clones[1]
	other := claimOf(t, b, "01KB1", "src/**")
	theirs, err := writeClaimsCommit(b, []claimstore.Claim{other}, "", "theirs", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	gittest.Run(t, b.Top, "push", "-q", "origin", theirs+":refs/heads/theirs")
	hook := filepath.Join(bare, "hooks", "update")
	script := "#!/bin/sh\ngit update-ref " + Ref + " refs/heads/theirs\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	base, _ := Fetch(a, "origin", false)
	if _, err := Push(a, base, []claimstore.Claim{claimOf(t, a, "01KA1", "src/**")}, "mine", time.Now()); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("a push that met another: %v", err)
	}
	if got := ref(t, bare, Ref); got != theirs {
		t.Fatalf("the remote's ref is %s, want the other push's %s", got, theirs)
	}
	os.Remove(hook)
	moved, err := Fetch(a, "origin", true)
	if err != nil || moved.Commit != theirs || ids(moved.Claims) != "01KB1" {
		t.Errorf("the fetch after: %+v, %v", moved, err)
	}
}
