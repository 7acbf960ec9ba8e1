package hooks

import (
	"sort"
	"time"

	"github.com/lucid-dev/lucid/claims"
	"github.com/lucid-dev/lucid/gitstore"
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

// watchShell stamps the claimed files before a shell command runs. The
// watch is the agent's one file, replaced by each of its shell commands:
// one whose PostToolUse never comes (denied by another hook, or Codex's
// apply_patch run through the shell, which gets none) leaves nothing
// behind for long, and a stale watch is never compared against, because
// every shell command either replaces or drops it first.
func (c *call) watchShell() {
	if len(c.in.Paths) > 0 { // a patch through the shell: no PostToolUse follows
		c.repo.DropShellWatch(c.agent)
		return
	}
	set, err := claims.LoadClaimsIn(c.repo, c.now, c.repo.Top)
	if err != nil || len(set.Claims) == 0 {
		c.repo.DropShellWatch(c.agent)
		return
	}
	files, ok := set.ClaimedFiles(c.agent, c.repo.Top, maxWatched)
	if !ok {
		c.repo.DropShellWatch(c.agent)
		return
	}
	w := gitstore.ShellWatch{At: time.Now().UnixNano(), Files: map[string]gitstore.FileStamp{}}
	for _, rel := range files {
		if st, ok := gitstore.StampFile(c.repo.Abs(rel)); ok {
			w.Files[rel] = st
		}
	}
	c.warn(c.repo.SaveShellWatch(c.agent, w))
}

// shellChanged returns the claimed files the command changed, created or
// deleted, as absolute paths, when only the command can have done it.
func (c *call) shellChanged() []string {
	w, ok, err := c.repo.TakeShellWatch(c.agent)
	c.warn(err)
	if !ok {
		return nil
	}
	set, err := claims.LoadClaimsIn(c.repo, c.now, c.repo.Top)
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
