package main

import (
	"fmt"
	"time"

	"github.com/lucid-dev/lucid/guard"
)

func init() {
	register(&command{name: "claims", summary: "list the active claims of every agent", run: runClaims})
}

func runClaims(c *cli, args []string) error {
	f := newFlags("claims", `lucid claims [--json]

Lists every active claim of the repository, in every work tree: the globs,
the owner's label, the task and when it was claimed, and the work tree when
it is not this one. Expired claims (owners silent for LUCID_CLAIM_TTL
seconds) are left out.`)
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
	set, err := guard.LoadClaims(repo, now)
	if err != nil {
		return err
	}
	active := set.ActiveClaims()
	labels := repo.NewLabeler()
	if *asJSON {
		type item struct {
			ID           string    `json:"id"`
			Owner        string    `json:"owner"`
			Label        string    `json:"label"`
			Globs        []string  `json:"globs"`
			Task         string    `json:"task"`
			Created      time.Time `json:"created"`
			LastActive   time.Time `json:"last_active"`
			Worktree     string    `json:"worktree"`
			ThisWorktree bool      `json:"this_worktree"`
		}
		out := []item{}
		for _, cl := range active {
			out = append(out, item{cl.ID, cl.Owner, labels.Label(cl.Owner), cl.Globs, cl.Task, cl.Created.UTC(),
				set.LastActive(cl).UTC(), cl.Worktree, cl.Worktree == repo.Top})
		}
		return c.printJSON(out)
	}
	if len(active) == 0 {
		fmt.Fprintln(c.stdout, "no active claims")
		return nil
	}
	for _, cl := range active {
		fmt.Fprintln(c.stdout, set.ClaimLine(cl, labels, repo.Top))
	}
	return nil
}
