package main

import (
	"fmt"
	"strings"
)

// clientsSection times the hook every tool call pays, with nothing new,
// for each client lucid serves, on one log of 100k entries: Claude Code's
// PreToolUse, Codex CLI's PreToolUse (lucid hook --client codex) and
// Gemini CLI's BeforeTool and AfterTool (--client gemini). Goals (issues
// 15 and 16): the same as Claude Code's PreToolUse, within 2x the floor,
// for the hooks before a call.
func clientsSection(b *bench) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	return b.withLog("clients", 100000, func(s *scratch) error {
		payload := func(event, rest string) []byte {
			return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q,"permission_mode":"default"%s}`,
				session, s.dir, event, rest))
		}
		rows := []struct {
			label, client, event, start string
			stdin                       []byte
		}{
			{"claude PreToolUse (Edit)", "claude", "PreToolUse", "SessionStart",
				payload("PreToolUse", fmt.Sprintf(`,"tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"}`, s.dir+"/a.go"))},
			{"codex PreToolUse (apply_patch)", "codex", "PreToolUse", "SessionStart",
				payload("PreToolUse", `,"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** End Patch\n"}`)},
			{"gemini BeforeTool (replace)", "gemini", "BeforeTool", "SessionStart",
				payload("BeforeTool", fmt.Sprintf(`,"tool_name":"replace","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"}`, s.dir+"/a.go"))},
			{"gemini AfterTool (replace)", "gemini", "AfterTool", "SessionStart",
				payload("AfterTool", fmt.Sprintf(`,"tool_name":"replace","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"},"tool_response":{"llmContent":"ok"}`, s.dir+"/b.go"))},
		}
		fmt.Fprintf(b.out, "  %-34s %10s %10s %10s %8s\n", "100k entries, nothing new", "median", "max", "floor", "x floor")
		for _, r := range rows {
			// Each client's session looks first, so the hook has nothing new.
			start := payload(r.start, `,"source":"startup"`)
			if _, err := b.output(s.dir, start, b.lucid, "hook", "--client", r.client, r.start); err != nil {
				return err
			}
			if out, err := b.output(s.dir, r.stdin, b.lucid, "hook", "--client", r.client, r.event); err != nil {
				return err
			} else if r.event != "AfterTool" && strings.TrimSpace(out) != "" {
				return fmt.Errorf("%s with nothing new printed %q", r.label, out)
			}
			t, err := b.timeCommand(s.dir, nil, r.stdin, b.lucid, "hook", "--client", r.client, r.event)
			if err != nil {
				return err
			}
			fmt.Fprintf(b.out, "  %-34s %s %s %s %8.2f\n", r.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
			// The goal is the tool-call hook's before the call, as for
			// Claude Code's PreToolUse; AfterTool of a write also counts
			// the edit (one locked save of the agent's record), as
			// Claude Code's PostToolUse does, which has no goal either.
			if r.event != "AfterTool" {
				b.addGoal(r.label+", nothing new, within 2x floor", xFloor(t), 2)
			}
		}
		return nil
	})
}
