package talk

import (
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/logformat"
	"github.com/lucid-dev/lucid/logstore"
	"github.com/lucid-dev/lucid/overlap"
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
