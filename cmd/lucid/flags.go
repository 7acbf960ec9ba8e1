package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/spf13/pflag"
)

// flags is a command's flag set with its usage text.
type flags struct {
	*pflag.FlagSet
	usage string // "lucid fact TEXT [-e PATH[:LINE]]..." and a description
}

func newFlags(name, usage string) *flags {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	return &flags{FlagSet: fs, usage: usage}
}

// parse parses args. --help prints the usage on stdout and ends the command
// with exit 0; a bad flag is a usage error with exit 2.
func (f *flags) parse(c *cli, args []string) error {
	err := f.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprintf(c.stdout, "usage: %s\n", strings.TrimSpace(f.usage))
		if u := f.FlagUsages(); u != "" {
			fmt.Fprintf(c.stdout, "\nflags:\n%s", u)
		}
		return errQuiet
	}
	if err != nil {
		return usageErr("%v (see `%s --help`)", err, "lucid "+f.Name())
	}
	return nil
}

func usageErr(format string, a ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, a...)}
}

// agent is who runs the command: $LUCID_AGENT, stamped by the hooks on an
// agent's shell commands; else the Codex agent whose shell this is (Codex
// gives every command it runs CODEX_SESSION_ID, the root session, and
// CODEX_THREAD_ID, the agent's own thread: a subagent's id inside one);
// else a person.
func agent() string {
	if a := strings.TrimSpace(os.Getenv("LUCID_AGENT")); a != "" {
		return a
	}
	if session := strings.TrimSpace(os.Getenv("CODEX_SESSION_ID")); session != "" {
		thread := strings.TrimSpace(os.Getenv("CODEX_THREAD_ID"))
		if thread == session {
			thread = ""
		}
		return gitstore.AgentID(session, thread)
	}
	return gitstore.AgentHuman
}

// findRepo finds the work tree around the current folder.
func findRepo() (*gitstore.Repo, string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, "", err
	}
	repo, err := gitstore.Find(cwd)
	return repo, cwd, err
}

// findInitialised is findRepo for commands that need .lucid/.
func findInitialised() (*gitstore.Repo, string, error) {
	repo, cwd, err := findRepo()
	if err == nil && !repo.Initialised() {
		err = gitstore.ErrNotInitialised
	}
	return repo, cwd, err
}

// warnInvalid tells the user how many lines of the log were skipped.
func warnInvalid(c *cli, n int) {
	if n > 0 {
		fmt.Fprintf(c.stderr, "lucid: %d line(s) of %s are not valid entries and were skipped (the file is left as it is)\n", n, gitstore.LogName)
	}
}
