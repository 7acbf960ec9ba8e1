package board

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/address"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logquery"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/log/search"
	"github.com/lucid-dev/lucid/internal/present"
)

// Page sizes of Log.
const (
	DefaultPage = 50
	MaxPage     = 500
)

// QueryError is a LogQuery that cannot be answered; the message says why.
type QueryError struct{ Msg string }

func (e *QueryError) Error() string { return e.Msg }

// Log reads one page of the log. A search by words stops, with ctx's
// error, soon after ctx ends (the page that asked went away); one of more
// than search.MaxWords words is an *QueryError. naming names the agents.
func Log(ctx context.Context, repo *gitstore.Repo, naming present.Naming, q LogQuery) (*LogPage, error) {
	n := q.N
	if n <= 0 {
		n = DefaultPage
	}
	n = min(n, MaxPage)
	if q.Kind != "" && !logstore.KnownKind(q.Kind) {
		return nil, &QueryError{"unknown kind " + q.Kind + ": use one of " + strings.Join(logstore.Kinds, ", ")}
	}
	if q.Before != "" && !logformat.ValidID(q.Before) {
		return nil, &QueryError{"before takes the id of the last entry of the page before"}
	}
	labels := present.NewLabeler(repo, naming)
	var cites func(string) bool
	var citesHint string
	if q.Path != "" {
		var err error
		if cites, citesHint, err = logquery.Path(repo.Top, q.Path, repo.Names()); err != nil {
			return nil, &QueryError{err.Error()}
		}
	}
	agent := strings.TrimSpace(q.Agent)
	page := &LogPage{Entries: []Entry{}}
	var listed []logstore.Listed
	if words := strings.Fields(q.Words); len(words) > 0 {
		if err := search.CheckWords(words); err != nil {
			return nil, &QueryError{err.Error()}
		}
		opt := logstore.SearchOptions{Words: words, N: n, All: q.All, Cites: cites, CitesHint: citesHint}
		if q.Kind != "" {
			opt.Kinds = []string{q.Kind}
		}
		if agent != "" {
			opt.Agent, opt.AgentHint = logquery.Agent(labels, agent)
		}
		found, err := logstore.Search(ctx, repo, opt)
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			listed = append(listed, f.Listed)
		}
	} else {
		opt := logstore.ListOptions{N: n + 1, All: q.All, Kind: q.Kind, SkimKind: true, Cites: cites, CitesHint: citesHint, Before: q.Before}
		if agent != "" {
			if id, ok := agentID(repo, labels, agent); ok {
				opt.Agent = id
			} else {
				opt.Agent = agent
			}
		}
		var err error
		if listed, page.Invalid, err = logstore.List(repo, opt); err != nil {
			return nil, err
		}
		if len(listed) > n {
			listed, page.More = listed[:n], true
		}
	}
	page.Entries = shown(repo, labels, listed)
	return page, nil
}

// agentID is the id of the agent labelled label.
func agentID(repo *gitstore.Repo, labels *present.Labeler, label string) (string, bool) {
	if !strings.Contains(label, "·") {
		return "", false
	}
	book, err := address.Open(repo, labels.Naming(), time.Now(), claims.TTL())
	if err != nil {
		return "", false
	}
	r, err := book.Resolve("", label)
	return r.ID, err == nil
}

// shown is entries as the board shows them: labelled, with what went stale.
func shown(repo *gitstore.Repo, labels *present.Labeler, listed []logstore.Listed) []Entry {
	checker := logstore.NewChecker(repo)
	out := make([]Entry, 0, len(listed))
	for _, l := range listed {
		e := Entry{Listed: l, Label: labels.Label(l.Agent)}
		for _, to := range l.To {
			e.To = append(e.To, labels.Label(to))
		}
		if l.SupersededBy == "" {
			e.Stale = checker.Check(l.Evidence)
			for _, s := range e.Stale {
				e.StaleWhy = append(e.StaleWhy, s.String())
			}
		}
		out = append(out, e)
	}
	return out
}

// Since returns the entries appended after t, at most max of them,
// oldest first, and the new tail. After a rewrite of the log (a checkout,
// a merge), or when more than max were appended, it returns reload true
// and no entries: the reader starts again from Log. It reads the log from
// its end, back to t and no further than max lines, so that a reader far
// behind (a tail of an empty log, and a million entries since) costs
// what max entries cost. naming names the agents.
func Since(repo *gitstore.Repo, naming present.Naming, t Tail, max int) (entries []Entry, next Tail, reload bool, err error) {
	path := repo.LogPath()
	now, err := logstore.Stat(path)
	if err != nil {
		return nil, t, false, err
	}
	if now.SameFile(t) {
		return nil, t, false, nil
	}
	if t.Size > 0 && !logstore.Grown(path, t) {
		next, err := logstore.EndCursor(path)
		return nil, next, true, err
	}
	appended, next, more, err := logstore.TailSince(path, t.Size, max)
	if err != nil || more {
		return nil, next, more, err
	}
	listed := make([]logstore.Listed, len(appended))
	for i, e := range appended {
		listed[i] = logstore.Listed{Entry: e}
	}
	return shown(repo, present.NewLabeler(repo, naming), listed), next, false, nil
}

// LoadPlan reads the plan and the newest n changes of it, their writers
// named as naming says.
func LoadPlan(repo *gitstore.Repo, naming present.Naming, n int) (*Plan, error) {
	text, err := gitstore.ReadFileIfExists(repo.PlanPath(), gitstore.MaxPlan)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	listed, _, err := logstore.List(repo, logstore.ListOptions{N: max(n, 1), Kind: logformat.KindPlan, SkimKind: true, All: true})
	if err != nil {
		return nil, err
	}
	return &Plan{Text: string(text), Hash: logstore.HashHex(text), History: shown(repo, present.NewLabeler(repo, naming), listed)}, nil
}
