package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard"
	"github.com/lucid-dev/lucid/internal/escape"
)

// target is a path a tool call writes, placed in its work tree.
type target struct {
	path string // as the tool gave it
	top  string // the top of its work tree
	rel  string // relative to top
	tree bool   // a folder written as a whole (rm -rf dir)
}

// locate places path in a work tree of this repository; ok is false for a
// path outside all of them (a temp file, another repository).
func (c *call) locate(path string) (target, bool) {
	if path == "" {
		return target{}, false
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.in.Cwd, path)
	}
	if rel, err := c.repo.Rel(path); err == nil {
		return target{path: path, top: c.repo.Top, rel: rel}, true
	}
	// Another linked work tree of the same repository shares the claims.
	r, err := gitstore.Find(path)
	if err != nil || r.CommonDir != c.repo.CommonDir {
		return target{}, false
	}
	rel, err := r.Rel(path)
	if err != nil {
		return target{}, false
	}
	return target{path: path, top: r.Top, rel: rel}, true
}

// writes returns the paths the tool call is about to write.
func (c *call) writes() []target {
	var out []target
	for _, p := range c.in.Paths { // an edit tool's, or a patch a shell applies
		if t, ok := c.locate(p); ok {
			out = append(out, t)
		}
	}
	switch c.in.Tool {
	case ToolShell:
		for _, w := range guard.ShellWrites(c.in.Command, c.in.Cwd) {
			if t, ok := c.locate(w.Path); ok {
				fi, err := os.Stat(w.Path)
				t.tree = err == nil && fi.IsDir()
				out = append(out, t)
			}
		}
	}
	return out
}

// appendOnly is the reason for refusing a write to the log.
const appendOnly = "lucid: " + gitstore.LogName + " is append-only, for every agent and person: nobody edits it in place. " +
	"Record with lucid fact|decision|dead-end|note \"TEXT\" (through Bash); correct an entry with lucid supersede ID \"TEXT\", " +
	"or withdraw it with lucid supersede ID --retire --why \"TEXT\"."

// guardWrites decides about the paths a tool call is about to write: a
// reason to deny it (a write to the log, or to a path another agent claimed
// in the same work tree), and warnings for paths claimed in other work
// trees of the repository, which pass.
func (c *call) guardWrites(targets []target) (deny, warn string, err error) {
	var denials, warnings []string
	for _, t := range targets {
		if t.rel == gitstore.LogName || t.tree && (t.rel == "." || t.rel == gitstore.LucidDirName) {
			return appendOnly, "", nil
		}
	}
	if len(targets) == 0 {
		return "", "", nil
	}
	set, err := c.claimsFor(targets)
	if err != nil || len(set.Claims)+len(set.Remote) == 0 {
		return "", "", err
	}
	labels := c.repo.NewLabeler()
	for _, t := range targets {
		check := set.Check
		if t.tree {
			check = set.CheckTree
		}
		hits := check(c.agent, t.top, t.rel)
		if len(hits) == 0 {
			continue
		}
		h := hits[0]
		who := set.Describe(h.Claim, labels)
		if h.Here {
			what := "wait until it is released, ask that agent (through your lead or the user), or work on other files"
			if c.in.Client != "claude" {
				what = "wait until it is released, ask that agent (through the user), or work on other files"
			} else if c.in.AgentID == "" {
				what = "wait until it is released, ask that agent (SendMessage reaches a subagent of yours; another session, through the user), or work on other files"
			}
			if name, ok := c.sameTeam(h.Claim.Owner); ok {
				what = fmt.Sprintf("wait until it is released (a teammate's claims end when it goes idle), message it (SendMessage to %q), or work on other files", name)
			}
			if h.Claim.Owner == gitstore.AgentHuman {
				what = "ask the user, or work on other files"
			}
			denials = append(denials, fmt.Sprintf("lucid: %s is claimed by %s. Do not edit it: %s. `lucid claims` lists every claim.", escape.Line(t.rel), who, what))
		} else {
			warnings = append(warnings, fmt.Sprintf("lucid: %s is claimed in the work tree %s by %s. Your edit here goes ahead, but a merge conflict may follow when the branches meet.", escape.Line(t.rel), escape.Line(h.Claim.Worktree), who))
		}
	}
	return strings.Join(denials, "\n"), strings.Join(warnings, "\n"), nil
}

