package hooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard/gitpredict"
	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/guard/winpath"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/settings"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// target is a path a tool call writes, placed in a work tree whose
// repository lucid keeps claims for.
type target struct {
	path  string         // absolute, as the tool or the shell analysis gave it
	repo  *gitstore.Repo // the work tree that holds it
	rel   string         // relative to repo.Top
	names gitstore.Names // how repo's file system compares names
	tree  bool           // a folder written as a whole (rm -rf dir)
	// under, when not "", is the glob of the paths under the folder rel
	// that are written (shell.Write.Under).
	under string
	// by, when not "", is the git command that would change the path,
	// though the command line does not name it (git stash, checkout
	// BRANCH...).
	by string
	// writer says who writes a folder's files, where that narrows what it
	// can reach of lucid's own files.
	writer writer
}

// writer is what writes the files of a folder a command names.
type writer int

const (
	anyWriter writer = iota
	// gitTracked: git, by a path the command names (git checkout -- DIR,
	// git restore .): only the files git tracks under it, never its git
	// dir; the loss of the log's unsaved lines git's own answer tells
	// (written.logLoss).
	gitTracked
	// formatter: a formatter or a fixer (shell.Write.Format): it
	// rewrites only the files it parses as its language's source, which
	// lucid's log, JSON Lines, is not.
	formatter
)

// abs is path made absolute against the call's folder, cleaned.
func (c *call) abs(path string) string {
	path = native(c.in.Cwd, path)
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.in.Cwd, path)
	}
	return filepath.Clean(path)
}

// native is path as Windows reads it from the folder cwd, in the one
// spelling winpath gives all of its spellings, so that C:/x, c:\x and
// \\?\C:\x meet one claim. Git Bash's /c/x is read as C:\x too: a model
// working through Claude Code's Git Bash names files so to its edit tools
// as well, and of the two readings (C:\x, or \c\x on the current drive)
// only that one can lie in a repository with claims. Elsewhere path is
// returned as given, at no cost: the condition is a constant.
func native(cwd, path string) string {
	if runtime.GOOS != "windows" {
		return path
	}
	if w, ok := winpath.FromGitBash(path); ok {
		return w
	}
	return winpath.Abs(cwd, path)
}

// locate places path in the work trees whose claims hold for it: the
// work tree that holds it, in whatever repository, whether or not it has
// .lucid/ checked out (the claims live in the common git dir), when lucid
// keeps state for its repository; and, when that is a repository nested
// in the caller's own work tree, the caller's work tree too. Where the
// session runs does not matter: a session started in the repository's
// parent folder, in a nested repository, or in a linked work tree whose
// branch predates lucid writes under the same claims as any other.
func (c *call) locate(path string) []target {
	if path == "" {
		return nil
	}
	path = c.abs(path)
	var out []target
	r := c.repoOf(path)
	if r != nil && (r == c.repo && c.home || r.Initialised() || r.HasState()) {
		if rel, err := r.Rel(path); err == nil {
			out = append(out, target{path: path, repo: r, rel: rel, names: r.Names()})
		}
	}
	if home := c.repo; home != nil && (r == nil || r.CommonDir != home.CommonDir) {
		if rel, err := home.Rel(path); err == nil {
			out = append(out, target{path: path, repo: home, rel: rel, names: home.Names()})
		}
	}
	return out
}

// is reports whether t is the file or folder name of its work tree, as
// its file system compares names.
func (t target) is(name string) bool { return t.names.Same(t.rel, name) }

// mayWrite reports whether the glob of what t writes under its folder
// can match name, as its file system compares names.
func (t target) mayWrite(name string) bool {
	glob := claims.UnderGlob(t.rel, t.under)
	return overlap.Match(t.names.Key(glob), t.names.Key(name))
}

