package claims

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
)

// A hand-over moves the globs named from the giver's claim to a new claim
// of the recipient, made now, in the same work tree and for the same
// task; the giver keeps the rest, and a third agent finds the files held.
func TestHandoff(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	acquire(repo, alice, now.Add(-time.Minute), "auth", "src/**", "lib/**")
	got, gave, err := Handoff(repo, alice, bob, []string{"./src/**"}, now, naming)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Owner != bob || !got[0].Created.Equal(now) || got[0].Task != "auth" || got[0].Worktree != repo.Top || strings.Join(got[0].Globs, ",") != "src/**" {
		t.Errorf("got %+v", got)
	}
	if len(gave) != 1 || gave[0].Owner != alice || strings.Join(gave[0].Globs, ",") != "src/**,lib/**" {
		t.Errorf("gave %+v, want alice's claim as it was", gave)
	}
	if s := stored(t, repo); s != "30df3:lib/** 0b218:src/**" {
		t.Errorf("the store: %s", s)
	}
	var ce *ConflictError
	if _, _, err := acquire(repo, sub, now, "me too", "src/a.go"); !errors.As(err, &ce) || ce.Owner != bob {
		t.Errorf("a third agent's claim after the hand-over: %v, want refused by bob's", err)
	}
	// A glob the recipient holds already is not claimed twice.
	acquire(repo, alice, now, "more", "lib/a.go")
	if _, _, err := acquire(repo, bob, now, "b", "web/**"); err != nil {
		t.Fatal(err)
	}
	Handoff(repo, bob, alice, []string{"web/**"}, now, naming)
	if got, _, err := Handoff(repo, alice, bob, []string{"web/**"}, now, naming); err != nil || len(got) != 1 {
		t.Fatalf("handing back: %+v %v", got, err)
	}
	if got, _, err := Handoff(repo, alice, bob, []string{"lib/**", "lib/a.go"}, now, naming); err != nil || len(got) != 2 {
		t.Errorf("lib/** and lib/a.go together: %+v, %v", got, err)
	}
	if s := stored(t, repo); s != "0b218:src/** 0b218:web/** 0b218:lib/** 0b218:lib/a.go" {
		t.Errorf("the store: %s", s)
	}
}

// Nothing is handed, and the store is left as it was, when a glob is not
// the giver's active claim, when it is shared through a remote, or when the
// recipient would hold what overlaps another claim: the giver's own that
// it keeps, a third agent's, another machine's.
func TestHandoffRefusals(t *testing.T) {
	repo := gitRepo(t)
	t.Setenv("LUCID_CLAIM_TTL", "60")
	now := time.Now()
	claimsOf := func(cs ...claimstore.Claim) {
		t.Helper()
		for i := range cs {
			cs[i].ID, cs[i].Worktree, cs[i].Task = "0"+string(rune('A'+i)), repo.Top, "t"
			if cs[i].Created.IsZero() {
				cs[i].Created = now
			}
		}
		if err := claimstore.Save(repo, cs); err != nil {
			t.Fatal(err)
		}
	}
	claimsOf(
		claimstore.Claim{Owner: alice, Globs: []string{"src/**", "src/a.go"}},
		claimstore.Claim{Owner: alice, Globs: []string{"old/**"}, Created: now.Add(-time.Hour)},
		claimstore.Claim{Owner: alice, Globs: []string{"net/**"}, Machine: "9f8e7d@laptop", Expires: now.Add(time.Hour)},
		claimstore.Claim{Owner: alice, Globs: []string{"api/**"}},
		claimstore.Claim{Owner: sub, Globs: []string{"api/v1/*.go"}},
		claimstore.Claim{Owner: alice, Globs: []string{"far/x"}},
	)
	far := claimstore.Claim{ID: "0Z", Owner: "someone", Created: now, Expires: now.Add(time.Hour), Machine: "1a2b3c@other", Worktree: "/there", Task: "far", Globs: []string{"far/*"}}
	if err := os.WriteFile(repo.RemoteClaimsPath(), claimstore.Encode([]claimstore.Claim{far}), 0o644); err != nil {
		t.Fatal(err)
	}
	before := stored(t, repo)
	var nh *NotHeldError
	for _, tc := range []struct {
		globs []string
		want  string
	}{
		{[]string{"docs/**"}, "you hold no claim on docs/**"},
		{[]string{"src/**", "docs/**"}, "you hold no claim on docs/**"},
		{[]string{"old/**"}, "you hold no claim on old/**"}, // expired: alice silent for an hour
		{[]string{"net/**"}, "nothing was handed: your claim on net/** is shared with other machines"},
		{[]string{"src/a.go"}, "nothing was handed: you would keep src/**, which overlaps src/a.go (both can match src/a.go): hand both over, or release src/** first"},
		{[]string{"api/**"}, "nothing was handed: api/** overlaps api/v1/*.go (both can match api/v1/.go), claimed by agent·a2adb9"},
		{[]string{"far/x"}, "nothing was handed: far/x overlaps far/* (both can match far/x), claimed by someone on other (1a2b3c)"},
	} {
		_, _, err := Handoff(repo, alice, bob, tc.globs, now, naming)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("hand over %v: %v\nwant %s", tc.globs, err, tc.want)
		}
		if strings.HasPrefix(tc.want, "you hold") && !errors.As(err, &nh) {
			t.Errorf("hand over %v: %T, want a NotHeldError", tc.globs, err)
		}
		if s := stored(t, repo); s != before {
			t.Errorf("after %v refused, the store: %s\nwant %s", tc.globs, s, before)
		}
	}
	// A third agent's expired claim that overlaps does not refuse it: it
	// goes, as under a claim.
	claimsOf(
		claimstore.Claim{Owner: alice, Globs: []string{"api/**"}},
		claimstore.Claim{Owner: sub, Globs: []string{"api/v1/*.go"}, Created: now.Add(-time.Hour)},
	)
	if _, _, err := Handoff(repo, alice, bob, []string{"api/**"}, now, naming); err != nil {
		t.Fatal(err)
	}
	if s := stored(t, repo); s != "0b218:api/**" {
		t.Errorf("the store: %s, want the expired claim gone", s)
	}
}

