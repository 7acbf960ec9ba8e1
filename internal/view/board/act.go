package board

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/address"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/talk"
)

// person is who the board's actions are recorded as: a person, as at
// lucid's command line.
const person = agentstore.AgentHuman

// ActionError is an action that cannot be done as asked; the message says
// why and what to do.
type ActionError struct{ Msg string }

func (e *ActionError) Error() string { return e.Msg }

func refuse(format string, args ...any) error { return &ActionError{fmt.Sprintf(format, args...)} }

// Release ends owner's claims on globs (all of them when none), as
// lucid release --owner does, tells owner through the log, and returns
// the globs released. A claim made on another machine is released only
// there. A remote that cannot be reached keeps its copy of a claim
// released until it expires: that is not the release's failure.
func Release(repo *gitstore.Repo, owner string, globs []string, why string) ([]string, error) {
	end, err := talk.EndClaims(repo, person, owner, globs, why)
	var notHeld *talk.NotHeldError
	switch {
	case errors.Is(err, talk.ErrNotAgent) || errors.As(err, &notHeld):
		return nil, &ActionError{err.Error()}
	case err != nil:
		return end.Released, err
	case len(end.Released) == 0:
		return nil, refuse("%s holds no claims here", owner)
	}
	return end.Released, nil
}

// WritePlan replaces the plan with text and records the change, unless the
// plan's hash is no longer base (ErrPlanChanged).
func WritePlan(repo *gitstore.Repo, text, base string) (logformat.Entry, error) {
	if len(text) > gitstore.MaxPlan {
		return logformat.Entry{}, refuse("the plan is at most %d bytes", gitstore.MaxPlan)
	}
	lock, err := repo.Lock()
	if err != nil {
		return logformat.Entry{}, err
	}
	defer lock.Unlock()
	seen, now, recorded, err := logstore.PlanVersions(repo)
	if err != nil {
		return logformat.Entry{}, err
	}
	if logstore.HashHex(now) != base {
		return logformat.Entry{}, ErrPlanChanged
	}
	if bytes.Equal(now, []byte(text)) {
		return logformat.Entry{}, refuse("the plan is unchanged")
	}
	at := time.Now()
	if recorded && !bytes.Equal(seen, now) {
		// A change no hook has recorded yet is not the person's: it is
		// recorded first, as the change a hook would have found.
		writer := agentstore.AgentUser
		if p, ok := logstore.PendingPlanEdit(repo); ok && at.Sub(p.At) < 2*time.Minute {
			writer = p.Agent
		}
		if _, err := logstore.AppendPlanChange(repo, writer, seen, now, at); err != nil {
			return logformat.Entry{}, err
		}
	}
	if err := gitstore.WriteFileAtomic(repo.PlanPath(), []byte(text), 0o644); err != nil {
		return logformat.Entry{}, err
	}
	return logstore.AppendPlanChange(repo, person, now, []byte(text), at)
}

// Record appends a note, fact, decision or dead-end, as lucid note does.
func Record(repo *gitstore.Repo, kind, text string) (logformat.Entry, error) {
	if !slices.Contains(logstore.RecordKinds, kind) {
		return logformat.Entry{}, refuse("record one of %s, not %q", strings.Join(logstore.RecordKinds, ", "), kind)
	}
	if strings.TrimSpace(text) == "" {
		return logformat.Entry{}, refuse("say what to record")
	}
	return logstore.Record(repo, person, kind, text, repo.Top, nil)
}

// Supersede replaces the entry id with text, or retires it for the reason
// text, as lucid supersede does.
func Supersede(repo *gitstore.Repo, id, text string, retire bool) (logformat.Entry, error) {
	if !logformat.ValidID(id) {
		return logformat.Entry{}, refuse("name the entry by its id")
	}
	if strings.TrimSpace(text) == "" {
		if retire {
			return logformat.Entry{}, refuse("say why the entry no longer holds")
		}
		return logformat.Entry{}, refuse("say what holds instead")
	}
	e, err := logstore.Supersede(repo, person, id, text, retire, repo.Top, nil)
	if err != nil {
		// An unknown id, an entry already replaced: lucid supersede's
		// errors say what to do.
		return e, &ActionError{err.Error()}
	}
	return e, nil
}

// Send sends text to the agent to names (an id, a label, a teammate's name,
// lead or all), a question when ask, as lucid tell and lucid ask do;
// naming names the agents.
func Send(repo *gitstore.Repo, naming present.Naming, to, text string, ask bool) (logformat.Entry, error) {
	if strings.TrimSpace(text) == "" {
		return logformat.Entry{}, refuse("say what to send")
	}
	book, err := address.Open(repo, naming, time.Now(), claims.TTL())
	if err != nil {
		return logformat.Entry{}, err
	}
	r, err := book.Resolve(person, to)
	if err != nil {
		return logformat.Entry{}, &ActionError{err.Error()}
	}
	if !r.Ended.IsZero() {
		return logformat.Entry{}, refuse("%s has ended and will read nothing more: tell another agent", r.Label)
	}
	e, err := talk.Send(repo, person, []string{r.ID}, text, ask, nil)
	if err != nil {
		return e, &ActionError{err.Error()}
	}
	return e, nil
}
