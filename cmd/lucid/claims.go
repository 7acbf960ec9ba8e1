package main

import (
	"fmt"
	"time"

	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/settings"
)

func init() {
	register(&command{name: "claims", summary: "list the active claims of every agent", run: runClaims})
}

func runClaims(c *cli, args []string) error {
	f := newFlags("claims", `lucid claims [--json]

Lists every active claim of the repository, in every work tree: the globs,
the owner's label, the task and when it was claimed, and the work tree when
it is not this one, and how long until it ends by itself: an agent's when
its silence reaches LUCID_CLAIM_TTL seconds (each tool call it makes starts
that again), another machine's when it expires; a person's holds until it
is released. Expired claims are left out. With a remote set, the other machines' claims are
listed too, with their machine, as the last fetch saw them.

Leases are listed too, marked as such: a file an agent's write took
without a claim, held until its turn ends (where lucid init --leases on
turned them on). The last line says whether leases are on.`)
	asJSON := f.Bool("json", false, "print the claims as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("claims takes no arguments")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	now := time.Now()
	set, err := claims.Load(repo, now)
	if err != nil {
		return err
	}
	active := set.ActiveClaims()
	labels := present.NewLabeler(repo, identity.Naming())
	if *asJSON {
		type item struct {
			ID           string    `json:"id"`
			Owner        string    `json:"owner"`
			Label        string    `json:"label"`
			Globs        []string  `json:"globs"`
			Task         string    `json:"task"`
			Created      time.Time `json:"created"`
			LastActive   time.Time `json:"last_active,omitzero"`
			Worktree     string    `json:"worktree"`
			ThisWorktree bool      `json:"this_worktree"`
			// A shared claim's machine and expiry on the remote; another
			// machine's claim has no last_active.
			Machine string    `json:"machine,omitempty"`
			Foreign bool      `json:"other_machine,omitempty"`
			Expires time.Time `json:"expires,omitzero"`
			// When the claim ends unless renewed; a person's has none.
			Ends time.Time `json:"ends,omitzero"`
			// A lease: taken by the owner's write, held until its turn ends.
			Lease bool `json:"lease,omitempty"`
		}
		out := []item{}
		for _, cl := range active {
			it := item{ID: cl.ID, Owner: cl.Owner, Label: labels.Label(cl.Owner), Globs: cl.Globs, Task: cl.Task, Created: cl.Created.UTC(),
				Worktree: cl.Worktree, ThisWorktree: cl.Worktree == repo.Top, Machine: cl.Machine, Foreign: set.Foreign(cl), Lease: cl.Lease}
			if !cl.Expires.IsZero() {
				it.Expires = cl.Expires.UTC()
			}
			if end, ok := set.Ends(cl); ok {
				it.Ends = end.UTC()
			}
			if it.Foreign {
				it.ThisWorktree = false
			} else {
				it.LastActive = set.LastActive(cl).UTC()
			}
			out = append(out, it)
		}
		return c.printJSON(out)
	}
	st, err := settings.Load(repo)
	if err != nil {
		fmt.Fprintf(c.stderr, "lucid: %v\n", err)
	}
	if len(active) == 0 {
		fmt.Fprintf(c.stdout, "no active claims\n%s\n", st.Describe())
		return nil
	}
	foreign := 0
	for _, cl := range active {
		fmt.Fprintf(c.stdout, "%s; %s\n", set.ClaimLine(cl, labels, repo.Top), ends(set, cl, labels, now))
		if set.Foreign(cl) {
			foreign++
		}
	}
	if foreign > 0 {
		fmt.Fprintf(c.stdout, "(other machines' claims as fetched %s; `lucid remote sync` fetches them again)\n", set.Freshness())
	}
	fmt.Fprintln(c.stdout, st.Describe())
	return nil
}

// ends says when a claim ends by itself: "ends in 14 min unless
// lead·1bd236 makes a tool call", "held until released", "expires in 2 h".
// The digest's claim lines leave it out: every agent reads those.
func ends(set *claims.Set, cl claimstore.Claim, labels *present.Labeler, now time.Time) string {
	end, ok := set.Ends(cl)
	switch {
	case !ok:
		return "held until released"
	case set.Foreign(cl):
		return "expires " + present.In(end, now)
	case cl.Lease:
		return fmt.Sprintf("ends with its turn, or %s unless %s makes a tool call", present.In(end, now), labels.Label(cl.Owner))
	}
	return fmt.Sprintf("ends %s unless %s makes a tool call", present.In(end, now), labels.Label(cl.Owner))
}
