package present

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
)

// Naming is how the clients lucid serves name their agents, which every
// label follows. The caller builds it from the clients it knows
// (identity.Naming); the zero Naming labels every agent by its role, and
// knows no teammate.
type Naming struct {
	// Default is the default client's name: its agents, and those of no
	// known client, are labelled by their role in a team; every other
	// client's agents by the client's name.
	Default string
	// Teammates reads a teammate's name in its agent team from the id its
	// client gave it as a subagent (what follows the "/" of its AgentID),
	// and the part of the id that tells it from others of that name; ok
	// is false for any other subagent. nil: no agent is a teammate.
	Teammates func(subagent string) (name, tag string, ok bool)
}

// Label is the short name of an agent (an agentstore.AgentID) shown to
// people and models: "lead·1bd236" for a lead, "NAME·29065e" for a
// teammate of an agent team (its name in the team, then six characters of
// what tells it from others of that name), "TYPE·a2adb9" for a subagent
// of type TYPE ("agent" when the type is not known), and other writers as
// they are, each a word (see word).
func (n Naming) Label(agent, agentType string) string {
	return word(n.label(agent, agentType))
}

// word keeps a label one word, whoever chose its name (a teammate's name,
// a subagent's type, a person's LUCID_AGENT): letters, digits and
// - _ . : @ + ·, any other character (a space, a quote, a guillemet, a
// control) as _. A label stands in lucid's own sentences, unfenced: as a
// word it cannot say anything there, nor pass for lucid's words.
func word(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("-_.:@+·", r) {
			return r
		}
		return '_'
	}, s)
}

func (n Naming) label(agent, agentType string) string {
	session, sub, isSub := strings.Cut(agent, "/")
	switch {
	case isSub:
		if name, tag, ok := n.teammate(sub); ok {
			return name + "·" + short(tag)
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

// LabelIn is Label for an agent of client, as its record names it. An
// agent of a client other than the default one is "codex·21259d" for a
// lead, "codex-default·77ae91" for a subagent of type default, each with
// the end of its id (Codex's ids begin with the time, which agents
// started together share).
func (n Naming) LabelIn(agent, agentType, client string) string {
	if client == "" || n.Default == "" || client == n.Default {
		return n.Label(agent, agentType)
	}
	session, sub, isSub := strings.Cut(agent, "/")
	if isSub {
		if agentType == "" {
			agentType = "agent"
		}
		return word(client + "-" + agentType + "·" + tail(sub))
	}
	return word(client + "·" + tail(session))
}

// Teammate reports whether agent (an AgentID) is a teammate of an agent
// team, and its name in the team.
func (n Naming) Teammate(agent string) (name string, ok bool) {
	_, sub, isSub := strings.Cut(agent, "/")
	if !isSub {
		return "", false
	}
	name, _, ok = n.teammate(sub)
	return name, ok
}

func (n Naming) teammate(sub string) (name, tag string, ok bool) {
	if n.Teammates == nil {
		return "", "", false
	}
	return n.Teammates(sub)
}

// tail is the last six letters or digits of id, without the separators
// between them (a UUID's dashes, the underscore of Cline's
// "<ms>_<random>").
func tail(id string) string {
	var out []byte
	for i := len(id) - 1; i >= 0 && len(out) < 6; i-- {
		if c := id[i]; c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			out = append(out, c)
		}
	}
	slices.Reverse(out)
	return string(out)
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
// its record once. It is safe for concurrent use: lucid search reads the
// log in parts at once, and its agent filter asks for labels from each.
type Labeler struct {
	repo   *gitstore.Repo
	naming Naming
	mu     sync.Mutex
	known  map[string]agentstore.Record
}

// NewLabeler returns a Labeler for the repository's agents, named as n
// says.
func NewLabeler(r *gitstore.Repo, n Naming) *Labeler {
	return &Labeler{repo: r, naming: n, known: map[string]agentstore.Record{}}
}

// Naming is how the Labeler names agents.
func (l *Labeler) Naming() Naming { return l.naming }

// Label returns the label of agent, as LabelIn does, with its type and
// client as its record says.
func (l *Labeler) Label(agent string) string {
	if _, mate := l.naming.Teammate(agent); mate {
		return l.naming.Label(agent, "")
	}
	l.mu.Lock()
	rec, ok := l.known[agent]
	if !ok {
		rec, _, _ = agentstore.Load(l.repo, agent)
		l.known[agent] = rec
	}
	l.mu.Unlock()
	if !strings.Contains(agent, "/") && !looksLikeSession(agent) && rec.Client == "" {
		// A person's name, or a session id of no known shape whose
		// client never started it here.
		return l.naming.Label(agent, "")
	}
	return l.naming.LabelIn(agent, rec.Type, rec.Client)
}
