package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/clients"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// claimsSection times the write guard with 1,000 active claims held by 50
// agents: lucid hook PreToolUse on an Edit and on a typical Bash command
// (both allowed: the common case, where every claim must be looked at), the
// same Bash command from Codex (which also stamps the claimed files, see
// hooks/shellwatch.go), and lucid claim, each run a new claim that overlaps
// none. Goals: the hooks within 2x the floor (they run on every tool call),
// the claim within 10 ms.
func claimsSection(b *bench) error {
	const nClaims, nAgents = 1000, 50
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	s, err := b.newScratch("claims")
	if err != nil {
		return err
	}
	defer s.remove()
	now := time.Now()
	var list []claimstore.Claim
	for i := range nClaims {
		owner := fmt.Sprintf("%s/agent%02d", session, i%nAgents)
		globs := []string{fmt.Sprintf("pkg%d/**", i)}
		if i%3 == 0 {
			globs = append(globs, fmt.Sprintf("docs/pkg%d/*.md", i), fmt.Sprintf("cmd/tool%d/{main,flags}.go", i))
		}
		list = append(list, claimstore.Claim{ID: logformat.NewID(now), Owner: owner, Created: now,
			Worktree: s.repo.Top, Task: fmt.Sprintf("task number %d of the bench", i), Globs: globs})
	}
	if err := claimstore.Save(s.repo, list); err != nil {
		return err
	}
	// The owners are live: each has a record, touched now.
	for i := range nAgents {
		rec := agentstore.Record{ID: fmt.Sprintf("%s/agent%02d", session, i), Worktree: s.repo.Top}
		if err := agentstore.Save(s.repo, rec); err != nil {
			return err
		}
	}
	set, err := claims.Load(s.repo, time.Now())
	if err != nil {
		return err
	}
	if n := len(set.ActiveClaims()); n != nClaims {
		return fmt.Errorf("the bench's claims: %d active, want %d", n, nClaims)
	}
	payload := func(event, tool string, input any) []byte {
		in, _ := json.Marshal(input)
		return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q,"permission_mode":"default","tool_name":%q,"tool_input":%s}`,
			session, s.dir, event, tool, in))
	}
	start := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, session, s.dir))
	if _, err := b.output(s.dir, start, b.lucid, "hook", client.SessionStart); err != nil {
		return err
	}
	edit := payload(client.PreToolUse, "Edit", map[string]any{"file_path": s.dir + "/internal/server/handler.go", "old_string": "a", "new_string": "b"})
	bash := payload(client.PreToolUse, "Bash", map[string]any{"command": "cd internal/server && gofmt -w handler.go && go test ./... > ../../test.log 2>&1; tail -n 20 ../../test.log", "description": "test"})

	fmt.Fprintf(b.out, "  %-44s %10s %10s %10s %8s\n", "with 1,000 active claims", "median", "max", "floor", "x floor")
	row := func(label string, t timing) {
		fmt.Fprintf(b.out, "  %-44s %s %s %s %8.2f\n", label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
	}
	// The default client's Edit and Bash, and each other client's shell
	// call, which also stamps the files the claims cover where the client
	// says nothing of what a command changed (hooks/shellwatch.go).
	def := clients.Default().Name()
	rows := []struct {
		label, client string
		stdin         []byte
	}{{"hook PreToolUse, Edit (allowed)", def, edit}, {"hook PreToolUse, Bash (allowed)", def, bash}}
	for _, cl := range clients.All()[1:] {
		for _, p := range clientPayloads(cl.Name(), "claims", "", s.dir) {
			for _, start := range clientPayloads(cl.Name(), "start", p.session, s.dir) {
				if _, err := b.output(s.dir, start.stdin, b.lucid, "hook", "--client", cl.Name(), start.event); err != nil {
					return err
				}
			}
			rows = append(rows, struct {
				label, client string
				stdin         []byte
			}{cl.Name() + " " + p.event + ", " + p.tool + " (allowed)", cl.Name(), p.stdin})
		}
	}
	for _, c := range rows {
		out, err := b.output(s.dir, c.stdin, b.lucid, "hook", "--client", c.client, client.PreToolUse)
		if err != nil {
			return err
		}
		if strings.Contains(out, "deny") {
			return fmt.Errorf("%s was denied: %s", c.label, out)
		}
		t, err := b.timeCommand(s.dir, nil, c.stdin, b.lucid, "hook", "--client", c.client, client.PreToolUse)
		if err != nil {
			return err
		}
		row(c.label, t)
		b.addGoal(c.label+" with 1,000 claims within 2x floor", xFloor(t), 2)
	}
	claim, err := b.timeVaried(s.dir, nil, func(n int) ([]string, []string) {
		return []string{"LUCID_AGENT=" + session + "/claimer"},
			[]string{b.lucid, "claim", fmt.Sprintf("new/area%d/**", n), "--for", "bench"}
	})
	if err != nil {
		return err
	}
	row("lucid claim (a new, free glob)", claim)
	b.addGoalIn("lucid claim with 1,000 claims within 10 ms", float64(claim.median)/float64(time.Millisecond), 10, " ms")
	b.addGoal("lucid claim with 1,000 claims within 1.5x floor", xFloor(claim), 1.5)
	return shellSection(b)
}

// shellSection times shell.Writes in this process, as testing.B
// would: the analysis of a typical agent's command, which PreToolUse runs
// on every Bash call. Goal: under 50 µs, nothing beside a process's start.
func shellSection(b *bench) error {
	const typical = `cd web && npm run build > build.log 2>&1 && cp -r dist ../public`
	cwd := b.root
	var per []time.Duration
	for range 21 {
		const n = 2000
		start := time.Now()
		for range n {
			shell.Writes(typical, cwd)
		}
		per = append(per, time.Since(start)/n)
	}
	m := median(per)
	fmt.Fprintf(b.out, "  %-44s %8.1f µs (median of 21 rounds of 2,000, in process)\n", "shell.Writes, a typical command", float64(m)/float64(time.Microsecond))
	b.addGoalIn("shell analysis of a typical command within 50 µs", float64(m)/float64(time.Microsecond), 50, " µs")
	return nil
}
