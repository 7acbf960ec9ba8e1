package main

import (
	"fmt"

	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/internal/client/identity"
)

func init() {
	register(&command{name: "status", summary: "print the digest an agent receives when it starts", run: runStatus})
}

func runStatus(c *cli, args []string) error {
	f := newFlags("status", `lucid status [--json]

Prints the digest exactly as an agent receives it when its session starts:
the plan, .lucid/digest.md, active claims and the newest live entries that
fit LUCID_BUDGET characters (default 8000, at most 9500).`)
	asJSON := f.Bool("json", false, "print the digest's parts as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("status takes no arguments")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	d, err := hooks.BuildDigest(repo, hooks.DigestOptions{Naming: identity.Naming()})
	if err != nil {
		return err
	}
	warnInvalid(c, d.Invalid)
	if *asJSON {
		return c.printJSON(d)
	}
	fmt.Fprint(c.stdout, d.Text)
	return nil
}
