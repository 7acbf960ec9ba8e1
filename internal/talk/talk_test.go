package talk

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

func newRepo(t *testing.T) *gitstore.Repo {
	gittest.Setenv(t)
	return repotest.Lucid(t)
}

// A question and its answer, as each side's inbox shows them, and what a
// compacted agent is asked again.
func TestInbox(t *testing.T) {
	repo := newRepo(t)
	q, err := Send(repo, "a", []string{"b"}, "which port?", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	Send(repo, "c", []string{logformat.ToAll}, "rebasing soon", false, nil)
	Send(repo, "c", []string{"a"}, "not for b", false, nil)
	req, _ := Send(repo, "a", []string{"b"}, "I need src", true, []string{"src/**"})
	items, err := Inbox(repo, "b")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || items[0].ID != q.ID || items[0].Answered || items[1].Text != "rebasing soon" || items[2].ID != req.ID {
		t.Fatalf("b's inbox: %+v", items)
	}
	if un, _ := Unanswered(repo, "b", time.Time{}); len(un) != 2 || un[0].ID != q.ID {
		t.Errorf("b's unanswered: %+v", un)
	}
	r, to, err := Reply(repo, "b", strings.ToLower(q.ID), "8080")
	if err != nil || to.ID != q.ID || r.ReplyTo != q.ID || r.To[0] != "a" {
		t.Fatalf("reply: %+v to %+v, %v", r, to, err)
	}
	items, _ = Inbox(repo, "b")
	if !items[0].Answered || items[2].Answered {
		t.Errorf("after the reply, b's inbox: %+v", items)
	}
	if un, _ := Unanswered(repo, "b", time.Time{}); len(un) != 1 || un[0].ID != req.ID {
		t.Errorf("b's unanswered after the reply: %+v", un)
	}
	mine, _ := Inbox(repo, "a")
	if len(mine) != 4 || !mine[0].Sent || !mine[0].Answered || mine[0].Replies[0].Text != "8080" || !mine[3].Sent || mine[3].Answered {
		t.Errorf("a's inbox: %+v", mine)
	}
}

// Bad input writes nothing.
func TestRefusals(t *testing.T) {
	repo := newRepo(t)
	fact, err := logstore.Record(repo, "a", logformat.KindFact, "a fact", repo.Top, nil)
	if err != nil {
		t.Fatal(err)
	}
	own, _ := Send(repo, "a", []string{"b"}, "hi", false, nil)
	before, _ := os.ReadFile(repo.LogPath())
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"empty", second(Send(repo, "a", []string{"b"}, "  ", false, nil)), "the message is empty"},
		{"nobody", second(Send(repo, "a", nil, "hi", false, nil)), "no recipient"},
		{"self", second(Send(repo, "a", []string{"a"}, "hi", false, nil)), "names yourself"},
		{"bad id", third(Reply(repo, "b", "x", "y")), "is not an entry id"},
		{"unknown id", third(Reply(repo, "b", "01M92GVSR3VW2Q2VCR4YSWK9J8", "y")), "no entry 01M92GVSR3VW2Q2VCR4YSWK9J8"},
		{"a fact", third(Reply(repo, "b", fact.ID, "y")), "is a fact, not a message"},
		{"own", third(Reply(repo, "a", own.ID, "y")), "your own message"},
		{"empty reply", third(Reply(repo, "b", own.ID, " ")), "the reply is empty"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	if after, _ := os.ReadFile(repo.LogPath()); string(after) != string(before) {
		t.Errorf("a refusal wrote to the log")
	}
}

func second(_ logformat.Entry, err error) error   { return err }
func third(_, _ logformat.Entry, err error) error { return err }
