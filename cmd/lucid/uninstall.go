package main

import (
	"fmt"

	"github.com/lucid-dev/lucid/hooks"
)

func init() {
	register(&command{name: "uninstall", summary: "remove lucid's hooks and commands from this repository (keeps .lucid/)", run: runUninstall})
}

func runUninstall(c *cli, args []string) error {
	f := newFlags("uninstall", `lucid uninstall

Removes exactly what lucid init added to Claude Code's settings: lucid's
hooks in .claude/settings.json and .claude/settings.local.json, and the
/lucid:dream command (unless you changed it). Your own settings and hooks
stay as they are, and so does .lucid/ with the plan and the log.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("uninstall takes no arguments")
	}
	repo, _, err := findRepo()
	if err != nil {
		return err
	}
	changes, err := hooks.Uninstall(repo)
	if err != nil {
		return err
	}
	printChanges(c, changes)
	if len(changes) == 0 {
		fmt.Fprintln(c.stdout, "lucid's hooks are not installed here; nothing changed")
	}
	return nil
}
