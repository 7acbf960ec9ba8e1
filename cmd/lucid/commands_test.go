package main

import (
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/guard/stamp"
)

// The stamp tells a lucid handed to an unknown program by the command that
// follows lucid's name: its list is lucid's commands, all of them.
func TestStampKnowsEveryCommand(t *testing.T) {
	for _, c := range commands {
		if !slices.Contains(stamp.LucidCommands, c.name) {
			t.Errorf("stamp.LucidCommands lacks %q", c.name)
		}
	}
	for _, name := range stamp.LucidCommands {
		if name != "help" && !slices.ContainsFunc(commands, func(c *command) bool { return c.name == name }) {
			t.Errorf("stamp.LucidCommands names %q, which lucid has not", name)
		}
	}
}
