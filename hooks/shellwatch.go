package hooks

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
)

// What a shell command changed, for clients that do not say (Codex CLI,
// Gemini CLI, and Claude Code outside the permission modes in which it
// sends its bashEditDiff). Before the command, the
// hook stamps every file that another agent's claim covers in this work
// tree (size and modification time); after it, it stamps them again and
// looks for new ones. A difference is the command's, and a violation, only
// where nothing else could have made it: no other agent made a hook call
// in between (the owner at work on its own files, another agent's command).
// Otherwise it is left out: a missed violation rather than an invented one.

// maxWatched bounds the files stamped before one command: a claim on a
// tree bigger than that is not watched.
const maxWatched = 5000

// watched is the work trees whose claimed files a shell command is
// watched in: the caller's own, each one the command names a path in
// (named, as written.named or, after the command, Input.Changed hold
// them), and, for a session outside any repository (started in the folder
// above its repositories), the work trees in the folders right below it.
func (c *call) watched(named []string) []*gitstore.Repo {
	var repos []*gitstore.Repo
	add := func(r *gitstore.Repo) {
		if r != nil && r.HasState() && !slices.ContainsFunc(repos, func(o *gitstore.Repo) bool { return o.GitDir == r.GitDir }) {
			repos = append(repos, r)
		}
	}
	add(c.repo)
	for _, p := range named {
		add(c.repoOf(c.abs(p)))
	}
	if c.repo == nil && filepath.IsAbs(c.in.Cwd) {
		for _, r := range reposBelow(c.in.Cwd) {
			add(r)
		}
	}
	return repos
}

// maxBelow bounds the folders reposBelow looks into.
const maxBelow = 256

// reposBelow is the work trees whose top is a folder right below dir.
func reposBelow(dir string) []*gitstore.Repo {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxBelow)
	var out []*gitstore.Repo
	for _, name := range names {
		top := filepath.Join(dir, name)
		if _, err := os.Lstat(filepath.Join(top, ".git")); err != nil {
			continue
		}
		if r, err := gitstore.Find(top); err == nil && r.Top == top {
			out = append(out, r)
		}
	}
	return out
}

// watchShell stamps the claimed files before a shell command runs. The
// watch is the agent's one file in each work tree, replaced by each of its
// shell commands: one whose PostToolUse never comes (denied by another
// hook, or Codex's apply_patch run through the shell, which gets none)
// leaves nothing behind for long, and a stale watch is never compared
// against, because every shell command either replaces or drops it first.
func (c *call) watchShell(repos []*gitstore.Repo) {
	for _, r := range repos {
		c.watchIn(r)
	}
}

func (c *call) watchIn(r *gitstore.Repo) {
	if len(c.in.Paths) > 0 { // a patch through the shell: no PostToolUse follows
		agentstore.DropShellWatch(r, c.agent)
		return
	}
	set, err := c.claims.LoadIn(r, c.now, r.Top)
	if err != nil || len(set.Claims) == 0 {
		agentstore.DropShellWatch(r, c.agent)
		return
	}
	files, ok := set.ClaimedFiles(c.agent, r.Top, maxWatched)
	if !ok || len(files) == 0 {
		agentstore.DropShellWatch(r, c.agent)
		return
	}
	w := agentstore.ShellWatch{At: time.Now().UnixNano(), Files: map[string]agentstore.FileStamp{}}
	for _, rel := range files {
		if st, ok := agentstore.StampFile(r.Abs(rel)); ok {
			w.Files[rel] = st
		}
	}
	c.warn(agentstore.SaveShellWatch(r, c.agent, w))
}

// shellChanged returns the claimed files the command changed, created or
// deleted in the work trees it was watched in, as absolute paths, when
// only the command can have done it.
func (c *call) shellChanged(repos []*gitstore.Repo) []string {
	var out []string
	for _, r := range repos {
		out = append(out, c.changedIn(r)...)
	}
	return out
}

func (c *call) changedIn(r *gitstore.Repo) []string {
	w, ok, err := agentstore.TakeShellWatch(r, c.agent)
	c.warn(err)
	if !ok {
		return nil
	}
	set, err := c.claims.LoadIn(r, c.now, r.Top)
	if err != nil {
		return nil
	}
	now, _ := set.ClaimedFiles(c.agent, r.Top, maxWatched)
	var changed []string
	for _, rel := range now {
		st, ok := agentstore.StampFile(r.Abs(rel))
		if was, had := w.Files[rel]; !had || !ok || st != was {
			changed = append(changed, rel)
		}
	}
	for rel := range w.Files {
		if _, ok := agentstore.StampFile(r.Abs(rel)); !ok {
			changed = append(changed, rel) // gone
		}
	}
	if len(changed) == 0 || othersActiveSince(r, c.agent, time.Unix(0, w.At)) {
		return nil
	}
	sort.Strings(changed)
	out := make([]string, 0, len(changed))
	for _, rel := range changed {
		if len(out) == 0 || out[len(out)-1] != r.Abs(rel) {
			out = append(out, r.Abs(rel))
		}
	}
	return out
}

// othersActiveSince reports whether an agent other than agent made a hook
// call in r's repository after t.
func othersActiveSince(r *gitstore.Repo, agent string, t time.Time) bool {
	recs, seen, err := agentstore.Agents(r)
	if err != nil {
		return true
	}
	for i, rec := range recs {
		if rec.ID != agent && seen[i].After(t) {
			return true
		}
	}
	return false
}
