// Package address turns the names people and agents give an agent on the
// command line into the agent ids the log's addressed entries hold: an id,
// a label as lucid prints it (tester·a3f9c1, codex·21259d), a teammate's
// name in its team, "lead" (the lead of the caller's own session), "all",
// or "human" (a person at the command line).
package address

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
)

// Recipient is an agent a name resolved to.
type Recipient struct {
	ID    string // the agent id, logformat.ToAll, or agentstore.AgentHuman
	Label string // as lucid prints it
	// Silent is how long the agent has made no hook call, when that is
	// longer than the claim TTL: it may have ended, and reads its messages
	// only if it comes back.
	Silent time.Duration
	// Ended is when its run ended (its session, or a subagent's task),
	// after its last hook call: it will read nothing more.
	Ended time.Time
}

// Book is the repository's agents, read once, to resolve names against.
type Book struct {
	repo   *gitstore.Repo
	recs   []agentstore.Record
	seen   []time.Time
	labels *present.Labeler
	now    time.Time
	ttl    time.Duration
}

// Open reads the agents of repo, named as n says. ttl is how long an agent
// may be silent before it counts as gone (the claims' TTL).
func Open(repo *gitstore.Repo, n present.Naming, now time.Time, ttl time.Duration) (*Book, error) {
	recs, seen, err := agentstore.Agents(repo)
	if err != nil {
		return nil, err
	}
	return &Book{repo: repo, recs: recs, seen: seen, labels: present.NewLabeler(repo, n), now: now, ttl: ttl}, nil
}

// Label is agent's label.
func (b *Book) Label(agent string) string { return b.labels.Label(agent) }

// Resolve finds the agent that name names for caller. A name that fits no
// agent, or more than one, is an error that says how to name one.
func (b *Book) Resolve(caller, name string) (Recipient, error) {
	name = strings.TrimSpace(name)
	switch name {
	case "":
		return Recipient{}, fmt.Errorf("no agent named: name one by its id or its label as `lucid agents` lists them, a teammate's name, lead, all or human")
	case logformat.ToAll:
		return Recipient{ID: logformat.ToAll, Label: "every agent"}, nil
	case agentstore.AgentHuman:
		return Recipient{ID: agentstore.AgentHuman, Label: agentstore.AgentHuman}, nil
	case "lead":
		session, _, isSub := strings.Cut(caller, "/")
		if !isSub {
			return Recipient{}, fmt.Errorf("lead names the lead of your own session, and you are not a subagent of one: name the agent by its id or its label (`lucid agents`)")
		}
		return b.recipient(session), nil
	}
	var found []int
	for i, r := range b.recs {
		if r.ID == name {
			return b.recipient(r.ID), nil
		}
		if strings.EqualFold(b.labels.Label(r.ID), name) {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		// A teammate's name: of the caller's own team first.
		session, _, _ := strings.Cut(caller, "/")
		var other []int
		for i, r := range b.recs {
			if mate, ok := b.labels.Naming().Teammate(r.ID); ok && mate == name {
				if strings.HasPrefix(r.ID, session+"/") {
					found = append(found, i)
				} else {
					other = append(other, i)
				}
			}
		}
		if len(found) == 0 {
			found = other
		}
	}
	switch len(found) {
	case 0:
		return Recipient{}, fmt.Errorf("no agent is known here as %q: name one by its id or its label as `lucid agents` lists them, a teammate's name, lead, all or human", name)
	case 1:
		return b.recipient(b.recs[found[0]].ID), nil
	}
	var ids []string
	for _, i := range found {
		ids = append(ids, b.recs[i].ID)
	}
	slices.Sort(ids)
	return Recipient{}, fmt.Errorf("%q names %d agents (%s): name one by its id", name, len(ids), strings.Join(ids, ", "))
}

// recipient is the known agent id (or an agent that has no record yet:
// a lead whose first hook has not run).
func (b *Book) recipient(id string) Recipient {
	r := Recipient{ID: id, Label: b.labels.Label(id)}
	for i, rec := range b.recs {
		if rec.ID == id {
			if d := b.now.Sub(b.seen[i]); d > b.ttl {
				r.Silent = d
			}
			r.Ended, _ = agentstore.Ended(b.repo, id, b.seen[i])
		}
	}
	return r
}

// Agents is every agent the book holds, with its last hook call.
func (b *Book) Agents() ([]agentstore.Record, []time.Time) { return b.recs, b.seen }