// repoOf is the work tree that holds path, nil outside any. A path in the
// caller's own work tree is placed without a search, unless a folder
// between it and the top holds a .git of its own (a nested repository).
func (c *call) repoOf(path string) *gitstore.Repo {
	dir := filepath.Dir(path)
	if r, ok := c.found[dir]; ok {
		return r
	}
	var r *gitstore.Repo
	home := c.repo
	inHome := false
	if home != nil {
		_, inHome = gitstore.Inside(home.Top, dir)
	}
	if home != nil && !inHome {
		_, inHome = gitstore.InsideNamed(home.Names(), home.Top, dir)
	}
	if inHome && !nestedGit(dir, home.Top) {
		r = home
	} else if found, err := gitstore.Find(path); err == nil {
		r = found
		if home != nil && r.GitDir == home.GitDir {
			r = home
		}
	}
	if c.found == nil {
		c.found = map[string]*gitstore.Repo{}
	}
	c.found[dir] = r
	return r
}

// nestedGit reports whether a folder from dir up to top (not top itself)
// holds a .git: dir then lies in another repository.
func nestedGit(dir, top string) bool {
	for d := dir; len(d) > len(top); d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
	}
	return false
}

// written is what a tool call is about to write, as the guard checks it.
type written struct {
	targets []target
	// named are the paths the call names as written (an edit tool's, a
	// shell command's as the analysis reads them): the work trees they
	// lie in are those its shell command is watched in.
	named []string
	// state is a path in lucid's own state (claims, agents' records, the
	// lock) that the call writes, or a folder holding it that it removes.
	state string
	// unsure says why the shell analysis could not read the whole command.
	unsure string
	// logLoss says which git command would discard lines of a log that
	// are not committed yet, and what to run instead.
	logLoss string
	// unknown are the git commands whose changes git cannot tell before
	// they run (git pull fetches first), with why, by the work tree they
	// run in.
	unknown []gitUnknown
}

// gitUnknown is a git command whose changes cannot be known beforehand.
type gitUnknown struct {
	repo *gitstore.Repo
	why  string
}

// writes returns what the tool call is about to write.
func (c *call) writes() written {
	var w written
	// A path is checked as the text says (Claude Code's own tools clean
	// ".." from the text) and as the kernel resolves it (a shell, and
	// through a link that is not the same file).
	// add checks path as it is given, and, unless it came resolved (the
	// shell analysis and git resolve theirs), as the kernel resolves it.
	// who: which writer writes it, where that narrows what it can reach
	// (see writer).
	add := func(path string, resolved, tree bool, under, by string, who writer) {
		raw := native(c.in.Cwd, path)
		if !filepath.IsAbs(raw) {
			raw = c.in.Cwd + string(filepath.Separator) + raw
		}
		paths := []string{filepath.Clean(raw)}
		if !resolved {
			if k := realpath.Of(raw); k != paths[0] {
				paths = append(paths, k)
			}
		}
		for _, p := range paths {
			// A folder git's path form names (git restore .) loses only
			// what git tracks; what git's own answer lists of a whole-tree
			// command (by) can be a nested repository, state and all (git
			// clean -ffdx), and is checked.
			if w.state == "" && (who != gitTracked || by != "") {
				w.state = c.stateWritten(p, tree)
			}
			for _, t := range c.locate(p) {
				t.tree, t.under, t.by, t.writer = tree, under, by, who
				w.targets = append(w.targets, t)
			}
		}
	}
	isDir := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	for _, p := range c.in.Paths { // an edit tool's, or a patch a shell applies
		w.named = append(w.named, p)
		add(p, false, false, "", "", anyWriter)
	}
	if c.in.Tool == client.ToolShell {
		a := analyzeShell(c.in)
		for _, sw := range a.Writes {
			w.named = append(w.named, sw.Path)
			who := anyWriter
			switch {
			case sw.Format:
				who = formatter
			case strings.HasPrefix(sw.By, "git "):
				who = gitTracked
			}
			add(sw.Path, true, sw.Under == "" && isDir(sw.Path), sw.Under, "", who)
		}
		w.unsure = a.Unsure
		for _, op := range a.Git {
			c.gitWrites(&w, op, func(p string) { add(p, true, isDir(p), "", op.String(), gitTracked) })
		}
	}
	return w
}

