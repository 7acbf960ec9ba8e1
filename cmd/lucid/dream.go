package main

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	register(&command{name: "dream", summary: "print the live entries for consolidation (/lucid:dream)", run: runDream})
}

// dreamGroups is the order in which lucid dream prints the kinds.
var dreamGroups = []string{logformat.KindDecision, logformat.KindFact, logformat.KindDeadEnd,
	logformat.KindNote, logformat.KindPlan, logformat.KindViolation, logformat.KindSupersede}

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
		e, err := logstore.Dream(repo, by, cwd)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, e.ID)
		return nil
	}
	live, err := logstore.OpenLive(repo)
	if err != nil {
		return err
	}
	defer live.Close()
	warnInvalid(c, live.Invalid)
	// The entries are streamed from the log, not held: a long log is
	// consolidated in little memory (logstore.Live).
	out := bufio.NewWriterSize(c.stdout, 64<<10)
	defer out.Flush()
	checker := logstore.NewChecker(repo)
	if *asJSON {
		type item struct {
			logstore.LiveEntry
			Stale []logstore.Stale `json:"stale,omitempty"`
		}
		arr := newJSONArray(out)
		err := live.Each(func(string) bool { return true }, func(e logstore.LiveEntry) bool {
			return arr.add(item{e, checker.Check(e.Evidence)}) == nil
		})
		if err != nil {
			return err
		}
		return arr.close()
	}
	now, labels := time.Now(), present.NewLabeler(repo, identity.Naming())
	total, stale := 0, 0
	for _, group := range dreamGroups {
		inGroup := func(kind string) bool {
			return kind == group || (group == logformat.KindSupersede && !logstore.KnownKind(kind))
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
		err := live.Each(inGroup, func(e logstore.LiveEntry) bool {
			marks := checker.Check(e.Evidence)
			if len(marks) > 0 {
				stale++
			}
			_, err := io.WriteString(out, hooks.FormatEntry(e.Entry, marks, labels, now))
			return err == nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "%d live %s, %d stale.\n", total, present.Plural(total, "entry", "entries"), stale)
	return out.Flush()
}
