package main

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

var recordSummaries = map[string]string{
	logformat.KindFact:     "record a fact that holds, with its evidence",
	logformat.KindDecision: "record a decision and why",
	logformat.KindDeadEnd:  "record an approach that failed, so nobody tries it again",
	logformat.KindNote:     "record anything else worth knowing",
}

func init() {
	for _, kind := range logstore.RecordKinds {
		register(&command{name: kind, summary: recordSummaries[kind], run: func(c *cli, args []string) error {
			return runRecord(c, kind, args)
		}})
	}
}

func runRecord(c *cli, kind string, args []string) error {
	f := newFlags(kind, fmt.Sprintf(`lucid %s TEXT [-e PATH[:LINE]]...

Appends a %s to .lucid/log.jsonl and prints its id. Each -e cites a file (and
a line) inside the work tree that shows it; lucid keeps its path from the
top and its BLAKE3 hash, and marks the entry stale when the file changes. A
path outside the work tree, a missing file, a folder or a line past the end
is refused. The writer is $LUCID_AGENT, else "human".`, kind, kind))
	evidence := f.StringArrayP("evidence", "e", nil, "cite `PATH[:LINE]` (repeatable)")
	asJSON := f.Bool("json", false, "print the entry as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	text := strings.Join(f.Args(), " ")
	if strings.TrimSpace(text) == "" {
		return usageErr("say what to record: lucid %s \"TEXT\" [-e PATH[:LINE]]", kind)
	}
	repo, cwd, err := findInitialised()
	if err != nil {
		return err
	}
	by, err := agent()
	if err != nil {
		return err
	}
	e, err := logstore.Record(repo, by, kind, text, cwd, *evidence)
	if err != nil {
		return err
	}
	if *asJSON {
		return c.printJSON(e)
	}
	fmt.Fprintln(c.stdout, e.ID)
	return nil
}