// gitWrites asks git what op, one of git's whole-tree commands in the
// line, would change (gitpredict.Op.Changes) and adds it to w: the files,
// each a write like any other, the loss of the log's unsaved lines, or
// that it cannot be known beforehand. It runs git: only a line with such
// a command pays for it.
func (c *call) gitWrites(w *written, op gitpredict.Op, add func(path string)) {
	ch, err := op.Changes()
	if err != nil {
		c.warn(fmt.Errorf("%s: %w", op, err))
		return
	}
	if ch.LogLoss != "" && w.logLoss == "" {
		w.logLoss = ch.LogLoss
	}
	if ch.Unknown != "" {
		if r, err := gitstore.Find(op.Dir); err == nil {
			w.unknown = append(w.unknown, gitUnknown{repo: r, why: ch.Unknown})
		} else if c.repo != nil {
			w.unknown = append(w.unknown, gitUnknown{repo: c.repo, why: ch.Unknown})
		}
	}
	for _, p := range ch.Paths {
		add(p)
	}
}

// stateWritten is path when writing it (or removing it as a folder, tree)
// would change lucid's own state: a file under a git dir's lucid/ or
// lich-edits/, or a folder that holds a repository's state. writes checks
// each path as written and as the kernel resolves it.
func (c *call) stateWritten(path string, tree bool) string {
	if _, ok := gitstore.StateDir(path); ok {
		return path
	}
	if !tree {
		// Another name of one of lucid's files (a hard link an earlier
		// command made) writes that file.
		for _, r := range []*gitstore.Repo{c.repo, c.repoOf(path)} {
			if r != nil {
				if of := r.LinkedState(path); of != "" {
					return path + " (a hard link to " + of + ")"
				}
			}
		}
		return ""
	}
	if c.repo != nil && c.repo.HoldsState(path) {
		return path
	}
	if r := c.repoOf(filepath.Join(path, "x")); r != nil && r.HoldsState(path) {
		return path
	}
	return ""
}

// appendOnly is the reason for refusing a write to the log.
const appendOnly = "lucid: " + gitstore.LogName + " is append-only, for every agent and person: nobody edits it in place. " +
	"Record with lucid fact|decision|dead-end|note \"TEXT\" (in your shell tool); correct an entry with lucid supersede ID \"TEXT\", " +
	"or withdraw it with lucid supersede ID --retire --why \"TEXT\"."

// personsSettings is the reason for refusing a write to the repository's
// settings: an agent that turned leases off would free for itself what
// other agents are editing.
const personsSettings = "lucid: " + settings.Name + " holds this repository's lucid settings (whether writes take leases), which are the user's to choose: " +
	"no agent edits it. Ask the user, who runs lucid init --leases on|off."

// ownState is the reason for refusing a write to lucid's own state.
const ownState = "lucid: %s holds lucid's shared state (claims, agents' records and cursors, the lock): no agent writes it by hand, " +
	"since that ends, moves or forges other agents' claims and records. Change it with lucid's commands (lucid claim, lucid release)."

// unknownGit is the reason for refusing a git command whose changes git
// cannot tell beforehand, while other agents hold claims in its work tree.
const unknownGit = "lucid: %s Other agents hold claims in this work tree, so lucid cannot let it change files unseen: " +
	"run it in steps git can answer for (git fetch, then git merge or git rebase of the fetched branch), with revisions and folders written out, or ask the claims' owners first (`lucid claims`)."

// unsureShell is the reason for refusing a command the analysis could not
// read whole.
const unsureShell = "lucid: %s. Until then lucid cannot tell whether it writes files other agents claimed."

