package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	register(&command{name: "log", summary: "show the log, newest first", run: runLog})
}

// loggedEntry is an entry as `lucid log --json` prints it.
type loggedEntry struct {
	logstore.Listed
	Stale []logstore.Stale `json:"stale,omitempty"`
}

func runLog(c *cli, args []string) error {
	f := newFlags("log", `lucid log [-n N] [--all] [--kind K] [--agent A] [--path PATH|GLOB] [--json]

Shows the entries of .lucid/log.jsonl, newest first, with ⚠stale where a
cited file changed. Superseded and retired entries are left out unless --all.
--path lists the entries that cite a file, or any file a glob matches.`)
	n := f.IntP("n", "n", 0, "show at most `N` entries (0: all)")
	all := f.Bool("all", false, "include superseded and retired entries")
	kind := f.String("kind", "", "only entries of kind `K` ("+strings.Join(kindNames(), ", ")+")")
	agentFilter := f.String("agent", "", "only entries written by agent `A` (a session id also selects its subagents)")
	pathFilter := f.String("path", "", "only entries citing `PATH`, a file or a glob relative to the work tree's top (src/auth/**)")
	asJSON := f.Bool("json", false, "print a JSON array")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("log takes no arguments (got %q)", f.Arg(0))
	}
	if *n < 0 {
		return usageErr("-n takes a number of entries, 0 or more")
	}
	if *kind != "" && !logstore.KnownKind(*kind) {
		return usageErr("unknown kind %q: use one of %s", *kind, strings.Join(kindNames(), ", "))
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	opt := logstore.ListOptions{N: *n, All: *all, Kind: *kind, Agent: *agentFilter}
	if *pathFilter != "" {
		if opt.Cites, opt.CitesHint, err = citesMatcher(repo, *pathFilter); err != nil {
			return err
		}
	}
	list, invalid, err := logstore.List(repo, opt)
	if err != nil {
		return err
	}
	warnInvalid(c, invalid)
	checker := logstore.NewChecker(repo)
	out := make([]loggedEntry, len(list))
	for i, l := range list {
		out[i] = loggedEntry{Listed: l, Stale: checker.Check(l.Evidence)}
	}
	if *asJSON {
		return c.printJSON(out)
	}
	now, labels := time.Now(), present.NewLabeler(repo, identity.Naming())
	for _, l := range out {
		fmt.Fprint(c.stdout, withSupersededBy(hooks.FormatEntry(l.Entry, l.Stale, labels, now), l.SupersededBy))
	}
	if len(out) == 0 {
		fmt.Fprintln(c.stderr, "lucid: no entries")
	}
	return nil
}

// kindNames are the kinds --kind takes.
func kindNames() []string { return logstore.Kinds }
