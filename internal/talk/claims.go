package talk

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// Request is the id of asker's newest request to owner (lucid ask OWNER
// --for-claim) for a claim on one of globs that owner has not answered,
// "" when there is none. It reads the log back to since only: the claims
// asked for were made then, and no request for them is older.
func Request(repo *gitstore.Repo, asker, owner string, globs []string, since time.Time) (string, error) {
	answered := map[string]bool{}
	found := ""
	_, err := logstore.ScanBackward(repo.LogPath(), func(e logformat.Entry) bool {
		if e.Time().Before(since) {
			return false
		}
		if e.Agent == owner && e.ReplyTo != "" {
			answered[e.ReplyTo] = true
		}
		if e.Kind == logformat.KindMessage && e.Agent == asker && e.Ask && !answered[e.ID] &&
			slices.Contains(e.To, owner) && slices.ContainsFunc(e.Claim, func(g string) bool {
			clean, err := overlap.Clean(g)
			return err == nil && slices.Contains(globs, clean)
		}) {
			found = e.ID
			return false
		}
		return true
	})
	return found, err
}

// Handoff appends from's hand-over of its claims on globs to to, in
// answer to the request replyTo ("" for none), and returns it.
func Handoff(repo *gitstore.Repo, from, to string, globs []string, replyTo, text string) (logformat.Entry, error) {
	e := logformat.NewEntry(time.Now(), from, logformat.KindHandoff, text)
	e.To, e.Owner, e.Claim, e.ReplyTo = []string{to}, from, globs, replyTo
	return e, logstore.Append(repo.LogPath(), e)
}

// Release appends by's release of owner's claims on globs (a person's
// override), saying why, and returns it.
func Release(repo *gitstore.Repo, by, owner string, globs []string, why string) (logformat.Entry, error) {
	e := logformat.NewEntry(time.Now(), by, logformat.KindRelease, strings.TrimSpace(why))
	e.To, e.Owner, e.Claim = []string{owner}, owner, globs
	return e, logstore.Append(repo.LogPath(), e)
}

// NoReason is what a release says when the person gave no reason.
const NoReason = "a person released it without saying why"

// Ended is what a person's override ended.
type Ended struct {
	// Released is the globs released, none when the agent held no claim
	// here.
	Released []string
	// Elsewhere is the agent's claims made on other machines, which only
	// those machines can release.
	Elsewhere []claimstore.Claim
	// Unsynced is why the remote still holds a copy of a claim released
	// here (it stays until it expires or the next lucid remote sync), nil
	// when none does.
	Unsynced error
}

// ErrNotAgent is an override that names a person or all agents, who hold
// no agent's claims.
var ErrNotAgent = errors.New("name the agent whose claims to end")

// NotHeldError is a glob named in a person's override that its agent holds
// no claim on here; Elsewhere is its claim on it made on another machine,
// nil when there is none.
type NotHeldError struct {
	Owner, Glob string
	Elsewhere   *claimstore.Claim
}

func (e *NotHeldError) Error() string {
	if e.Elsewhere != nil {
		return fmt.Sprintf("the claim on %s was made on another machine: it can be released only there", e.Glob)
	}
	return fmt.Sprintf("%s holds no claim on %s here", e.Owner, e.Glob)
}

// EndClaims is a person's override, as lucid release --owner and lucid
// web do it: it ends owner's claims here on globs (all of them when none),
// tells owner why through the log, recorded as by's, and takes the release
// of a claim shared through a git remote to the remote. A glob that owner
// holds no claim on here is refused (*NotHeldError) and nothing is ended.
func EndClaims(repo *gitstore.Repo, by, owner string, globs []string, why string) (Ended, error) {
	if owner == "" || owner == agentstore.AgentHuman || owner == logformat.ToAll {
		return Ended{}, ErrNotAgent
	}
	set, err := claims.Load(repo, time.Now())
	if err != nil {
		return Ended{}, err
	}
	here, there := set.Held(owner, globs)
	end := Ended{Elsewhere: there}
	holds := func(g string) func(claimstore.Claim) bool {
		return func(c claimstore.Claim) bool { return slices.Contains(c.Globs, g) }
	}
	for _, g := range globs {
		if slices.ContainsFunc(here, holds(g)) {
			continue
		}
		refused := &NotHeldError{Owner: owner, Glob: g}
		if i := slices.IndexFunc(there, holds(g)); i >= 0 {
			refused.Elsewhere = &there[i]
		}
		return end, refused
	}
	if len(here) == 0 {
		return end, nil
	}
	released, shared, err := claims.Release(repo, owner, globs)
	end.Released = released
	if err != nil || len(released) == 0 {
		return end, err
	}
	if strings.TrimSpace(why) == "" {
		why = NoReason
	}
	if _, err := Release(repo, by, owner, released, why); err != nil {
		return end, fmt.Errorf("released the claims on %s, but the log could not tell the agent (%w): tell it with lucid tell %s",
			strings.Join(released, ", "), err, owner)
	}
	end.Unsynced = claims.SyncReleased(repo, shared)
	return end, nil
}
