package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
)

// awareSection times edit awareness on the hook's path (hooks/aware.go):
// lucid hook PreToolUse on an Edit of a file the agent itself wrote last,
// so nothing is new (one read of the file's marker), with leases off; the
// same once 10,000 other agents, all at work, edited 10,000 other files
// within the window (their markers and records); and with leases on (the
// default), the agent holding its file's lease (the claims read too).
// Beside them, an Edit of a file another agent just changed, which the
// agent is told of (a new file each run, as each change is told once): the
// marker written under the lock, the other agent's record and claims read,
// its notice queued. Goals: the Edit with nothing new within 1.35x the
// floor, leases off and on, and flat: with 10,000 recent editors within
// 1.1x of it without (compared as "x floor").
func awareSection(b *bench) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	const editors = 10000
	x := map[string]float64{}
	fmt.Fprintf(b.out, "  %-58s %10s %10s %10s %8s\n", "command", "median", "max", "floor", "x floor")
	err := b.withLog("aware", 1000, func(s *scratch) error {
		edit := func(rel string) []byte {
			return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"}}`,
				session, s.dir, filepath.Join(s.dir, filepath.FromSlash(rel))))
		}
		off := []string{"LUCID_LEASES=off"}
		start := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, session, s.dir))
		if _, err := b.outputWith(s.dir, off, start, b.lucid, "hook", client.SessionStart); err != nil {
			return err
		}
		mine := edit("pkg/mine.go")
		if _, err := b.outputWith(s.dir, off, mine, b.lucid, "hook", client.PreToolUse); err != nil {
			return err
		}
		row := func(key, label string, env []string, stdin []byte) error {
			t, err := b.timeCommand(s.dir, env, stdin, b.lucid, "hook", client.PreToolUse)
			if err != nil {
				return err
			}
			x[key] = xFloor(t)
			fmt.Fprintf(b.out, "  %-58s %s %s %s %8.2f\n", label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
			return nil
		}
		if err := row("own", "hook PreToolUse, Edit of its own file (nothing new), leases off", off, mine); err != nil {
			return err
		}
		began := time.Now()
		now := time.Now()
		for i := range editors {
			id := fmt.Sprintf("%s/editor%05d", session, i)
			if err := agentstore.Save(s.repo, agentstore.Record{ID: id, Type: "general-purpose", Worktree: s.dir, Started: now.UTC().Format(time.RFC3339)}); err != nil {
				return err
			}
			path := filepath.Join(s.dir, "pkg", fmt.Sprintf("f%05d.go", i))
			if err := lichstore.RecordEdit(s.repo, path, id, now); err != nil {
				return err
			}
		}
		fmt.Fprintf(os.Stderr, "bench: %d recent editors written in %.1f s\n", editors, time.Since(began).Seconds())
		if err := row("own10k", fmt.Sprintf("the same, %d other agents' recent edits beside it", editors), off, mine); err != nil {
			return err
		}
		if out, err := b.outputWith(s.dir, off, edit("pkg/f00000.go"), b.lucid, "hook", client.PreToolUse); err != nil {
			return err
		} else if !strings.Contains(out, "pkg/f00000.go was changed since your last write of it by general-purpose·editor") {
			return fmt.Errorf("an Edit of a file another agent just changed was told %q", out)
		}
		told, err := b.timeStdin(s.dir, off, func(run int) []byte { return edit(fmt.Sprintf("pkg/f%05d.go", 1+run)) }, b.lucid, "hook", client.PreToolUse)
		if err != nil {
			return err
		}
		fmt.Fprintf(b.out, "  %-58s %s %s %s %8.2f\n", "hook PreToolUse, Edit of a file another agent just changed", ms(told.median), ms(told.max), ms(told.floor), xFloor(told))
		return row("leased", "the Edit of its own file, leases on (the default), its lease held", nil, mine)
	})
	if err != nil {
		return err
	}
	b.addGoal("an Edit of its own file, awareness on, leases off, nothing new, within 1.35x floor", x["own"], 1.35)
	b.addGoal(fmt.Sprintf("that Edit with %d recent editors within 1.1x of it without (x floor)", editors), x["own10k"]/x["own"], 1.1)
	b.addGoal("that Edit with leases on (the default), its lease held, within 1.35x floor", x["leased"], 1.35)
	return nil
}
