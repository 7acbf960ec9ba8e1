package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/view/termview"
)

func init() { register(command{name: "watch", run: runWatch}) }

const watchUsage = `usage: lucid watch [--once]

Shows the agents of this repository (working, idle or ended, their claims,
entries, unread news, waiting messages, and the claim that last denied
one), the claims, the newest entries of the log (stale ones marked,
violations and plan changes in colour) and the notices (violations, denied
writes, stale facts, agents that ended with unreported edits), redrawn as
they change. A person's command: an agent's shell is refused. lucid runs
it through lucid-view, installed beside lucid (make install puts both).

Keys: 1-4, tab and shift+tab switch views; j/k or the arrows scroll; q quits.

When the output is not a terminal, it prints the four sections as plain
text, again each time they change.

  --once   print one plain frame and exit (for scripts)
`

func runWatch(args []string, stdout, stderr io.Writer) error {
	f := flag.NewFlagSet("watch", flag.ContinueOnError)
	f.SetOutput(io.Discard)
	once := f.Bool("once", false, "")
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, err = io.WriteString(stdout, watchUsage)
			return err
		}
		return usageError{err.Error() + ": see lucid watch --help"}
	}
	if f.NArg() > 0 {
		return usageError{fmt.Sprintf("watch takes no arguments (got %q)", f.Arg(0))}
	}
	repo, err := personRepo()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return termview.Run(ctx, repo, identity.Naming(), os.Stdin, stdout, *once)
}
