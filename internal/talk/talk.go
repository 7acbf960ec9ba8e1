// Package talk writes and reads what agents and people say to each other
// through the log: messages (lucid tell), questions (lucid ask, also for
// another agent's claim) and replies (lucid reply), each an entry
// addressed to its recipients, and the inbox of one agent or person. The
// delta delivers an addressed entry to its recipients alone (the hooks
// package); this package is the commands' side.
package talk

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// Send appends a message from from to the agents to (ids, or
// logformat.ToAll), a question when ask, asking for the claims on claim
// when that is not empty.
func Send(repo *gitstore.Repo, from string, to []string, text string, ask bool, claim []string) (logformat.Entry, error) {
	if strings.TrimSpace(text) == "" {
		return logformat.Entry{}, errors.New("the message is empty: say what you want the agent to know")
	}
	if len(to) == 0 {
		return logformat.Entry{}, errors.New("no recipient: name an agent")
	}
	if slices.Contains(to, from) {
		return logformat.Entry{}, errors.New("that names yourself: name another agent")
	}
	if !repo.Initialised() {
		return logformat.Entry{}, gitstore.ErrNotInitialised
	}
	e := logformat.NewEntry(time.Now(), from, logformat.KindMessage, text)
	e.To, e.Ask, e.Claim = to, ask, claim
	return e, logstore.Append(repo.LogPath(), e)
}

// Reply appends from's answer to the message id, addressed to its sender,
// and returns it with the message answered.
func Reply(repo *gitstore.Repo, from, id, text string) (reply, to logformat.Entry, err error) {
	id = strings.ToUpper(strings.TrimSpace(id))
	if !logformat.ValidID(id) {
		return reply, to, fmt.Errorf("%q is not an entry id: ids are 26 characters, as `lucid inbox` shows them", id)
	}
	if strings.TrimSpace(text) == "" {
		return reply, to, errors.New("the reply is empty: say what you answer")
	}
	if !repo.Initialised() {
		return reply, to, gitstore.ErrNotInitialised
	}
	found := false
	if _, err := logstore.ScanBackward(repo.LogPath(), func(e logformat.Entry) bool {
		if e.ID == id {
			to, found = e, true
			return false
		}
		return true
	}); err != nil {
		return reply, to, err
	}
	switch {
	case !found:
		return reply, to, fmt.Errorf("no entry %s in the log: `lucid inbox` lists the messages for you", id)
	case to.Kind != logformat.KindMessage:
		return reply, to, fmt.Errorf("%s is a %s, not a message: reply to a message `lucid inbox` lists; record what you learned with lucid fact|decision|note", id, to.Kind)
	case to.Agent == from:
		return reply, to, fmt.Errorf("%s is your own message: a reply goes to its sender", id)
	}
	reply = logformat.NewEntry(time.Now(), from, logformat.KindMessage, text)
	reply.To, reply.ReplyTo = []string{to.Agent}, to.ID
	return reply, to, logstore.Append(repo.LogPath(), reply)
}

// Item is a message in an inbox.
type Item struct {
	logformat.Entry
	// Answered: a question for the owner of the inbox that it replied to,
	// or a question it asked that was replied to.
	Answered bool
	// Sent: a question the owner of the inbox asked (listed while it has
	// no reply, and with its reply once it has).
	Sent    bool
	Replies []logformat.Entry // replies to a Sent question
}

// Inbox lists, oldest first, the messages addressed to agent (to
// everyone included) and the questions it asked, each question marked
// answered or not, reading the log once from its start and keeping only
// what concerns agent.
func Inbox(repo *gitstore.Repo, agent string) ([]Item, error) {
	var items []Item
	at := map[string]int{} // message id -> index in items
	_, err := logstore.Scan(repo.LogPath(), func(e logformat.Entry) bool {
		if e.Kind != logformat.KindMessage && e.Kind != logformat.KindHandoff && e.Kind != logformat.KindRelease {
			return true
		}
		if i, ok := at[e.ReplyTo]; ok && e.ReplyTo != "" {
			switch {
			case items[i].Sent && e.AddressedTo(agent):
				items[i].Answered = true
				items[i].Replies = append(items[i].Replies, e)
				return true // shown with the question
			case !items[i].Sent && e.Agent == agent:
				items[i].Answered = true
			}
		}
		switch {
		case e.AddressedTo(agent):
			at[e.ID] = len(items)
			items = append(items, Item{Entry: e})
		case e.Agent == agent && e.Ask && e.ReplyTo == "":
			at[e.ID] = len(items)
			items = append(items, Item{Entry: e, Sent: true})
		}
		return true
	})
	return items, err
}

// Unanswered is the questions for agent (not those to everyone) that it
// has not replied to, oldest first: what its digest repeats after its
// conversation was compacted. It reads the log backwards only as far as
// since (the agent's start: nothing older can be addressed to it).
func Unanswered(repo *gitstore.Repo, agent string, since time.Time) ([]logformat.Entry, error) {
	replied := map[string]bool{}
	var out []logformat.Entry
	_, err := logstore.ScanBackward(repo.LogPath(), func(e logformat.Entry) bool {
		if !since.IsZero() && e.Time().Before(since) {
			return false
		}
		if e.Kind != logformat.KindMessage {
			return true
		}
		if e.Agent == agent && e.ReplyTo != "" {
			replied[e.ReplyTo] = true
		}
		if e.Ask && slices.Contains(e.To, agent) && !replied[e.ID] {
			out = append(out, e)
		}
		return true
	})
	slices.Reverse(out)
	return out, err
}
