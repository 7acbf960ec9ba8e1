package talk

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
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

// EndClaims is a person's override, as lucid release --owner and lucid
// web do it: it ends owner's claims here on globs (all of them when none)
// and tells owner why through the log, recorded as by's. It returns the
// globs released (none when owner held none here) and whether one of
// them was shared through a git remote, whose copy the caller brings up
// to date.
func EndClaims(repo *gitstore.Repo, by, owner string, globs []string, why string) (released []string, shared bool, err error) {
	released, shared, err = claims.Release(repo, owner, globs)
	if err != nil || len(released) == 0 {
		return released, shared, err
	}
	if strings.TrimSpace(why) == "" {
		why = NoReason
	}
	if _, err := Release(repo, by, owner, released, why); err != nil {
		return released, shared, fmt.Errorf("released the claims on %s, but the log could not tell the agent (%v): tell it with lucid tell %s",
			strings.Join(released, ", "), err, owner)
	}
	return released, shared, nil
}
