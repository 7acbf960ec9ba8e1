package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client/clients"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/settings"
	"github.com/lucid-dev/lucid/internal/setup"
	"github.com/lucid-dev/lucid/merge"
)

func init() {
	register(&command{name: "init", summary: "set lucid up in this repository (safe to run again)", run: runInit})
}

func runInit(c *cli, args []string) error {
	f := newFlags("init", clients.InitHelp)
	names := f.StringSlice("client", nil, "set lucid up in these clients: "+strings.Join(clients.Names(), ", ")+" (repeatable, or a comma list)")
	local := f.Bool("local", false, clients.InitUsage("local"))
	statusLine := f.Bool("statusline", false, clients.InitUsage("statusline"))
	force := f.Bool("force", false, "replace a merge.lucid.driver, or with --statusline a status line, that lucid did not write")
	trusts := clients.Trusts()
	trust := make([]*bool, len(trusts))
	for i, t := range trusts {
		trust[i] = f.Bool(t.Flag, false, t.Usage)
	}
	user := f.Bool("user", false, clients.InitUsage("user"))
	leases := f.String("leases", "", "`on` or off: whether an agent's write takes a lease on the file (kept in "+settings.Name+")")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("init takes no arguments")
	}
	if *leases != "" && *leases != "on" && *leases != "off" {
		return usageErr("init --leases %q: say on or off", *leases)
	}
	if *leases != "" {
		if *user {
			return usageErr("--leases is a repository's choice: run lucid init --leases %s in the repository", *leases)
		}
		// An agent that turned leases off would free what other agents
		// are editing for itself.
		if err := personOnly("init --leases"); err != nil {
			return err
		}
	}
	if *user {
		if *local || *statusLine || slices.ContainsFunc(trust, func(b *bool) bool { return *b }) {
			return usageErr("--user sets up the clients' user settings alone: run lucid init --user [--client NAME], then lucid init in a repository")
		}
		if err := personOnly("init --user"); err != nil {
			return err
		}
		return initUser(c, *names)
	}
	var chosen []clients.Client
	for _, name := range *names {
		cl, ok := clients.ByName(strings.ToLower(strings.TrimSpace(name)))
		if !ok {
			return usageErr("init --client %q: lucid knows %s", name, clients.Known(clients.Names()))
		}
		if !slices.Contains(chosen, cl) {
			chosen = append(chosen, cl)
		}
	}
	repo, _, err := findRepo()
	if err != nil {
		return err
	}
	def := clients.Default()
	if len(chosen) == 0 {
		chosen = []clients.Client{def}
		for _, cl := range clients.All()[1:] {
			h := cl.Setup().Hooks
			if dir, found := h.Detected(repo); found {
				fmt.Fprintf(c.stdout, "found %s: setting lucid up for %s too\n", filepath.ToSlash(dir)+"/", h.Name)
				chosen = append(chosen, cl)
			}
		}
	}
	if !slices.Contains(chosen, def) && (*local || *statusLine) {
		return usageErr("--local and --statusline are %s's: add --client %s", def.Title(), def.Name())
	}
	trusted := map[string]bool{}
	for i, t := range trusts {
		if !*trust[i] {
			continue
		}
		if !slices.Contains(chosen, t.Client) {
			return usageErr("%s", t.Misuse)
		}
		trusted[t.Client.Name()] = true
	}
	res, err := repo.Init()
	if err != nil {
		return err
	}
	for _, p := range res.Created {
		fmt.Fprintf(c.stdout, "created %s\n", p)
	}
	settingsChanged := false
	if *leases != "" {
		if settingsChanged, err = settings.SetLeases(repo, *leases == "on"); err != nil {
			return err
		}
		if settingsChanged {
			fmt.Fprintf(c.stdout, "leases %s in %s (commit it, so every clone agrees)\n", *leases, settings.Name)
		}
		if *leases == "off" {
			// Off is off now, not when each agent's turn ends.
			n, err := claims.ReleaseWhere(repo, func(cl claimstore.Claim) bool { return cl.Lease }, 0)
			if err != nil {
				return err
			}
			if n > 0 {
				fmt.Fprintf(c.stdout, "ended %d %s\n", n, present.Plural(n, "lease", "leases"))
			}
		}
	}
	opt := installers.Options{Local: *local, StatusLine: *statusLine, Force: *force}
	var changes []setup.Change
	for _, cl := range chosen {
		opt.Trust = trusted[cl.Name()]
		ch, err := cl.Setup().Install(repo, opt)
		if err != nil {
			return err
		}
		printChanges(c, ch)
		changes = append(changes, ch...)
	}
	merged, err := merge.Install(repo, *force)
	if err != nil {
		return err
	}
	printChanges(c, merged)
	changes = append(changes, merged...)
	if len(res.Created) == 0 && len(changes) == 0 && !settingsChanged {
		fmt.Fprintln(c.stdout, "lucid is already set up here; nothing changed")
	}
	for _, cl := range clients.All() {
		advise := cl.Setup().Advice
		if !slices.Contains(chosen, cl) || advise == nil {
			continue
		}
		if advice := advise(repo); advice != "" {
			fmt.Fprintf(c.stdout, "\n%s\n", advice)
		}
	}
	return nil
}

// initUser registers lucid's hooks in the user settings of the clients
// named (the default one when none is), for sessions started in any
// folder.
func initUser(c *cli, names []string) error {
	if len(names) == 0 {
		names = []string{clients.Default().Name()}
	}
	for _, name := range names {
		var hooks *installers.Client
		var path, whyNot string
		if cl, ok := clients.ByName(name); ok {
			// A client whose user set-up is a file of lucid's own (Pi's
			// extension, Cline's hook files) writes it itself.
			if write := cl.Setup().UserWrite; write != nil {
				ch, err := write()
				if err != nil {
					return err
				}
				printChanges(c, ch)
				if len(ch) == 0 {
					fmt.Fprintf(c.stdout, "lucid's %s files are already in place; nothing changed\n", cl.Title())
				}
				continue
			}
			hooks, path, whyNot = cl.Setup().User()
		}
		if hooks == nil {
			if whyNot != "" {
				return usageErr("init --user --client %s: %s", name, whyNot)
			}
			var here []string
			for _, cl := range clients.All() {
				if h, _, _ := cl.Setup().User(); h != nil || cl.Setup().UserWrite != nil {
					here = append(here, cl.Name())
				}
			}
			return usageErr("init --user --client %q: lucid knows %s here", name, clients.Known(here))
		}
		ch, err := installers.InstallUser(hooks, path)
		if err != nil {
			return err
		}
		printChanges(c, ch)
		if len(ch) == 0 {
			fmt.Fprintf(c.stdout, "lucid's %s hooks are already in %s; nothing changed\n", hooks.Name, path)
		}
	}
	return nil
}

func printChanges(c *cli, changes []setup.Change) {
	for _, ch := range changes {
		fmt.Fprintf(c.stdout, "%s: %s\n", ch.Path, ch.What)
	}
}
