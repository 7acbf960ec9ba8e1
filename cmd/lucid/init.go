package main

import (
	"fmt"
)

func init() {
	register(&command{name: "init", summary: "set lucid up in this repository (safe to run again)", run: runInit})
}

func runInit(c *cli, args []string) error {
	f := newFlags("init", `lucid init

Creates .lucid/plan.md (the shared plan) and .lucid/log.jsonl (the log) in
the work tree's top. Run it again at any time: it changes nothing that exists.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("init takes no arguments")
	}
	repo, _, err := findRepo()
	if err != nil {
		return err
	}
	res, err := repo.Init()
	if err != nil {
		return err
	}
	for _, p := range res.Created {
		fmt.Fprintf(c.stdout, "created %s\n", p)
	}
	if len(res.Created) == 0 {
		fmt.Fprintln(c.stdout, "lucid is already set up here; nothing changed")
	}
	return nil
}