// guardWrites decides about what a tool call is about to write: a reason
// to deny it (a write to the log or to lucid's state, a path another agent
// claimed in the same work tree, a command too big to read while others
// hold claims), and warnings for paths claimed in other work trees of the
// repository, which pass.
func (c *call) guardWrites(w written) (deny, warn string, err error) {
	if w.state != "" {
		return fmt.Sprintf(ownState, escape.Line(w.state)), "", nil
	}
	for _, t := range w.targets {
		if t.by != "" {
			// git puts back another committed version of the log; what
			// it would lose is logLoss's to say.
			continue
		}
		// A formatter's folder (prettier --write . at the top: every file
		// under it) holds the log, which it does not parse, so leaves; git
		// restores what it tracks, and says itself when the log's unsaved
		// lines would go (logLoss).
		if t.is(gitstore.LogName) || t.tree && t.writer != gitTracked && (t.rel == "." || t.is(gitstore.LucidDirName)) ||
			t.under != "" && t.writer != formatter && t.mayWrite(gitstore.LogName) {
			return appendOnly, "", nil
		}
		// A formatter's folder holds the settings too; it may lay their
		// JSON out anew, which chooses nothing.
		if t.is(settings.Name) || t.under != "" && t.writer != formatter && t.mayWrite(settings.Name) {
			return personsSettings, "", nil
		}
	}
	if w.logLoss != "" {
		return "lucid: " + w.logLoss + " The log's entries are every agent's record: none may be lost.", "", nil
	}
	if w.unsure != "" && c.othersHoldClaims(c.watched(w.named)) {
		return fmt.Sprintf(unsureShell, w.unsure), "", nil
	}
	for _, u := range w.unknown {
		if c.othersHoldClaims([]*gitstore.Repo{u.repo}) {
			return fmt.Sprintf(unknownGit, u.why), "", nil
		}
	}
	if len(w.targets) == 0 {
		return "", "", nil
	}
	var denials, warnings []string
	for _, group := range byRepository(w.targets) {
		set, err := c.claimsFor(group)
		if err != nil {
			return "", "", err
		}
		if c.sets == nil {
			c.sets = map[string]*claims.Set{}
		}
		c.sets[group[0].repo.CommonDir] = set
		if len(set.Claims)+len(set.Remote) == 0 {
			continue
		}
		labels := present.NewLabeler(group[0].repo, c.naming)
		for _, t := range group {
			check := set.Check
			switch {
			case t.under != "":
				check = func(agent, top, rel string) []claims.Hit { return set.CheckUnder(agent, top, rel, t.under) }
			case t.tree:
				check = set.CheckTree
			}
			hits := c.holding(t, check(c.agent, t.repo.Top, t.rel))
			if len(hits) == 0 {
				continue
			}
			h := hits[0]
			who := set.Describe(h.Claim, labels)
			if h.Here {
				if len(denials) == 0 {
					c.noteDenied(t, h)
				}
				denials = append(denials, c.claimDenial(t, h, set, who))
			} else {
				warnings = append(warnings, fmt.Sprintf("lucid: %s is claimed in the work tree %s by %s. Your edit here goes ahead, but a merge conflict may follow when the branches meet.", escape.Line(t.rel), escape.Line(h.Claim.Worktree), who))
			}
		}
	}
	return strings.Join(denials, "\n"), strings.Join(warnings, "\n"), nil
}

// holding is hits without the leases of a work tree whose leases are
// off: turned off, they stop nobody.
func (c *call) holding(t target, hits []claims.Hit) []claims.Hit {
	if c.settingsOf(t.repo).Leases {
		return hits
	}
	return slices.DeleteFunc(hits, func(h claims.Hit) bool { return h.Claim.Lease })
}

// claimDenial is the reason a write of t is denied by the claim (or
// lease) of h, whose owner is who.
func (c *call) claimDenial(t target, h claims.Hit, set *claims.Set, who string) string {
	what := escape.Line(t.rel) + " is"
	if t.by != "" {
		what = fmt.Sprintf("`%s` would change %s, which is", escape.Line(t.by), escape.Line(t.rel))
	}
	if h.Claim.Lease {
		return fmt.Sprintf("lucid: %s being edited by %s. Do not edit it: %s. `lucid claims` lists every claim and lease.", what, who, c.howToAgree(h, false))
	}
	return fmt.Sprintf("lucid: %s claimed by %s. Do not edit it: %s. `lucid claims` lists every claim.", what, who, c.howToAgree(h, set.Foreign(h.Claim)))
}

