package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/address"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/client/clients"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	register(&command{name: "agents", summary: "list the agents lucid knows here, by label, to talk to", run: runAgents})
}

func runAgents(c *cli, args []string) error {
	f := newFlags("agents", `lucid agents [--json]

Lists every agent whose hooks ran in this repository, newest first: its
label (what lucid tell, ask and the log call it), its id, its client and
when it last made a tool call. An agent whose session ended, or a
subagent whose task ended, is marked ended until it acts again; one silent
for longer than the claims' TTL (LUCID_CLAIM_TTL) may have ended.`)
	asJSON := f.Bool("json", false, "print the agents as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("agents takes no arguments")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	now := time.Now()
	book, err := address.Open(repo, identity.Naming(), now, claims.TTL())
	if err != nil {
		return err
	}
	recs, seen := book.Agents()
	type agent struct {
		ID       string    `json:"id"`
		Label    string    `json:"label"`
		Client   string    `json:"client,omitempty"`
		Worktree string    `json:"worktree"`
		LastSeen time.Time `json:"last_seen"`
		Silent   bool      `json:"silent,omitempty"`
		Ended    time.Time `json:"ended,omitzero"`
	}
	out := []agent{}
	for i, r := range recs {
		a := agent{ID: r.ID, Label: book.Label(r.ID), Client: r.Client, Worktree: r.Worktree,
			LastSeen: seen[i].UTC(), Silent: now.Sub(seen[i]) > claims.TTL()}
		if ended, ok := agentstore.Ended(repo, r.ID, seen[i]); ok {
			a.Ended = ended.UTC()
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b agent) int { return b.LastSeen.Compare(a.LastSeen) })
	if *asJSON {
		return c.printJSON(out)
	}
	if len(out) == 0 {
		fmt.Fprintln(c.stdout, "no agent has run here yet")
		return nil
	}
	for _, a := range out {
		client := a.Client
		if client == "" { // a record names every client but the default
			client = clients.Default().Name()
		}
		line := fmt.Sprintf("%-24s %-8s last active %s  %s", a.Label, client, present.Ago(a.LastSeen, now), a.ID)
		switch {
		case !a.Ended.IsZero():
			line += "  (ended " + present.Ago(a.Ended, now) + ")"
		case a.Silent:
			line += "  (silent: may have ended)"
		}
		fmt.Fprintln(c.stdout, line)
	}
	return nil
}
