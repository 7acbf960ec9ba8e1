package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/clients"
	"github.com/lucid-dev/lucid/internal/client/identity"
)

func init() {
	register(&command{name: "hook", summary: "handle a hook event of a coding client (run by the client)", run: runHook})
}

// fastHook runs `lucid hook EVENT`, Claude Code's call on every tool call
// of every agent, without building a flag set for it; anything else
// (--client, --help, a missing or extra word) goes through runHook.
func fastHook(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, bool) {
	switch {
	case len(args) == 2 && args[0] == "hook" && !strings.HasPrefix(args[1], "-"):
		return runHookAs(clients.Default(), args[1], stdin, stdout, stderr), true
	case len(args) == 3 && args[0] == "hook" && args[1] == "--user" && !strings.HasPrefix(args[2], "-"):
		return runUserHook(clients.Default(), args[2], stdin, stdout, stderr), true
	}
	return 0, false
}

// runUserHook runs a hook of client registered outside the project (the
// user's settings, lucid init --user, or lucid's plugin of the client),
// unless the project registers lucid's own hooks, which then serve it.
func runUserHook(client client.Client, event string, stdin io.Reader, stdout, stderr io.Writer) int {
	if aside, _ := clients.UserHookStandsAside(client, event); aside {
		return 0
	}
	return runHookAs(client, event, stdin, stdout, stderr)
}

// runHookAs runs one hook call of client, unless it is not one: a `lucid
// hook` that an agent runs in its own shell speaks for whoever its payload
// names, so it is refused, with exit 0 like every hook's own trouble. A
// call of an entry that another client runs answers as that client takes
// it, or does nothing where lucid's own entry of that client serves it
// (clients.Hosted).
func runHookAs(client client.Client, event string, stdin io.Reader, stdout, stderr io.Writer) int {
	hosted, aside := clients.Hosted(client, os.Getenv)
	if aside {
		return 0
	}
	if why := identity.ForgedHook(client, identity.All(), os.Getenv); why != "" {
		fmt.Fprintln(stderr, "lucid:", why)
		return 0
	}
	return hooks.Run(hosted, clients.Adapters(), identity.Naming(), event, stdin, stdout, stderr)
}

func runHook(c *cli, args []string) error {
	def := clients.Default()
	f := newFlags("hook", `lucid hook [--client NAME] [--user] EVENT

Handles one hook call of a coding client: reads the payload on stdin and
prints at most one answer. `+"`lucid init`"+` registers it for each event
(`+def.Title()+`'s: `+strings.Join(client.EventNames(def.Events()), ", ")+`).
It never fails the agent's work: trouble is one line on stderr and exit 0.
A hook is the client's to run: one run in an agent's shell is refused.`)
	name := f.String("client", def.Name(), "the client that calls: "+strings.Join(clients.Names(), ", "))
	user := f.Bool("user", false, "a hook registered outside the project (lucid init --user, a plugin): it stands aside where the project registers lucid's own ("+strings.Join(clients.UserHookClients(), ", ")+")")
	if err := f.parse(c, args); err != nil {
		return err
	}
	cl, ok := clients.ByName(*name)
	if !ok {
		return usageErr("unknown client %q: lucid hook --client takes %s", *name, strings.Join(clients.Names(), ", "))
	}
	if f.NArg() != 1 {
		return usageErr("name the event: lucid hook --client %s EVENT (one of %s)", cl.Name(), strings.Join(client.EventNames(cl.Events()), ", "))
	}
	if *user {
		if !slices.Contains(clients.UserHookClients(), cl.Name()) {
			return usageErr("--user is for the hooks of %s, not %s's", strings.Join(clients.UserHookClients(), ", "), cl.Title())
		}
		return &exitError{code: runUserHook(cl, f.Arg(0), c.stdin, c.stdout, c.stderr), err: errQuiet}
	}
	return &exitError{code: runHookAs(cl, f.Arg(0), c.stdin, c.stdout, c.stderr), err: errQuiet}
}
