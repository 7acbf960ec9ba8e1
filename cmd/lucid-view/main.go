// Command lucid-view is what lucid web and lucid watch run: the live page
// and the terminal view of a repository's agents, claims and log.
//
// It is a binary of its own so that the code of the page and of the
// terminal view, and the packages they need (net/http, a terminal UI
// library), are not in the binary every hook starts: Go runs the
// initialisation of every package a binary links, on every start, and a
// hook starts on every tool call. lucid finds it beside itself or on PATH.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/proctree"
)

// A subcommand of lucid-view, run as lucid NAME.
type command struct {
	name string
	run  func(args []string, stdout, stderr io.Writer) error
}

// commands are registered by the init of each subcommand's file.
var commands []command

func register(c command) { commands = append(commands, c) }

// usageError is a mistake in the arguments: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: lucid web|watch [FLAGS]: lucid-view is run by lucid web and lucid watch")
		return 2
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		var ue usageError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "lucid %s: %v\n", c.name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "lucid %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "lucid-view: unknown command %q: run lucid web or lucid watch\n", args[0])
	return 2
}

// personRepo is where lucid web and lucid watch start: a person's commands
// (the page acts as the person), so refused in an agent's shell, which an
// agent could run lucid-view in without lucid (the clients' identities
// tell, as they tell lucid: their adapters are not linked here); and the
// repository around the current folder.
func personRepo() (*gitstore.Repo, error) {
	if sh, ok := identity.RunsUnder(identity.All(), os.Getenv); ok {
		return nil, fmt.Errorf("a person's command, and this runs in %s agent's shell: ask the user to run it", identity.AClient(sh.Client))
	}
	if proctree.Orphan() {
		return nil, fmt.Errorf("a person's command, and this process was detached from what started it (setsid, or a parent that exited), so lucid cannot tell that a person runs it: run it from your terminal")
	}
	// An agent's lucid command is signed with its id even where its shell
	// hid what it is.
	if a := strings.TrimSpace(os.Getenv("LUCID_AGENT")); a != "" {
		return nil, fmt.Errorf("a person's command, and LUCID_AGENT=%s says an agent runs it: ask the user to run it", escape.Line(a))
	}
	return findInitialised()
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
		return nil, fmt.Errorf("%w: run it in the work tree of a git repository where `lucid init` was run", err)
	case err != nil:
		return nil, err
	case !repo.Initialised():
		return nil, gitstore.ErrNotInitialised
	}
	return repo, nil
}
