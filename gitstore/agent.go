package gitstore

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/escape"
)

// Writers that are not agents.
const (
	AgentHuman = "human" // the lucid command line run by a person
	AgentUser  = "user"  // a change noticed on disk, made outside Claude's tools
)

// AgentID is the id of an agent as the hooks see it: the session id for a
// lead session, "session/agent" for a subagent (a subagent shares the lead's
// session id).
func AgentID(sessionID, agentID string) string {
	if agentID == "" {
		return sessionID
	}
	return sessionID + "/" + agentID
}

// Label is the short name of an agent shown to people and models: "lead·1bd236"
// for a lead, "TYPE·a2adb9" for a subagent of type TYPE ("agent" when the type
// is not known), and other writers as they are.
func Label(agent, agentType string) string {
	return escape.Line(label(agent, agentType))
}

func label(agent, agentType string) string {
	session, sub, isSub := strings.Cut(agent, "/")
	switch {
	case isSub:
		if agentType == "" {
			agentType = "agent"
		}
		return agentType + "·" + short(sub)
	case looksLikeSession(session):
		return "lead·" + short(session)
	default:
		return agent
	}
}

func short(id string) string {
	if len(id) > 6 {
		return id[:6]
	}
	return id
}

// looksLikeSession tells a session id (a UUID) from names such as "human".
func looksLikeSession(s string) bool {
	return len(s) >= 8 && strings.Count(s, "-") >= 2
}

// Labeler gives agents' labels, reading each subagent's type from its
// record once.
type Labeler struct {
	repo  *Repo
	types map[string]string
}

// NewLabeler returns a Labeler for the repository's agents.
func (r *Repo) NewLabeler() *Labeler { return &Labeler{repo: r, types: map[string]string{}} }

// Label returns the label of agent, as Label does, with its type as known.
func (l *Labeler) Label(agent string) string {
	if !strings.Contains(agent, "/") {
		return Label(agent, "")
	}
	t, ok := l.types[agent]
	if !ok {
		if rec, _, found := l.repo.LoadAgent(agent); found {
			t = rec.Type
		}
		l.types[agent] = t
	}
	return Label(agent, t)
}

// Ago says how long before now t was, in the words of a person.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case t.IsZero():
		return "at an unknown time"
	case d < time.Minute:
		return "under a minute ago"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	default:
		return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
	}
}
