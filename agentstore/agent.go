package agentstore

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
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
// for a lead, "NAME·29065e" for a teammate of an agent team (its team name,
// then six characters of the hex after it), "TYPE·a2adb9" for a subagent of
// type TYPE ("agent" when the type is not known), and other writers as
// they are.
func Label(agent, agentType string) string {
	return escape.Line(label(agent, agentType))
}

func label(agent, agentType string) string {
	session, sub, isSub := strings.Cut(agent, "/")
	switch {
	case isSub:
		if name, hex, ok := TeammateName(sub); ok {
			return name + "·" + short(hex)
		}
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

// NamedLabels reports whether the agents of client (as their records name
// it) are labelled by the client's name rather than by their role in a
// team. The command line sets it from its registry of clients; unset,
// every agent is labelled by its role.
var NamedLabels func(client string) bool

// LabelIn is Label for an agent of client, as its record names it. An
// agent of a client whose agents have NamedLabels is "codex·21259d" for a
// lead, "codex-default·77ae91" for a subagent of type default, each with
// the end of its id (Codex's ids begin with the time, which agents
// started together share).
func LabelIn(agent, agentType, client string) string {
	if client == "" || NamedLabels == nil || !NamedLabels(client) {
		return Label(agent, agentType)
	}
	session, sub, isSub := strings.Cut(agent, "/")
	if isSub {
		if agentType == "" {
			agentType = "agent"
		}
		return client + "-" + agentType + "·" + tail(sub)
	}
	return client + "·" + tail(session)
}

// tail is the last six letters or digits of id.
func tail(id string) string {
	id = strings.ReplaceAll(id, "-", "")
	if len(id) > 6 {
		return id[len(id)-6:]
	}
	return id
}

// TeammateName reads a teammate's team name from its agent id: Claude Code
// names an in-process teammate "a<name>-<16 hex>" (aalpha-29065eaa7bbaa962),
// where a plain subagent is "a<17 hex>". It returns the name and the hex.
func TeammateName(agentID string) (name, hex string, ok bool) {
	i := strings.LastIndexByte(agentID, '-')
	if i < 2 || agentID[0] != 'a' || len(agentID)-i-1 != 16 {
		return "", "", false
	}
	hex = agentID[i+1:]
	for _, c := range hex {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", "", false
		}
	}
	return agentID[1:i], hex, true
}

// IsTeammate reports whether agent (an AgentID) is a teammate of an agent
// team.
func IsTeammate(agent string) bool {
	_, sub, ok := strings.Cut(agent, "/")
	if !ok {
		return false
	}
	_, _, ok = TeammateName(sub)
	return ok
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

// Labeler gives agents' labels, reading each agent's type and client from
// its record once.
type Labeler struct {
	repo  *gitstore.Repo
	known map[string]AgentRecord
}

// NewLabeler returns a Labeler for the repository's agents.
func NewLabeler(r *gitstore.Repo) *Labeler { return &Labeler{repo: r, known: map[string]AgentRecord{}} }

// Label returns the label of agent, as LabelIn does, with its type and
// client as its record says.
func (l *Labeler) Label(agent string) string {
	if IsTeammate(agent) || !strings.Contains(agent, "/") && !looksLikeSession(agent) {
		return Label(agent, "")
	}
	rec, ok := l.known[agent]
	if !ok {
		rec, _, _ = LoadAgent(l.repo, agent)
		l.known[agent] = rec
	}
	return LabelIn(agent, rec.Type, rec.Client)
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
