package lichstore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// News is the newest note about another session's edit that a lich
// session was given: what `lucid statusline` shows that session's user.
// One file per session under <common git dir>/lucid/lich-news/, so that
// every work tree of the repository finds it; a newer note replaces it.
type News struct {
	Session string `json:"session"` // the session that was told
	Path    string `json:"path"`    // the file, as the tool gave it
	By      string `json:"by"`      // the other session, as the note named it
	At      int64  `json:"at"`      // when the other session edited, epoch ms
}

// Time returns when the other session edited.
func (n News) Time() time.Time { return time.UnixMilli(n.At) }

func lichNewsPath(r *gitstore.Repo, session string) string {
	return filepath.Join(r.LichNewsDir(), Hash(session))
}

// WriteNews records n as the newest news of its session.
func WriteNews(r *gitstore.Repo, n News) error {
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.LichNewsDir(), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(lichNewsPath(r, n.Session), b, 0o644)
}

// ReadNews returns the newest news of session, or nil when it has none.
func ReadNews(r *gitstore.Repo, session string) (*News, error) {
	file := lichNewsPath(r, session)
	b, err := readIfExists(file)
	if b == nil || err != nil {
		return nil, err
	}
	var n News
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if n.Session != session {
		return nil, nil // another session's, whose name hashed the same
	}
	return &n, nil
}
