package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/lucid-dev/lucid/client/clients"
	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/termview"
)

func init() { register(command{name: "watch", run: runWatch}) }

const watchUsage = `usage: lucid watch [--once]

Shows the agents of this repository, their claims, the newest entries of
the log and the notices (violations, denied writes, stale facts, agents that
ended with unreported edits), redrawn as they change.

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
	if sh, ok := hooks.AgentShell(clients.Adapters(), os.Getenv); ok {
		return fmt.Errorf("a person's command, and this runs in a %s agent's shell: ask the user to run it", sh.Client)
	}
	repo, err := findInitialised()
	if err != nil {
		return err
	}
	clients.NameAgents()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return termview.Run(ctx, repo, os.Stdin, stdout, *once)
}

// findInitialised finds the repository around the current folder, set up
// by lucid init.
func findInitialised() (*gitstore.Repo, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	repo, err := gitstore.Find(cwd)
	var notRepo *gitstore.NotRepoError
	switch {
	case errors.As(err, &notRepo), errors.Is(err, gitstore.ErrBare):
		return nil, fmt.Errorf("%v: run it in the work tree of a git repository where `lucid init` was run", err)
	case err != nil:
		return nil, err
	case !repo.Initialised():
		return nil, gitstore.ErrNotInitialised
	}
	return repo, nil
}
