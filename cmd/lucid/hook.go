package main

import (
	"io"
	"strings"

	"github.com/lucid-dev/lucid/hooks"
)

func init() {
	register(&command{name: "hook", summary: "handle a Claude Code hook event (run by Claude Code)", run: runHook})
}

// fastHook runs `lucid hook EVENT`, the call every tool call of every agent
// makes, without building a flag set for it; anything else (--help, a
// missing or extra word) goes the ordinary way, through runHook.
func fastHook(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, bool) {
	if len(args) != 2 || args[0] != "hook" || strings.HasPrefix(args[1], "-") {
		return 0, false
	}
	return hooks.Run(args[1], stdin, stdout, stderr), true
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
