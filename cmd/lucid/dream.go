package main

import (
	"bufio"
	"fmt"
	"io"
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
		by, err := agent()
		if err != nil {
			return err
		}
		e, err := repo.Dream(by, cwd)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, e.ID)
		return nil
	}
	live, err := repo.OpenLive()
	if err != nil {
		return err
	}
	defer live.Close()
	warnInvalid(c, live.Invalid)
	// The entries are streamed from the log, not held: a long log is
	// consolidated in little memory (gitstore.LiveLog).
	out := bufio.NewWriterSize(c.stdout, 64<<10)
	defer out.Flush()
	checker := repo.NewChecker()
	if *asJSON {
		type item struct {
			gitstore.LiveEntry
			Stale []gitstore.Stale `json:"stale,omitempty"`
		}
		arr := newJSONArray(out)
		err := live.Each(func(string) bool { return true }, func(e gitstore.LiveEntry) bool {
			return arr.add(item{e, checker.Check(e.Evidence)}) == nil
		})
		if err != nil {
			return err
		}
		return arr.close()
	}
	now, labels := time.Now(), repo.NewLabeler()
	total, stale := 0, 0
	for _, group := range dreamGroups {
		inGroup := func(kind string) bool {
			return kind == group || (group == gitstore.KindSupersede && !gitstore.KnownKind(kind))
		}
		n := 0
		for _, k := range live.Kinds() {
			if inGroup(k) {
				n += live.Counts[k]
			}
		}
		if n == 0 {
			continue
		}
		total += n
		fmt.Fprintf(out, "## %s (%d)\n", group, n)
		err := live.Each(inGroup, func(e gitstore.LiveEntry) bool {
			marks := checker.Check(e.Evidence)
			if len(marks) > 0 {
				stale++
			}
			_, err := io.WriteString(out, hooks.FormatEntry(e.Entry, marks, labels.Label(e.Agent), now))
			return err == nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "%d live %s, %d stale.\n", total, hooks.Plural(total, "entry", "entries"), stale)
	return out.Flush()
}
