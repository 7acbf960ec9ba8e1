package main

import (
	"fmt"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/hooks"
)

func init() {
	register(&command{name: "dream", summary: "print the live entries for consolidation (/lucid:dream)", run: runDream})
}

// dreamGroups is the order in which lucid dream prints the kinds.
var dreamGroups = []string{gitstore.KindDecision, gitstore.KindFact, gitstore.KindDeadEnd,
	gitstore.KindNote, gitstore.KindPlan, gitstore.KindViolation, gitstore.KindSupersede}

func runDream(c *cli, args []string) error {
	f := newFlags("dream", `lucid dream [--done] [--json]

Prints every live entry of the log, grouped by kind, with its evidence and
stale marks, for an agent to consolidate (the /lucid:dream command): re-check
the stale ones, supersede or retire what no longer holds, write
.lucid/digest.md, then run lucid dream --done. From then on an agent's digest
gives digest.md and only the entries newer than that point.`)
	done := f.Bool("done", false, "record that .lucid/digest.md now covers the log so far")
	asJSON := f.Bool("json", false, "print the live entries as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("dream takes no arguments")
	}
	repo, cwd, err := findInitialised()
	if err != nil {
		return err
	}
	if *done {
		e, err := repo.Dream(agent(), cwd)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, e.ID)
		return nil
	}
	live, invalid, err := repo.Live()
	if err != nil {
		return err
	}
	warnInvalid(c, invalid)
	checker := repo.NewChecker()
	if *asJSON {
		type item struct {
			gitstore.LiveEntry
			Stale []gitstore.Stale `json:"stale,omitempty"`
		}
		out := []item{}
		for _, e := range live {
			out = append(out, item{e, checker.Check(e.Evidence)})
		}
		return c.printJSON(out)
	}
	now, labels := time.Now(), repo.NewLabeler()
	stale := 0
	for _, kind := range dreamGroups {
		var group []gitstore.LiveEntry
		for _, e := range live {
			if e.StandsFor == kind || (kind == gitstore.KindSupersede && !gitstore.KnownKind(e.StandsFor)) {
				group = append(group, e)
			}
		}
		if len(group) == 0 {
			continue
		}
		fmt.Fprintf(c.stdout, "## %s (%d)\n", kind, len(group))
		for _, e := range group {
			marks := checker.Check(e.Evidence)
			if len(marks) > 0 {
				stale++
			}
			fmt.Fprint(c.stdout, hooks.FormatEntry(e.Entry, marks, labels.Label(e.Agent), now))
		}
		fmt.Fprintln(c.stdout)
	}
	fmt.Fprintf(c.stdout, "%d live %s, %d stale.\n", len(live), hooks.Plural(len(live), "entry", "entries"), stale)
	return nil
}
