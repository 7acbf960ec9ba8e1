package main

import (
	"fmt"

	"github.com/lucid-dev/lucid/installers"
	"github.com/lucid-dev/lucid/merge"
)

func init() {
	register(&command{name: "uninstall", summary: "remove lucid's hooks and commands from this repository (keeps .lucid/)", run: runUninstall})
}

func runUninstall(c *cli, args []string) error {
	f := newFlags("uninstall", `lucid uninstall
       lucid uninstall --user

Removes exactly what lucid init added: lucid's hooks (and status line) in
.claude/settings.json and .claude/settings.local.json, lucid's hooks in
.codex/hooks.json and .gemini/settings.json and the Codex trust that
lucid init --trust-codex wrote for them, the /lucid:dream
command (unless you changed it), the merge driver's line in .gitattributes
and its keys in the git config. Your own settings, hooks and attributes
stay as they are, and so does .lucid/ with the plan and the log.
--user removes what lucid init --user added to your user settings (Claude
Code's and Gemini CLI's), and nothing else. It is a person's command: an agent's shell is
refused.`)
	user := f.Bool("user", false, "remove lucid's hooks from your user settings (Claude Code's and Gemini CLI's)")
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
		for _, id := range []string{"claude", "gemini"} {
			cl, path := installers.UserHooks(id)
			changes, err := installers.UninstallUser(cl, path)
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
	changes, err := installers.UninstallAll(repo)
	if err != nil {
		printChanges(c, changes) // what was done before the trouble
		return err
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
