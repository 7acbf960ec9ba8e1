package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/client"
)

// payloadsSection times the hook on what is not typical: a git whole-tree
// command, whose changes the hook asks of git (gitpredict.Op.Changes), and
// the largest payloads a client sends, a 20 MiB Bash command and a 40 MiB
// Write, each beside another agent's claim. Goal: the large ones answered
// within 1 s.
func payloadsSection(b *bench) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	s, err := b.newScratch("payloads")
	if err != nil {
		return err
	}
	defer s.remove()
	for _, argv := range [][]string{
		{"sh", "-c", "echo '# bench' > README.md && git add -A && git commit -qm first && git branch -M main"},
		{"git", "checkout", "-q", "-b", "feature"},
		{"sh", "-c", "mkdir -p src && echo 'package src' > src/a.go && git add -A && git commit -qm feature"},
		{"git", "checkout", "-q", "main"},
		{"sh", "-c", "echo local >> README.md"},
	} {
		if err := b.runIn(s.dir, argv...); err != nil {
			return err
		}
	}
	if _, err := b.output(s.dir, nil, "env", "LUCID_AGENT="+session+"/owner", b.lucid, "claim", "docs/**", "--for", "bench"); err != nil {
		return err
	}
	payload := func(tool string, input any) []byte {
		in, _ := json.Marshal(input)
		return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","permission_mode":"bypassPermissions","tool_name":%q,"tool_input":%s}`,
			session, s.dir, tool, in))
	}
	fmt.Fprintf(b.out, "  %-44s %10s %10s %10s %8s\n", "one claim of another agent", "median", "max", "floor", "x floor")
	git := payload("Bash", map[string]any{"command": "git checkout feature"})
	t, err := b.timeCommand(s.dir, nil, git, b.lucid, "hook", client.PreToolUse)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.out, "  %-44s %s %s %s %8.2f\n", "hook PreToolUse, git checkout BRANCH", ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
	for _, c := range []struct {
		label string
		stdin []byte
	}{
		{"hook PreToolUse, a 20 MiB Bash command", payload("Bash", map[string]any{"command": "echo " + strings.Repeat("x", 20<<20) + " > docs/a.md"})},
		{"hook PreToolUse, a 40 MiB Write", payload("Write", map[string]any{"file_path": s.dir + "/docs/a.md", "content": strings.Repeat("y", 40<<20)})},
	} {
		// Five runs: each reads tens of megabytes.
		var times []time.Duration
		for range 5 {
			d, err := b.runOnce(s.dir, nil, c.stdin, b.lucid, "hook", client.PreToolUse)
			if err != nil {
				return err
			}
			times = append(times, d)
		}
		m := median(times)
		fmt.Fprintf(b.out, "  %-44s %s %s\n", c.label, ms(m), ms(slices.Max(times)))
		b.addGoalIn(c.label+" within 1 s", float64(m)/float64(time.Millisecond), 1000, " ms")
	}
	return nil
}
