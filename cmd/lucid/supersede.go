package main

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/internal/log/logstore"
)

func init() {
	register(&command{name: "supersede", summary: "replace an entry with a corrected one, or retire it", run: runSupersede})
}

func runSupersede(c *cli, args []string) error {
	f := newFlags("supersede", `lucid supersede ID TEXT [-e PATH[:LINE]]...
       lucid supersede ID --retire --why TEXT

Replaces the entry ID with a new one that says TEXT, or retires it. The log
is never edited: this appends an entry that names the one it supersedes, and
from then on only the new one is shown (the old one with lucid log --all).
An unknown ID is refused, and so is one already superseded (the error
names its replacement).`)
	retire := f.Bool("retire", false, "retire the entry instead of replacing it")
	why := f.String("why", "", "why the entry no longer holds (with --retire)")
	evidence := f.StringArrayP("evidence", "e", nil, "cite `PATH[:LINE]` for the new text (repeatable)")
	asJSON := f.Bool("json", false, "print the new entry as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() < 1 {
		return usageErr("name the entry: lucid supersede ID TEXT, or lucid supersede ID --retire --why TEXT")
	}
	id, rest := f.Arg(0), strings.Join(f.Args()[1:], " ")
	text := rest
	switch {
	case *retire && rest != "":
		return usageErr("--retire takes its reason with --why, not as TEXT")
	case *retire:
		text = *why
		if strings.TrimSpace(text) == "" {
			return usageErr("say why the entry is retired: --why \"TEXT\"")
		}
	case *why != "":
		return usageErr("--why goes with --retire")
	case strings.TrimSpace(rest) == "":
		return usageErr("give the new text: lucid supersede ID \"TEXT\" (or --retire --why \"TEXT\")")
	}
	repo, cwd, err := findInitialised()
	if err != nil {
		return err
	}
	by, err := agent()
	if err != nil {
		return err
	}
	e, err := logstore.Supersede(repo, by, id, text, *retire, cwd, *evidence)
	if err != nil {
		return err
	}
	if *asJSON {
		return c.printJSON(e)
	}
	fmt.Fprintln(c.stdout, e.ID)
	return nil
}
