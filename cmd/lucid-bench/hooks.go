package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/internal/client"
)

// hooksSection times the two hooks that matter most as the log grows:
// PreToolUse with nothing new, which runs before every tool call of every
// agent and should cost one stat of the log, and SessionStart, which builds
// the digest from the log's end. Goals: PreToolUse within 2x the
// floor and flat (1M within 1.2x of 1k, compared as "x floor"), and with
// nothing new within 1.35x at the smallest log, since every agent pays it
// on every tool call; SessionStart within 3x the floor at 1M.
func hooksSection(b *bench) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	pre := map[int]float64{}
	start := map[int]float64{}
	fmt.Fprintf(b.out, "  %-9s %-30s %10s %10s %10s %8s\n", "entries", "command", "median", "max", "floor", "x floor")
	for _, n := range b.sizes {
		err := b.withLog("hooks", n, func(s *scratch) error {
			payload := func(event, rest string) []byte {
				return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q,"permission_mode":"default"%s}`,
					session, s.dir, event, rest))
			}
			startPayload := payload(client.SessionStart, `,"source":"startup"`)
			prePayload := payload(client.PreToolUse, fmt.Sprintf(`,"tool_name":"Read","tool_input":{"file_path":%q}`, s.dir+"/a.go"))
			// The agent's first look: its record and cursor exist from now.
			if _, err := b.output(s.dir, startPayload, b.lucid, "hook", client.SessionStart); err != nil {
				return err
			}
			for _, c := range []struct {
				label, event string
				stdin        []byte
				into         map[int]float64
			}{
				{"hook PreToolUse (nothing new)", client.PreToolUse, prePayload, pre},
				{"hook SessionStart", client.SessionStart, startPayload, start},
			} {
				t, err := b.timeCommand(s.dir, nil, c.stdin, b.lucid, "hook", c.event)
				if err != nil {
					return err
				}
				c.into[n] = xFloor(t)
				fmt.Fprintf(b.out, "  %-9d %-30s %s %s %s %8.2f\n", n, c.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
			}
			// Nothing new must print nothing at all.
			out, err := b.output(s.dir, prePayload, b.lucid, "hook", client.PreToolUse)
			if err != nil {
				return err
			}
			if strings.TrimSpace(out) != "" {
				return fmt.Errorf("PreToolUse with nothing new printed %q", out)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	// A hook with nothing to do pays for little more than the Go
	// runtime's start, at any size of log.
	if len(b.sizes) > 0 {
		n := slices.Min(b.sizes)
		b.addGoal(fmt.Sprintf("PreToolUse (nothing new) at %d entries within 1.35x floor", n), pre[n], 1.35)
	}
	const big, small = 1000000, 1000
	if x, ok := pre[big]; ok {
		b.addGoal("PreToolUse (nothing new) at 1M within 2x floor", x, 2)
		if pre[small] > 0 {
			b.addGoal("PreToolUse 1M / 1k within 1.2x (x floor)", x/pre[small], 1.2)
		}
		b.addGoal("SessionStart at 1M within 3x floor", start[big], 3)
	} else {
		b.addUnmeasured("hook goals", "-sizes has no 1000000")
	}
	return nil
}
