// Command lucid keeps several AI coding agents working in one git repository
// out of each other's way: a shared plan, an append-only log of what they
// learned, claims on files, and the clients' hooks that feed them to every
// agent and enforce the claims.
//
// Each command lives in a file of its own and is a thin layer over the
// packages that do the work (the stores, hooks, claims, merge, and the
// clients through their registry).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/internal/escape"
)

// command is one subcommand of lucid.
type command struct {
	name    string
	summary string
	run     func(c *cli, args []string) error
	hidden  bool
}

// commands are the subcommands, each registered by the init of its file.
// A list, not a map: every process, hooks included, builds it at start.
var commands []*command

func register(c *command) { commands = append(commands, c) }

// lookup returns the command called name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// cli is what a command runs with.
type cli struct {
	stdout, stderr io.Writer
	stdin          io.Reader
}

// exitError carries an exit code other than 1.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// errQuiet ends a command with exit 0 after it printed what it had to (help).
var errQuiet = errors.New("")

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Whatever lucid prints for a person goes out with its control
	// characters escaped (internal/escape), so that text from the log, a
	// claim or a file name cannot drive the terminal. A hook's stdout is
	// JSON for the client, whose strings the handlers escape themselves.
	errOut := escape.NewWriter(stderr)
	defer errOut.Flush()
	if len(args) == 0 || args[0] != "hook" {
		out := escape.NewWriter(stdout)
		defer out.Flush()
		stdout = out
	}
	stderr = errOut
	c := &cli{stdout: stdout, stderr: stderr, stdin: stdin}
	if len(args) == 0 {
		printUsage(stderr)
		return 2
	}
	if code, ok := fastHook(args, stdin, stdout, stderr); ok {
		return code
	}
	name := args[0]
	switch name {
	case "-h", "--help", "help":
		printUsage(stdout)
		return 0
	case "--version":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "lucid: unknown command %q: run `lucid --help` for the list\n", name)
		return 2
	}
	err := cmd.run(c, args[1:])
	var ee *exitError
	switch {
	case err == nil, errors.Is(err, errQuiet):
		return 0
	case errors.As(err, &ee):
		if ee.err.Error() != "" {
			fmt.Fprintf(stderr, "lucid: %v\n", ee.err)
		}
		return ee.code
	default:
		fmt.Fprintf(stderr, "lucid: %v\n", err)
		return 1
	}
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, "usage: lucid COMMAND [ARGS]\n\nlucid keeps the agents in one git repository out of each other's way.\n\ncommands:\n")
	var shown []*command
	for _, c := range commands {
		if !c.hidden {
			shown = append(shown, c)
		}
	}
	slices.SortFunc(shown, func(a, b *command) int { return strings.Compare(a.name, b.name) })
	for _, c := range shown {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun `lucid COMMAND --help` for a command's flags. An error is one line on\nstderr, starting \"lucid:\", with exit 1 (exit 2 for a misused command\nline); a command that fails writes nothing.\n")
}
