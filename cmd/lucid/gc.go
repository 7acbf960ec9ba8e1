package main

import (
	"fmt"
	"time"

	"github.com/lucid-dev/lucid/agentstore"
	"github.com/lucid-dev/lucid/claims"
	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/lichstore"
)

func init() {
	register(&command{name: "gc", summary: "remove expired claims and old lich edit markers", run: runGC})
}

func runGC(c *cli, args []string) error {
	f := newFlags("gc", `lucid gc

Removes the claims and leases that have expired (their owners silent for
LUCID_CLAIM_TTL seconds; they block nobody already), the edit markers
older than 7 days, and the notices no agent came to take in 7 days, and
says how many of each. Nothing else is touched.`)
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
		claims, hooks.Plural(claims, "claim", "claims"), markers, hooks.Plural(markers, "marker", "markers"))
	if notices > 0 {
		fmt.Fprintf(c.stdout, "removed the notices of %d %s that did not come to take them in 7 days\n", notices, hooks.Plural(notices, "agent", "agents"))
	}
	return nil
}
