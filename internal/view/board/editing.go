package board

import (
	"path/filepath"
	"slices"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/address"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/settings"
)

// maxEditing bounds the files a board lists as being edited.
const maxEditing = 50

// editing is the files of the board's work tree that agents still at work
// (or lich sessions) changed within the repository's awareness window,
// newest first: what an agent about to write one of them is told of. Those
// that more than one agent changed come first.
func editing(repo *gitstore.Repo, b *Board, book *address.Book, now time.Time) []Editing {
	st, _ := settings.Load(repo) // a bad file holds the defaults; doctor names it
	since := now.Add(-st.AwarenessWindow)
	state := map[string]string{}
	for _, a := range b.Agents {
		state[a.ID] = a.State
	}
	lichs := map[string]string{} // lich session -> the agent that runs in it
	recs, _ := book.Agents()
	for _, r := range recs {
		if r.Lich != "" {
			lichs[r.Lich] = r.ID
		}
	}
	out := []Editing{}
	for _, m := range lichstore.Recent(repo, since, maxEditing*4) {
		rel := m.Path
		if filepath.IsAbs(rel) {
			r, ok := gitstore.Inside(repo.Top, rel)
			if !ok {
				continue
			}
			rel = filepath.ToSlash(r)
		}
		f := Editing{Worktree: repo.Top, Path: rel}
		for _, e := range m.Edits() {
			id := e.Session
			if a, ok := lichs[id]; ok {
				id = a
			}
			if e.Time().Before(since) || state[id] == Ended || slices.ContainsFunc(f.Edits, func(x Edit) bool { return x.Agent == id }) {
				continue
			}
			f.Edits = append(f.Edits, Edit{Agent: id, Label: book.Label(id), At: e.Time().UTC()})
		}
		if len(f.Edits) > 0 && !slices.ContainsFunc(out, func(o Editing) bool { return o.Path == f.Path }) {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(x, y Editing) int {
		if sx, sy := len(x.Edits) > 1, len(y.Edits) > 1; sx != sy {
			if sx {
				return -1
			}
			return 1
		}
		return y.Edits[0].At.Compare(x.Edits[0].At)
	})
	if len(out) > maxEditing {
		out = out[:maxEditing]
	}
	return out
}