// Ends: an agent's claim ends when its silence reaches the TTL, another
// machine's at its expiry, a person's never by itself.
func TestEnds(t *testing.T) {
	repo := gitRepo(t)
	t.Setenv("LUCID_CLAIM_TTL", "600")
	now := time.Now()
	mine := claimstore.Claim{Owner: alice, Created: now.Add(-4 * time.Minute)}
	person := claimstore.Claim{Owner: agentstore.AgentHuman, Created: now.Add(-48 * time.Hour)}
	far := claimstore.Claim{Owner: bob, Created: now, Machine: "1a2b3c@other", Expires: now.Add(time.Hour)}
	set := NewSet(repo, now, []claimstore.Claim{mine, person}, []claimstore.Claim{far})
	if end, ok := set.Ends(mine); !ok || !end.Equal(now.Add(6*time.Minute)) {
		t.Errorf("an agent's claim ends %v %v, want in 6 min", end, ok)
	}
	if _, ok := set.Ends(person); ok {
		t.Errorf("a person's claim ends by itself")
	}
	if end, ok := set.Ends(far); !ok || !end.Equal(far.Expires) {
		t.Errorf("another machine's claim ends %v %v, want its expiry", end, ok)
	}
	if err := agentstore.Save(repo, agentstore.Record{ID: alice, Worktree: repo.Top}); err != nil {
		t.Fatal(err)
	}
	set = NewSet(repo, time.Now(), []claimstore.Claim{mine}, nil)
	if end, _ := set.Ends(mine); end.Before(now.Add(9 * time.Minute)) {
		t.Errorf("after its owner's hook call, an agent's claim ends %v, want the TTL from then", end)
	}
}

// A refused claim says how to ask the owner for it: the command, for an
// agent here; through the user, for another machine's agent.
func TestConflictSaysHowToAsk(t *testing.T) {
	repo := gitRepo(t)
	now := time.Now()
	far := claimstore.Claim{ID: "0Z", Owner: bob, Created: now, Expires: now.Add(time.Hour), Machine: "1a2b3c@other", Worktree: "/there", Task: "far", Globs: []string{"far/*"}}
	acquire(repo, alice, now, "docs", "docs/**") // makes lucid's folder
	if err := os.WriteFile(repo.RemoteClaimsPath(), claimstore.Encode([]claimstore.Claim{far}), 0o644); err != nil {
		t.Fatal(err)
	}
	for glob, want := range map[string]string{
		"docs/a b.md": "ask for it with `lucid ask " + alice + ` --for-claim 'docs/**' "why you need it"` + "`, or work on other files",
		"far/x":       "wait until it expires, ask that agent (through the user), or work on other files",
	} {
		if _, _, err := acquire(repo, sub, now, "t", glob); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("claim %s: %v\nwant it to end %q", glob, err, want)
		}
	}
}
