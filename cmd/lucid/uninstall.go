package main

import (
	"fmt"

	"github.com/lucid-dev/lucid/internal/client/clients"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
	"github.com/lucid-dev/lucid/merge"
)

func init() {
	register(&command{name: "uninstall", summary: "remove lucid's hooks and commands from this repository (keeps .lucid/)", run: runUninstall})
}

func runUninstall(c *cli, args []string) error {
	f := newFlags("uninstall", clients.UninstallHelp)
	user := f.Bool("user", false, clients.UninstallUserUsage)
	if err := f.parse(c, args); err != nil {
		return err
	}
	if err := personOnly("uninstall"); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("uninstall takes no arguments")
	}
	if *user {
		for _, cl := range clients.All() {
			if r := cl.Setup().UserRemove; r != nil {
				changes, err := r()
				printChanges(c, changes)
				if err != nil {
					return err
				}
				continue
			}
			hooks, path, _ := cl.Setup().User()
			if hooks == nil {
				continue
			}
			changes, err := installers.UninstallUser(hooks, path)
			if err != nil {
				return err
			}
			printChanges(c, changes)
		}
		return nil
	}
	repo, _, err := findRepo()
	if err != nil {
		return err
	}
	var changes []setup.Change
	for _, cl := range clients.All() {
		ch, err := cl.Setup().Uninstall(repo)
		changes = append(changes, ch...)
		if err != nil {
			printChanges(c, changes) // what was done before the trouble
			return err
		}
	}
	merged, err := merge.Uninstall(repo)
	if err != nil {
		return err
	}
	changes = append(changes, merged...)
	printChanges(c, changes)
	if len(changes) == 0 {
		fmt.Fprintln(c.stdout, "lucid is not installed here; nothing changed")
	}
	return nil
}
