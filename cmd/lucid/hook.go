package main

import (
	"strings"

	"github.com/lucid-dev/lucid/hooks"
)

func init() {
	register(&command{name: "hook", summary: "handle a Claude Code hook event (run by Claude Code)", run: runHook})
}

func runHook(c *cli, args []string) error {
	f := newFlags("hook", `lucid hook EVENT

Handles one Claude Code hook call: reads the payload on stdin and prints at
most one JSON object. `+"`lucid init`"+` registers it for each event:
`+strings.Join(hooks.Events, ", ")+`.
It never fails the agent's work: trouble is one line on stderr and exit 0.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() != 1 {
		return usageErr("name the event: lucid hook EVENT (one of %s)", strings.Join(hooks.Events, ", "))
	}
	return &exitError{code: hooks.Run(f.Arg(0), c.stdin, c.stdout, c.stderr), err: errQuiet}
}
