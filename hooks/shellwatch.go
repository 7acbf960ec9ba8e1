package hooks

import (
	"sort"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard"
)

// What a shell command changed, for clients that do not say (Codex CLI,
// Gemini CLI; Claude Code's bashEditDiff does). Before the command, the
// hook stamps every file that another agent's claim covers in this work
// tree (size and modification time); after it, it stamps them again and
// looks for new ones. A difference is the command's, and a violation, only
// where nothing else could have made it: no other agent made a hook call
// in between (the owner at work on its own files, another agent's command).
// Otherwise it is left out: a missed violation rather than an invented one.

// maxWatched bounds the files stamped before one command: a claim on a
// tree bigger than that is not watched.
const maxWatched = 5000

func (c *call) watchKey() string { return c.agent + "\x00" + c.in.ToolUseID }

// watchShell stamps the claimed files before a shell command runs.
func (c *call) watchShell() {
	set, err := guard.LoadClaims(c.repo, c.now)
	if err != nil || len(set.Claims) == 0 {
		return
	}
	files, ok := set.ClaimedFiles(c.agent, c.repo.Top, maxWatched)
	if !ok {
		return
	}
	w := gitstore.ShellWatch{At: time.Now().UnixNano(), Files: map[string]gitstore.FileStamp{}}
	for _, rel := range files {
		if st, ok := gitstore.StampFile(c.repo.Abs(rel)); ok {
			w.Files[rel] = st
		}
	}
	c.warn(c.repo.SaveShellWatch(c.watchKey(), w))
}

// shellChanged returns the claimed files the command changed, created or
// deleted, as absolute paths, when only the command can have done it.
func (c *call) shellChanged() []string {
	w, ok, err := c.repo.TakeShellWatch(c.watchKey())
	c.warn(err)
	if !ok {
		return nil
	}
	set, err := guard.LoadClaims(c.repo, c.now)
	if err != nil {
		return nil
	}
	now, _ := set.ClaimedFiles(c.agent, c.repo.Top, maxWatched)
	var changed []string
	for _, rel := range now {
		st, ok := gitstore.StampFile(c.repo.Abs(rel))
		if was, had := w.Files[rel]; !had || !ok || st != was {
			changed = append(changed, rel)
		}
	}
	for rel := range w.Files {
		if _, ok := gitstore.StampFile(c.repo.Abs(rel)); !ok {
			changed = append(changed, rel) // gone
		}
	}
	if len(changed) == 0 || c.othersActiveSince(time.Unix(0, w.At)) {
		return nil
	}
	sort.Strings(changed)
	out := make([]string, 0, len(changed))
	for _, rel := range changed {
		if len(out) == 0 || out[len(out)-1] != c.repo.Abs(rel) {
			out = append(out, c.repo.Abs(rel))
		}
	}
	return out
}

// othersActiveSince reports whether an agent other than the caller made a
// hook call after t.
func (c *call) othersActiveSince(t time.Time) bool {
	recs, seen, err := c.repo.Agents()
	if err != nil {
		return true
	}
	for i, r := range recs {
		if r.ID != c.agent && seen[i].After(t) {
			return true
		}
	}
	return false
}