// sameTeam reports whether owner is a teammate in the caller's session,
// which SendMessage reaches by its name.
func (c *call) sameTeam(owner string) (string, bool) {
	sub, ok := strings.CutPrefix(owner, c.in.SessionID+"/")
	if !ok {
		return "", false
	}
	name, _, ok := gitstore.TeammateName(sub)
	return name, ok
}

// claimsFor reads the claims that could concern the targets.
func (c *call) claimsFor(targets []target) (*guard.ClaimSet, error) {
	paths, trees := make([]string, len(targets)), make([]bool, len(targets))
	for i, t := range targets {
		paths[i], trees[i] = t.rel, t.tree
	}
	return guard.LoadClaimsFor(c.repo, c.now, paths, trees)
}

// deny is the output that stops the tool call with reason.
func (c *call) deny(reason string) *Output {
	return &Output{Deny: reason}
}

// violations records, after a shell command, the files it changed that
// another agent claimed in this work tree: what the analysis before it
// could not see (make, formatters, scripts). It returns the line that tells
// the writer.
func (c *call) violations(changed []string) (string, error) {
	var targets []target
	for _, p := range changed {
		if t, ok := c.locate(p); ok && t.top == c.repo.Top {
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		return "", nil
	}
	set, err := c.claimsFor(targets)
	if err != nil || len(set.Claims)+len(set.Remote) == 0 {
		return "", err
	}
	labels := c.repo.NewLabeler()
	var parts []string
	for _, t := range targets {
		for _, h := range set.Check(c.agent, t.top, t.rel) {
			if h.Here {
				parts = append(parts, fmt.Sprintf("%s, claimed by %s", escape.Line(t.rel), set.Describe(h.Claim, labels)))
				break
			}
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	e := gitstore.NewEntry(c.now, c.agent, gitstore.KindViolation, "changed "+strings.Join(parts, "; "))
	if err := gitstore.Append(c.repo.LogPath(), e); err != nil {
		return "", err
	}
	return fmt.Sprintf("lucid: your command changed %s. Revert that change, or agree with the owner before you keep it. (Recorded in the log as a violation.)", strings.Join(parts, "; ")), nil
}

// releaseClaims ends the claims of the owners that match, when an agent
// stops or a session ends, waiting for the lock no longer than wait, so
// that the hook ends within its time.
func (c *call) releaseClaims(owner func(string) bool, wait time.Duration) error {
	_, err := guard.ReleaseWhere(c.repo, owner, wait)
	return err
}

// claimLines are the active claims, one line each, for the digest; when
// other machines' claims are among them, a last line says how old the copy
// they come from is.
func claimLines(repo *gitstore.Repo, set *guard.ClaimSet) []string {
	var lines []string
	labels := repo.NewLabeler()
	foreign := 0
	for _, cl := range set.ActiveClaims() {
		lines = append(lines, "- "+set.ClaimLine(cl, labels, repo.Top))
		if set.Foreign(cl) {
			foreign++
		}
	}
	if foreign > 0 {
		lines = append(lines, fmt.Sprintf("- (claims of other machines: as fetched from the remote %s; `lucid remote sync` fetches them again)", set.Freshness()))
	}
	return lines
}

// othersClaim reports whether agents other than the caller hold active
// claims.
func (c *call) othersClaim() bool {
	set, err := guard.LoadClaims(c.repo, c.now)
	if err != nil {
		return false
	}
	for _, cl := range set.Claims {
		if cl.Owner != c.agent && set.Active(cl) {
			return true
		}
	}
	return false
}

// planFirst is said to a lead at its prompt while other agents hold claims.
const planFirst = "lucid: other agents hold active claims and are still working. If this prompt changes the plan, write the change into .lucid/plan.md first, so the running workers get it."