// howToAgree says to a denied agent how to reach the owner of the claim
// hit: a person through the user, another machine's agent through the
// user too (what it writes here reaches that machine only with a merge),
// any other agent with lucid ask, the command ready to run.
func (c *call) howToAgree(h claims.Hit, foreign bool) string {
	owner := h.Claim.Owner
	switch {
	case owner == agentstore.AgentHuman:
		return "ask the user, or work on other files"
	case foreign:
		return "wait until it expires, ask that agent (through the user), or work on other files"
	}
	ask := "ask for it with `" + claims.AskCommand(owner, h.Glob) + "`"
	if h.Claim.Lease {
		return "wait until its turn ends, " + ask + " (it hands it over with `lucid release " + shellword.Quote(escape.Line(h.Glob)) + " --to YOU`), or work on other files"
	}
	if _, ok := c.sameTeam(owner); ok {
		return "wait until it is released (a teammate's claims end when it goes idle), " + ask + ", or work on other files"
	}
	return "wait until it is released, " + ask + ", or work on other files"
}

// byRepository groups targets by the repository whose claims hold for
// them, in the order they came.
func byRepository(targets []target) [][]target {
	var groups [][]target
	for _, t := range targets {
		i := slices.IndexFunc(groups, func(g []target) bool { return g[0].repo.CommonDir == t.repo.CommonDir })
		if i < 0 {
			groups = append(groups, []target{t})
		} else {
			groups[i] = append(groups[i], t)
		}
	}
	return groups
}

// othersHoldClaims reports whether another agent holds an active claim
// in one of repos' work trees.
func (c *call) othersHoldClaims(repos []*gitstore.Repo) bool {
	for _, r := range repos {
		set, err := c.claims.Load(r, c.now)
		if err != nil {
			return true
		}
		for _, cl := range set.ActiveClaims() {
			if cl.Owner != c.agent && !claims.SessionLease(cl, c.agent) && (r.Names().Same(cl.Worktree, r.Top) || set.Foreign(cl)) {
				return true
			}
		}
	}
	return false
}

// sameTeam reports whether owner is a teammate in the caller's session,
// and its name in the team, by which SendMessage reaches it.
func (c *call) sameTeam(owner string) (string, bool) {
	if !strings.HasPrefix(owner, c.in.SessionID+"/") {
		return "", false
	}
	return c.naming.Teammate(owner)
}

// claimsFor reads the claims that could concern the targets, all of one
// repository.
func (c *call) claimsFor(targets []target) (*claims.Set, error) {
	paths, trees := make([]string, len(targets)), make([]bool, len(targets))
	for i, t := range targets {
		paths[i], trees[i] = t.rel, t.tree || t.under != "" // what lies under the folder
	}
	return c.claims.LoadFor(targets[0].repo, c.now, paths, trees)
}

// noteDenied keeps the write a claim stopped, for a person watching the
// agents (lucid web, lucid watch). Only a denied call pays for it; a
// failure to keep it changes nothing. It is kept in the repository whose
// claim stopped the write, which an agent outside it may not have.
func (c *call) noteDenied(t target, h claims.Hit) {
	agentstore.SaveDenial(t.repo, c.agent, agentstore.Denial{At: c.now, Path: t.rel, Claim: h.Claim.ID, Owner: h.Claim.Owner, Glob: h.Glob})
}

// deny is the output that stops the tool call with reason.
func (c *call) deny(reason string) *client.Output {
	return &client.Output{Deny: reason}
}

