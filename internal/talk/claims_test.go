package talk

import (
	"os"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// Request finds the asker's newest request to the owner for one of the
// globs that the owner has not answered (by a reply or a hand-over), and
// nothing older than since.
func TestRequest(t *testing.T) {
	gittest.Setenv(t)
	repo, err := gitstore.Find(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(repo.Abs(gitstore.LucidDirName), 0o755); err != nil {
		t.Fatal(err)
	}
	const asker, owner, other = "b", "a", "c"
	start := time.Now().Add(-time.Hour)
	at := start
	add := func(from string, to []string, claim []string, replyTo string) string {
		t.Helper()
		at = at.Add(time.Second)
		e := logformat.NewEntry(at, from, logformat.KindMessage, "x")
		e.To, e.Ask, e.Claim, e.ReplyTo = to, replyTo == "", claim, replyTo
		if err := logstore.Append(repo.LogPath(), e); err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	old := add(asker, []string{owner}, []string{"src/**"}, "")
	since := at.Add(time.Millisecond)
	first := add(asker, []string{owner}, []string{"./src/**"}, "")
	answered := add(asker, []string{owner}, []string{"src/**"}, "")
	add(owner, []string{asker}, nil, answered)
	add(asker, []string{other}, []string{"src/**"}, "")  // to another owner
	add(asker, []string{owner}, []string{"docs/**"}, "") // for other globs
	add(other, []string{owner}, []string{"src/**"}, "")  // by another asker
	for _, tc := range []struct {
		since time.Time
		globs []string
		want  string
	}{
		{since, []string{"src/**"}, first},
		{start, []string{"lib/**", "src/**"}, first},
		{since, []string{"lib/**"}, ""},
		{at, []string{"src/**"}, ""},
	} {
		got, err := Request(repo, asker, owner, tc.globs, tc.since)
		if err != nil || got != tc.want {
			t.Errorf("Request(%v, since %v): %q %v, want %q", tc.globs, tc.since.Sub(start), got, err, tc.want)
		}
	}
	add(owner, []string{asker}, nil, first)
	if got, _ := Request(repo, asker, owner, []string{"src/**"}, start); got != old {
		t.Errorf("with the newer ones answered: %q, want the oldest %q", got, old)
	}
}
