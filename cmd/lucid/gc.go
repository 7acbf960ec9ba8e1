package main

import (
	"fmt"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	register(&command{name: "gc", summary: "remove expired claims and old lich edit markers", run: runGC})
}

func runGC(c *cli, args []string) error {
	f := newFlags("gc", `lucid gc

Removes the claims and leases that have expired (their owners silent for
LUCID_CLAIM_TTL seconds; they block nobody already), the edit markers
older than 7 days, and the notices no agent came to take in 7 days, and
says how many of each. A file of lucid's state that has another name (a
hard link) or belongs to another user is written anew as lucid's own
first, and named. Nothing else is touched.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("gc takes no arguments")
	}
	repo, _, err := findRepo()
	if err != nil {
		return err
	}
	now := time.Now()
	if err := repairState(c, repo); err != nil {
		return err
	}
	claims, err := claims.Prune(repo, now)
	if err != nil {
		return err
	}
	markers, err := lichstore.GC(repo, now)
	if err != nil {
		return err
	}
	notices, err := agentstore.GCNotices(repo, now, lichstore.MaxAge)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "removed %d expired %s and %d lich edit %s older than 7 days\n",
		claims, present.Plural(claims, "claim", "claims"), markers, present.Plural(markers, "marker", "markers"))
	if notices > 0 {
		fmt.Fprintf(c.stdout, "removed the notices of %d %s that did not come to take them in 7 days\n", notices, present.Plural(notices, "agent", "agents"))
	}
	return nil
}

// repairState writes anew the files of lucid's state that another name or
// another user could change (lucid doctor names them), under the lock.
func repairState(c *cli, repo *gitstore.Repo) error {
	lock, err := repo.Lock()
	if err != nil {
		return err
	}
	defer lock.Unlock()
	fixed, err := repo.RepairState()
	for _, p := range fixed {
		fmt.Fprintf(c.stdout, "wrote %s anew as a file of lucid's own\n", p)
	}
	return err
}
