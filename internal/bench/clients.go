package main

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/client/clients"
	"github.com/lucid-dev/lucid/hooks"
)

// clientsSection times the hook every tool call pays, with nothing new,
// for each client lucid serves (the registry's, with their payloads in
// testdata/clients), on one log of 100k entries: Claude Code's
// PreToolUse, Codex CLI's PreToolUse and Gemini CLI's BeforeTool and
// AfterTool. Goals: the same as Claude Code's PreToolUse, within 2x the
// floor, for the hooks before a call.
func clientsSection(b *bench) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	return b.withLog("clients", 100000, func(s *scratch) error {
		fmt.Fprintf(b.out, "  %-34s %10s %10s %10s %8s\n", "100k entries, nothing new", "median", "max", "floor", "x floor")
		for _, cl := range clients.All() {
			name := cl.Name()
			for _, r := range clientPayloads(name, "tool-", session, s.dir) {
				label := name + " " + r.event + " (" + r.tool + ")"
				after := lucidEvent(cl, r.event) == hooks.PostToolUse
				// Each client's session looks first, so the hook has nothing new.
				for _, start := range clientPayloads(name, "start", session, s.dir) {
					if _, err := b.output(s.dir, start.stdin, b.lucid, "hook", "--client", name, start.event); err != nil {
						return err
					}
				}
				if out, err := b.output(s.dir, r.stdin, b.lucid, "hook", "--client", name, r.event); err != nil {
					return err
				} else if !after && strings.TrimSpace(out) != "" {
					return fmt.Errorf("%s with nothing new printed %q", label, out)
				}
				t, err := b.timeCommand(s.dir, nil, r.stdin, b.lucid, "hook", "--client", name, r.event)
				if err != nil {
					return err
				}
				fmt.Fprintf(b.out, "  %-34s %s %s %s %8.2f\n", label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
				// The goal is the tool-call hook's before the call, as for
				// Claude Code's PreToolUse; the hook after a write also
				// counts the edit (one locked save of the agent's record),
				// as Claude Code's PostToolUse does, which has no goal
				// either.
				if !after {
					b.addGoal(label+", nothing new, within 2x floor", xFloor(t), 2)
				}
			}
		}
		return nil
	})
}

// lucidEvent is lucid's name of the client's event.
func lucidEvent(cl clients.Client, event string) string {
	for _, e := range cl.Events() {
		if e.Name == event {
			return e.Lucid
		}
	}
	return ""
}

// clientTitles are the clients as their users know them.
func clientTitles() []string {
	var out []string
	for _, cl := range clients.All() {
		out = append(out, cl.Title())
	}
	return out
}