// violations records, after a shell command, the files it changed that
// another agent claimed in the same work tree: what the analysis before it
// could not see (script files, a recipe or a script it could not read). It
// returns the line that tells the writer.
func (c *call) violations(changed []string) (string, error) {
	var targets []target
	for _, p := range changed {
		targets = append(targets, c.locate(p)...)
	}
	var parts []string
	for _, group := range byRepository(targets) {
		set, err := c.claimsFor(group)
		if err != nil {
			return "", err
		}
		if len(set.Claims)+len(set.Remote) == 0 {
			continue
		}
		labels := present.NewLabeler(group[0].repo, c.naming)
		var here []string
		for _, t := range group {
			for _, h := range set.Check(c.agent, t.repo.Top, t.rel) {
				if h.Here {
					here = append(here, fmt.Sprintf("%s, claimed by %s", escape.Line(t.rel), set.Describe(h.Claim, labels)))
					break
				}
			}
		}
		if len(here) == 0 {
			continue
		}
		e := logformat.NewEntry(c.now, c.agent, logformat.KindViolation, "changed "+strings.Join(here, "; "))
		if log := c.logFor(group[0].repo); log != "" {
			if err := logstore.Append(log, e); err != nil {
				return "", err
			}
		}
		parts = append(parts, here...)
	}
	if len(parts) == 0 {
		return "", nil
	}
	return fmt.Sprintf("lucid: your command changed %s. Revert that change, or agree with the owner before you keep it. (Recorded in the log as a violation.)", strings.Join(parts, "; ")), nil
}

// logFor is the log a violation in the work tree r is recorded in: r's
// own; where r has no .lucid/ checked out (a branch that predates lucid),
// the caller's, or that of the repository's main work tree.
func (c *call) logFor(r *gitstore.Repo) string {
	if r.Initialised() {
		return r.LogPath()
	}
	if c.repo != nil && c.repo.CommonDir == r.CommonDir && c.repo.Initialised() {
		return c.repo.LogPath()
	}
	if main, err := gitstore.Find(filepath.Dir(r.CommonDir)); err == nil && main.CommonDir == r.CommonDir && main.Initialised() {
		return main.LogPath()
	}
	return ""
}

// releaseClaims ends the claims of the owners that match, when an agent
// stops or a session ends, waiting for the lock no longer than what is
// left of the call's budget (lockBudget), so that the hook ends in time.
func (c *call) releaseClaims(owner func(string) bool) error {
	return c.releaseWhere(func(cl claimstore.Claim) bool { return owner(cl.Owner) })
}

// releaseWhere ends the claims that which takes, as releaseClaims does.
func (c *call) releaseWhere(which func(claimstore.Claim) bool) error {
	// Past the budget, one try: ReleaseWhere takes 0 as no bound.
	_, err := c.claims.ReleaseWhere(c.repo, which, max(time.Until(c.lockBy), time.Nanosecond))
	if errors.Is(err, claims.ErrStillLocked) {
		return fmt.Errorf("%w through this hook's wait for the lock (%v in all, its budget): they end when their owners' silence reaches LUCID_CLAIM_TTL", claims.ErrStillLocked, c.repo.LockWait)
	}
	return err
}

// claimLines are the active claims, one line each, for the digest; when
// other machines' claims are among them, a last line says how old the copy
// they come from is.
func claimLines(repo *gitstore.Repo, set *claims.Set, naming present.Naming) []string {
	var lines []string
	labels := present.NewLabeler(repo, naming)
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
	set, err := c.claims.Load(c.repo, c.now)
	if err != nil {
		return false
	}
	for _, cl := range set.Claims {
		// A lease says only that an agent writes a file this turn: the
		// reminder is for the claims of workers given a task.
		if cl.Owner != c.agent && !cl.Lease && set.Active(cl) {
			return true
		}
	}
	return false
}

// planFirst is said to a lead at its prompt while other agents hold claims.
const planFirst = "lucid: other agents hold active claims and are still working. If this prompt changes the plan, write the change into .lucid/plan.md first, so the running workers get it."
