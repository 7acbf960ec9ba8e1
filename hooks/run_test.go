package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// wholeClient is a client whose payload is lucid's Input as JSON and whose
// answer is lucid's Output as JSON, so that a test reads the decision
// itself (each real client's encoding of it is tested in its adapter's
// package); failEncode makes its encoder panic, as a bug between the
// handler and the answer would.
// naming names the agents as lucid hook does.
var naming = identity.Naming()

type wholeClient struct {
	name       string
	failEncode bool
}

func (c wholeClient) Name() string {
	if c.name == "" {
		return "claude"
	}
	return c.name
}
func (wholeClient) Events() []client.Event {
	var events []client.Event
	for _, e := range client.Events {
		events = append(events, client.Event{Name: e, Lucid: e, Timeout: 10 * time.Second})
	}
	return events
}
func (c wholeClient) Decode(event string, b []byte) (client.Input, error) {
	var in client.Input
	err := json.Unmarshal(b, &in)
	in.Event = event
	return in, err
}
func (c wholeClient) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	if c.failEncode {
		panic("encoder broke")
	}
	b, _ := json.Marshal(out)
	return b, "", 0
}

// newRepo is a git repository with lucid set up as `lucid init` sets it
// up, its top resolved; git, as the hooks run it, has the tests' fixed
// identity and none of the user's settings.
func newRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	gittest.Setenv(t)
	for _, k := range []string{"LUCID_CLAIM_TTL", "LUCID_BUDGET", "LICH_SESSION_ID", "LICH_BIN", "CLAUDE_PROJECT_DIR", "LUCID_LEASES"} {
		t.Setenv(k, "")
	}
	repo, err := gitstore.Find(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Init(); err != nil {
		t.Fatal(err)
	}
	return repo
}

// A hook that fails after it read the news delivers nothing and loses
// nothing: the agent's next call gets the news.
func TestFailedAnswerKeepsTheNews(t *testing.T) {
	repo := newRepo(t)
	me := client.Input{SessionID: "11111111-2222-3333-4444-555555555555", Cwd: repo.Top}
	do(t, wholeClient{}, "SessionStart", me)
	e := logformat.NewEntry(time.Now(), "99999999-2222-3333-4444-555555555555", logformat.KindFact, "the news that must not be lost")
	if err := logstore.Append(repo.LogPath(), e); err != nil {
		t.Fatal(err)
	}
	if a := do(t, wholeClient{failEncode: true}, "UserPromptSubmit", me); a.out != nil {
		t.Fatalf("a failed hook printed %+v", a.out)
	}
	if a := do(t, wholeClient{}, "UserPromptSubmit", me); !strings.Contains(a.context(), "the news that must not be lost") {
		t.Fatalf("the next call did not get the news the failed one read; it printed %+v", a.out)
	}
	if a := do(t, wholeClient{}, "UserPromptSubmit", me); a.out != nil {
		t.Fatalf("the news came twice: %+v", a.out)
	}
}

// The lock a call holds from the read of the news to the save of its
// cursor is let go when the call ends, whether its answer went out or not.
func TestFailedAnswerLetsTheLockGo(t *testing.T) {
	repo := newRepo(t)
	me := client.Input{SessionID: "11111111-2222-3333-4444-555555555555", Cwd: repo.Top}
	do(t, wholeClient{}, "SessionStart", me)
	logstore.Append(repo.LogPath(), logformat.NewEntry(time.Now(), "human", logformat.KindNote, "x"))
	do(t, wholeClient{failEncode: true}, "UserPromptSubmit", me)
	l, ok, err := repo.TryLock(0)
	if err != nil || !ok {
		t.Fatalf("the lock is still held after the failed call (ok=%v, err=%v)", ok, err)
	}
	l.Unlock()
	if _, err := os.Stat(filepath.Join(repo.CommonDir, "lucid", "lock")); err != nil {
		t.Fatal(err)
	}
}
