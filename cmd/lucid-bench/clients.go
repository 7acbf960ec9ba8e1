package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/clients"
)

// clientsSection times the hook every tool call pays, with nothing new,
// for each client lucid serves (the registry's, with their payloads in
// testdata/clients): Claude Code's PreToolUse, Codex CLI's PreToolUse,
// Gemini CLI's BeforeTool and AfterTool, GitHub Copilot CLI's preToolUse
// and postToolUse, Qwen Code's PreToolUse and PostToolUse, those
// lucid's opencode plugin and Pi extension (Pi's and oh-my-pi's) call at
// each writing tool (the spawn from the client's runtime comes on top:
// the plugin section), Cline's PreToolUse and PostToolUse (both waited
// for) and Crush's PreToolUse, its one hook, on the
// smallest log of -sizes and on one of 100k entries. Goals: those of
// Claude Code's PreToolUse for the hooks before a call, since every agent
// of every client pays them: within 1.35x the floor at the smallest log,
// and within 2x at 100k.
func clientsSection(b *bench) error {
	sizes := []int{100000}
	if small := slices.Min(b.sizes); small < 100000 {
		sizes = []int{small, 100000}
	}
	for _, n := range sizes {
		limit := 2.0
		if n < 100000 {
			limit = 1.35
		}
		if err := b.withLog("clients", n, func(s *scratch) error { return clientRows(b, s, n, limit) }); err != nil {
			return err
		}
	}
	return nil
}

// clientRows times each client's tool-call hooks on s's log of n entries.
func clientRows(b *bench, s *scratch, n int, limit float64) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	fmt.Fprintf(b.out, "  %-34s %10s %10s %10s %8s\n", sizeName(n)+" entries, nothing new", "median", "max", "floor", "x floor")
	for _, cl := range clients.All() {
		name := cl.Name()
		for _, r := range clientPayloads(name, "tool-", session, s.dir) {
			label := name + " " + r.event + " (" + r.tool + ")"
			after := lucidEvent(cl, r.event) == client.PostToolUse
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
				b.addGoal(fmt.Sprintf("%s, nothing new, at %s within %gx floor", label, sizeName(n), limit), xFloor(t), limit)
			}
		}
	}
	return nil
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

// sizeName is a log length as the tables print it: 1k, 100k, 1M.
func sizeName(n int) string {
	switch {
	case n >= 1000000 && n%1000000 == 0:
		return fmt.Sprintf("%dM", n/1000000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}
