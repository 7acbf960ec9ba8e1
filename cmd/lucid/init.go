package main

import (
	"fmt"

	"github.com/lucid-dev/lucid/installers"
	"github.com/lucid-dev/lucid/merge"
)

func init() {
	register(&command{name: "init", summary: "set lucid up in this repository (safe to run again)", run: runInit})
}

func runInit(c *cli, args []string) error {
	f := newFlags("init", `lucid init [--local] [--statusline] [--force]

Sets lucid up in this repository: .lucid/plan.md (the shared plan) and
.lucid/log.jsonl (the log) at the work tree's top; lucid's hooks in
.claude/settings.json, beside your own settings and hooks; the
/lucid:dream command in .claude/commands/lucid/dream.md; and the log's merge
driver: the line `+"`"+`.lucid/log.jsonl merge=lucid`+"`"+` in .gitattributes (commit it)
and merge.lucid.driver in the repository's git config. Run it again at any
time: it changes nothing that is in place. lucid uninstall takes all of it
away again but .lucid/.

--statusline also makes lucid statusline Claude Code's status line: the
other lich session that just edited your file, or lucid's active claims.`)
	local := f.Bool("local", false, "register the hooks in .claude/settings.local.json (yours alone) instead of settings.json (shared)")
	statusLine := f.Bool("statusline", false, "register lucid statusline as Claude Code's status line")
	force := f.Bool("force", false, "replace a merge.lucid.driver, or with --statusline a status line, that lucid did not write")
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
	changes, err := installers.Install(repo, installers.InstallOptions{Local: *local, StatusLine: *statusLine, Force: *force})
	if err != nil {
		return err
	}
	printChanges(c, changes)
	merged, err := merge.Install(repo, *force)
	if err != nil {
		return err
	}
	printChanges(c, merged)
	changes = append(changes, merged...)
	if len(res.Created) == 0 && len(changes) == 0 {
		fmt.Fprintln(c.stdout, "lucid is already set up here; nothing changed")
	}
	return nil
}

func printChanges(c *cli, changes []installers.Change) {
	for _, ch := range changes {
		fmt.Fprintf(c.stdout, "%s: %s\n", ch.Path, ch.What)
	}
}
