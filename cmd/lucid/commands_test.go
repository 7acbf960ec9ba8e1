package main

import (
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/guard"
)

// The stamp tells a lucid handed to an unknown program by the command that
// follows lucid's name: its list is lucid's commands, all of them.
func TestStampKnowsEveryCommand(t *testing.T) {
	for _, c := range commands {
		if !slices.Contains(guard.LucidCommands, c.name) {
			t.Errorf("guard.LucidCommands lacks %q", c.name)
		}
	}
	for _, name := range guard.LucidCommands {
		if name != "help" && !slices.ContainsFunc(commands, func(c *command) bool { return c.name == name }) {
			t.Errorf("guard.LucidCommands names %q, which lucid has not", name)
		}
	}
}
