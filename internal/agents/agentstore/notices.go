package agentstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// A Notice is news for one agent that has no place in the shared log,
// since it matters only while both agents work: another agent is now
// editing a file this one changed, or, for a client that shows the model
// nothing before a tool runs, who changed the file it was about to write.
// An agent's notices wait in <common git dir>/lucid/agents/<key>.notices,
// one JSON line each, until its next delta takes them.
type Notice struct {
	Kind     string `json:"kind"`     // NoticeEditing or NoticeChanged
	Worktree string `json:"worktree"` // the top of the work tree that holds the file
	Path     string `json:"path"`     // the file, relative to Worktree
	By       string `json:"by"`       // the other agent, or a lich session
	At       int64  `json:"at"`       // epoch ms: By's write (NoticeEditing) or change (NoticeChanged)
	// Since (NoticeEditing) is the agent's own change that By was told
	// of, in epoch ms.
	Since int64 `json:"since,omitempty"`
}

// The kinds of Notice.
const (
	// NoticeEditing: By began to edit the file after this agent changed
	// it, and was told so.
	NoticeEditing = "editing"
	// NoticeChanged: By changed the file this agent was about to write,
	// after this agent's own last write of it.
	NoticeChanged = "changed"
)

// maxNotices bounds an agent's waiting notices: past it, new ones are
// dropped (an agent that stopped making hook calls never takes them).
const maxNotices = 256 << 10

func noticesPath(r *gitstore.Repo, id string) string {
	return strings.TrimSuffix(r.AgentPath(id), ".json") + ".notices"
}

// AddNotices appends notices to agent id's waiting ones. The caller holds
// the repository's lock; the file is replaced whole.
func AddNotices(r *gitstore.Repo, id string, notices []Notice) error {
	if len(notices) == 0 {
		return nil
	}
	path := noticesPath(r, id)
	old, err := gitstore.ReadFile(path, maxNotices)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	}
	b := bytes.NewBuffer(old)
	for _, n := range notices {
		line, err := json.Marshal(n)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if b.Len() > maxNotices {
		return nil
	}
	if err := os.MkdirAll(r.AgentsDir(), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(path, b.Bytes(), 0o644)
}

// HasNotices reports whether agent id has notices waiting: one stat, for
// the delta of every hook call.
func HasNotices(r *gitstore.Repo, id string) bool {
	_, err := os.Lstat(noticesPath(r, id))
	return err == nil
}

// Notices reads agent id's waiting notices, oldest first, and how many
// bytes of the file they took: what TakeNotices removes once they were
// delivered. A line that does not decode is skipped.
func Notices(r *gitstore.Repo, id string) ([]Notice, int, error) {
	b, err := gitstore.ReadFile(noticesPath(r, id), maxNotices)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	var out []Notice
	n := 0
	for {
		line, rest, whole := bytes.Cut(b[n:], []byte{'\n'})
		if !whole {
			break
		}
		var nt Notice
		if json.Unmarshal(line, &nt) == nil && nt.Path != "" {
			out = append(out, nt)
		}
		n = len(b) - len(rest)
	}
	return out, n, nil
}

// TakeNotices removes the first n bytes of agent id's notices, those a
// delivered answer carried (Notices), keeping any added since. The caller
// holds the repository's lock.
func TakeNotices(r *gitstore.Repo, id string, n int) error {
	if n == 0 {
		return nil
	}
	path := noticesPath(r, id)
	b, err := gitstore.ReadFile(path, maxNotices)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if n >= len(b) {
		return os.Remove(path)
	}
	return gitstore.WriteFileAtomic(path, b[n:], 0o644)
}

// GCNotices removes the waiting notices that no agent came to take for
// longer than maxAge (the file's time is the newest notice's), and returns
// how many files it removed.
func GCNotices(r *gitstore.Repo, now time.Time, maxAge time.Duration) (int, error) {
	ents, err := os.ReadDir(r.AgentsDir())
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".notices") {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) <= maxAge {
			continue
		}
		if err := os.Remove(filepath.Join(r.AgentsDir(), e.Name())); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
