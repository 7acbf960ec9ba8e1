package hooks

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// fakeClaims is a claims.Store of claims no file holds.
type fakeClaims struct {
	local, remote []claimstore.Claim
	err           error
	released      int
}

func (f *fakeClaims) Load(repo *gitstore.Repo, now time.Time) (*claims.Set, error) {
	return f.set(repo, now)
}

func (f *fakeClaims) LoadFor(repo *gitstore.Repo, now time.Time, _ []string, _ []bool) (*claims.Set, error) {
	return f.set(repo, now)
}

func (f *fakeClaims) LoadIn(repo *gitstore.Repo, now time.Time, _ string) (*claims.Set, error) {
	return f.set(repo, now)
}

func (f *fakeClaims) ReleaseWhere(_ *gitstore.Repo, which func(claimstore.Claim) bool, _ time.Duration) (int, error) {
	kept := f.local[:0]
	for _, c := range f.local {
		if which(c) {
			f.released++
		} else {
			kept = append(kept, c)
		}
	}
	f.local = kept
	return f.released, f.err
}

func (f *fakeClaims) set(repo *gitstore.Repo, now time.Time) (*claims.Set, error) {
	if f.err != nil {
		return nil, f.err
	}
	return claims.NewSet(repo, now, f.local, f.remote), nil
}

// The write guard's decisions, on claims from a fake store: a path another
// agent claimed in this work tree is denied, with the owner and how to
// reach them; one claimed in another work tree passes with a warning; the
// caller's own claims and unclaimed paths pass; a store that cannot be
// read stops the decision with its error.
func TestGuardWritesDecides(t *testing.T) {
	gittest.Setenv(t)
	repo, err := gitstore.Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claim := func(owner, worktree, glob string) claimstore.Claim {
		return claimstore.Claim{ID: "c-" + owner + glob, Owner: owner, Worktree: worktree, Globs: []string{glob},
			Task: "task of " + owner, Created: now, Expires: now.Add(time.Hour)}
	}
	store := &fakeClaims{local: []claimstore.Claim{
		claim(agentstore.AgentHuman, repo.Top, "src/**"),
		claim("me", repo.Top, "mine/**"),
		claim(agentstore.AgentHuman, "/elsewhere", "docs/**"),
	}}
	c := &call{naming: naming, in: client.Input{Event: "PreToolUse", SessionID: "me", Client: "claude"}, repo: repo, home: true,
		agent: "me", now: now, claims: store, found: map[string]*gitstore.Repo{}}
	decide := func(rel string) (string, string) {
		t.Helper()
		deny, warn, err := c.guardWrites(written{targets: []target{{path: repo.Abs(rel), repo: repo, rel: rel}}})
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		return deny, warn
	}
	if deny, _ := decide("src/a.go"); !strings.Contains(deny, "src/a.go is claimed by") || !strings.Contains(deny, "ask the user") {
		t.Errorf("a path the user claimed here: deny %q", deny)
	}
	if deny, warn := decide("docs/a.md"); deny != "" || !strings.Contains(warn, "claimed in the work tree /elsewhere") {
		t.Errorf("a path claimed in another work tree: deny %q, warn %q", deny, warn)
	}
	for _, rel := range []string{"mine/a.go", "free/a.go"} {
		if deny, warn := decide(rel); deny != "" || warn != "" {
			t.Errorf("%s: deny %q, warn %q", rel, deny, warn)
		}
	}
	if deny, _, _ := c.guardWrites(written{targets: []target{{repo: repo, rel: gitstore.LogName}}}); deny != appendOnly {
		t.Errorf("a write to the log: deny %q", deny)
	}
	if !c.othersClaim() {
		t.Error("othersClaim: the user's claims are others'")
	}

	// Ending the caller's claims goes through the store too.
	if err := c.releaseClaims(func(owner string) bool { return owner == "me" }); err != nil || store.released != 1 {
		t.Errorf("releaseClaims: %v, %d released", err, store.released)
	}

	store.err = errors.New("the store is unreadable")
	if _, _, err := c.guardWrites(written{targets: []target{{repo: repo, rel: "src/a.go"}}}); !errors.Is(err, store.err) {
		t.Errorf("an unreadable store: %v", err)
	}
	if !c.othersHoldClaims([]*gitstore.Repo{repo}) {
		t.Error("othersHoldClaims: an unreadable store must count as held (the guard fails closed)")
	}
}
