package hooks

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/lich/lichguard"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/settings"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// Edit awareness: no agent is surprised by another's change of the file it
// writes, claim or no claim.
//
// Every write of an agent's, in any work tree lucid keeps state for, leaves
// the agent's name and the time in the file's edit marker (lichstore, in
// lich's own format: lich's sessions and lucid's agents see each other's
// edits). Before an agent writes a file, the marker says who changed it
// since the agent's own last write of it: each of them that is still at
// work (its session not ended, not silent past the claims' TTL) and changed
// it within the repository's window (settings.AwarenessWindow) is news.
// The agent is told who (label and client), when, whether that one holds a
// claim on the file, and the lucid command that reaches it; the other agent
// is told in its next delta that this one is now editing the file
// (agentstore.Notice). The marker then names this agent newest, so the same
// change is told once.
//
// It is decided once the guard has let the call through (a denied call
// writes nothing and learns nothing), under the repository's lock, so that
// of two agents writing one file at once the second is told of the first.
// A client that shows the model nothing before a tool runs (Mute) gets it
// with the tool's result, as a notice to itself. What a command changed
// that was not known before it ran (Claude Code's list of a shell
// command's files, lucid's own watch) is recorded after it, and told then.
//
// With leases on (settings.Leases), the same pass takes a lease on each
// file the agent writes and holds no claim or lease on yet: a claim with no
// task that ends with the agent's turn (claimstore.Claim.Lease).

// When a note of others' changes is said, against the caller's write.
type moment int

const (
	beforeWrite moment = iota // PreToolUse: the write is about to run
	afterWrite                // PostToolUse: the command changed the file
	// withResult: said with a tool's result where the client showed nothing
	// before it; whether the write went in, the client knows (it may have
	// refused it).
	withResult
)

// markerRefresh is how long an agent's own newest edit in a marker stands
// for its later ones: a file edited again and again is not rewritten at
// every edit, and its marker's time is at most this old.
const markerRefresh = 30 * time.Second

// editor is another agent's (or lich session's) change of a file.
type editor struct {
	name string    // as the marker names it
	at   time.Time // its latest change
	// id is the lucid agent, and rec its record; "" for a lich session
	// lucid does not know.
	id  string
	rec agentstore.Record
	// held is its claim or lease covering the file, if it holds one.
	held *claimstore.Claim
}

// fileNews is what one file's marker told the writer.
type fileNews struct {
	repo    *gitstore.Repo
	path    string // absolute, as the call wrote it
	rel     string
	editors []editor // newest first
}

// markerName is the name the caller's edits leave in lich's markers: a lich
// lead's own session, so that lich's guard in that session knows them as
// its own, else its lucid agent id.
func (c *call) markerName() string {
	if s := c.lichSession(); s != "" {
		return s
	}
	return c.agent
}

// lichSession is the lich session the caller leads (LICH_SESSION_ID), or
// "": lich knows sessions, and a subagent of one is another agent to lucid.
func (c *call) lichSession() string {
	if c.in.AgentID != "" {
		return ""
	}
	return os.Getenv("LICH_SESSION_ID")
}

// settingsOf reads the settings of r once a call; trouble with the file is
// a line on stderr, and the defaults hold.
func (c *call) settingsOf(r *gitstore.Repo) settings.Settings {
	if s, ok := c.settings[r.Top]; ok {
		return s
	}
	s, err := settings.Load(r)
	c.warn(err)
	if c.settings == nil {
		c.settings = map[string]settings.Settings{}
	}
	c.settings[r.Top] = s
	return s
}

// editTargets are the files of ts that a write names one by one, each once,
// in the order given: a folder written whole, the paths under one, or what a
// git command would change are no file an agent is editing. Where the file
// system folds names, each is spelled as the file system holds it
// (gitstore.OnDisk), which names its marker: two agents writing Match.go
// and MATCH.GO are told of each other.
func editTargets(ts []target) []target {
	var out []target
	for _, t := range ts {
		if t.tree || t.under != "" || t.by != "" || t.rel == "." {
			continue
		}
		if t.names != 0 {
			t.path, t.rel = onDisk(t)
		}
		if slices.ContainsFunc(out, func(o target) bool { return o.path == t.path && o.repo.GitDir == t.repo.GitDir }) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// onDisk is t's path and rel as its file system spells them below the
// top of its work tree.
func onDisk(t target) (path, rel string) {
	rel = gitstore.OnDisk(t.names, t.repo.Top, t.rel)
	if rel == t.rel {
		return t.path, t.rel
	}
	return t.repo.Abs(rel), rel
}

// editing records the caller's write of the files of ts in their markers,
// takes a lease on each where leases are on, and returns what the markers
// told: for each file, the other live agents that changed it since the
// caller's own last write, within the window. The agents told of are given
// a notice. deny is not "" when a lease another agent took meanwhile (its
// write raced this one) stops the call.
func (c *call) editing(ts []target) (news []fileNews, deny string, err error) {
	self := c.markerName()
	var todo []target
	for _, t := range editTargets(ts) {
		if c.leasing(t) {
			todo = append(todo, t)
			continue
		}
		m, err := lichstore.ReadMarker(t.repo, t.path)
		if err == nil && m != nil && m.Session == self && c.now.Sub(time.UnixMilli(m.At)) < markerRefresh {
			continue // its own write, a moment ago: nothing new, nothing to write
		}
		todo = append(todo, t)
	}
	for _, group := range byRepository(todo) {
		unlock, err := c.lockRepo(group[0].repo)
		if err != nil {
			return news, "", err
		}
		n, d, err := c.editingLocked(group, self)
		news = append(news, n...)
		unlock()
		if d != "" || err != nil {
			return news, d, err
		}
	}
	return news, "", nil
}

// lockRepo takes the lock of r's repository for a moment: the call's own,
// held until its answer is out, or another repository's, let go by the
// function returned.
func (c *call) lockRepo(r *gitstore.Repo) (func(), error) {
	if c.repo != nil && r.CommonDir == c.repo.CommonDir {
		return func() {}, c.hold()
	}
	l, err := r.LockWithin(max(time.Until(c.lockBy), time.Millisecond))
	if err != nil {
		return nil, err
	}
	return l.Unlock, nil
}

// editingLocked is editing for files of one repository, under its lock.
func (c *call) editingLocked(ts []target, self string) ([]fileNews, string, error) {
	if deny, err := c.takeLeases(ts); deny != "" || err != nil {
		return nil, deny, err
	}
	var out []fileNews
	var notices map[string][]agentstore.Notice
	for _, t := range ts {
		m, err := lichstore.ReadMarker(t.repo, t.path)
		if err != nil {
			// lich's own words for its marker; this write replaces it.
			fmt.Fprintf(c.stderr, "lucid lich: reading the edit marker of %s: %v\n", t.path, err)
			m = nil
		}
		window := c.settingsOf(t.repo).AwarenessWindow
		var eds []editor
		if m != nil {
			for _, e := range m.Edits() {
				if e.Session == self || e.Session == c.agent {
					break // what came before, this agent knew when it wrote
				}
				if c.now.Sub(e.Time()) < window {
					eds = append(eds, editor{name: e.Session, at: e.Time()})
				}
			}
		}
		if err := lichstore.RecordEdit(t.repo, t.path, self, c.now); err != nil {
			c.warn(fmt.Errorf("writing the edit marker of %s: %w", t.path, err))
		}
		if eds = c.liveEditors(t, eds); len(eds) == 0 {
			continue
		}
		out = append(out, fileNews{repo: t.repo, path: t.path, rel: t.rel, editors: eds})
		for _, e := range eds {
			if e.id == "" {
				continue
			}
			if notices == nil {
				notices = map[string][]agentstore.Notice{}
			}
			notices[e.id] = append(notices[e.id], agentstore.Notice{Kind: agentstore.NoticeEditing, Worktree: t.repo.Top,
				Path: t.rel, By: c.agent, At: c.now.UnixMilli(), Since: e.at.UnixMilli()})
		}
	}
	for id, ns := range notices {
		c.warn(agentstore.AddNotices(ts[0].repo, id, ns))
	}
	return out, "", nil
}

// liveEditors resolves the editors of a file to lucid's agents and keeps
// those still at work: an agent whose session ended, or that has been
// silent past the claims' TTL, is not editing anything. A name no agent
// has is a lich session's, which lucid cannot tell the end of.
func (c *call) liveEditors(t target, eds []editor) []editor {
	if len(eds) == 0 {
		return nil
	}
	var lichs map[string]string // lich session -> agent, read once
	var set *claims.Set
	out := eds[:0]
	for _, e := range eds {
		id := e.name
		rec, seen, ok := agentstore.Load(t.repo, id)
		if !ok {
			if lichs == nil {
				lichs = lichAgents(t.repo)
			}
			if id = lichs[e.name]; id != "" {
				rec, seen, ok = agentstore.Load(t.repo, id)
			}
		}
		if !ok {
			out = append(out, e)
			continue
		}
		if _, ended := agentstore.Ended(t.repo, id, seen); ended || c.now.Sub(seen) > claims.TTL() || id == c.agent {
			continue
		}
		e.id, e.rec = id, rec
		if set == nil {
			set, _ = c.claims.LoadFor(t.repo, c.now, []string{t.rel}, []bool{false})
		}
		if set != nil {
			e.held = set.Covering(id, t.repo.Top, t.rel)
		}
		out = append(out, e)
	}
	return out
}

// lichAgents maps the lich sessions that lucid's leads run in to the
// leads' ids.
func lichAgents(r *gitstore.Repo) map[string]string {
	out := map[string]string{}
	recs, _, _ := agentstore.Agents(r)
	for _, rec := range recs {
		if rec.Lich != "" {
			out[rec.Lich] = rec.ID
		}
	}
	return out
}

// leasing reports whether the caller's write of t takes a lease: leases
// are on in t's work tree, t is not lucid's own file (the plan is
// everyone's to edit), and the caller holds no claim or lease on it yet.
func (c *call) leasing(t target) bool {
	if first, _, _ := strings.Cut(t.rel, "/"); t.rel != first && t.names.Same(first, gitstore.LucidDirName) {
		return false
	}
	// Held already (an agent edits one file many times): the settings
	// need not even be read.
	if set := c.sets[t.repo.CommonDir]; set != nil && set.Owns(c.agent, t.repo.Top, t.rel) {
		return false
	}
	return c.settingsOf(t.repo).Leases
}

// takeLeases takes a lease on each file of ts (all of one repository,
// under its lock) that the caller's write leases: read again now, a lease
// another agent took since the guard looked stops the call as a claim
// would. After the call (PostToolUse: a file a command turned out to
// write) nothing is stopped, and a file another agent holds takes no
// lease.
func (c *call) takeLeases(ts []target) (deny string, err error) {
	var want []target
	for _, t := range ts {
		if c.leasing(t) {
			want = append(want, t)
		}
	}
	if len(want) == 0 {
		return "", nil
	}
	paths, trees := make([]string, len(want)), make([]bool, len(want))
	for i, t := range want {
		paths[i] = t.rel
	}
	set, err := c.claims.LoadFor(want[0].repo, c.now, paths, trees)
	if err != nil {
		return "", err
	}
	var add []claimstore.Claim
	for _, t := range want {
		if h, ok := c.heldHere(t, set); ok {
			if c.in.Event == client.PostToolUse {
				continue // written already: its violation is told, and no lease is taken over another's
			}
			c.noteDenied(t, h)
			return c.claimDenial(t, h, set, set.Describe(h.Claim, present.NewLabeler(t.repo, c.naming))), nil
		}
		if set.Owns(c.agent, t.repo.Top, t.rel) {
			continue
		}
		add = append(add, claimstore.Claim{ID: logformat.NewID(c.now), Owner: c.agent, Created: c.now,
			Worktree: t.repo.Top, Globs: []string{claims.PathGlob(t.rel)}, Lease: true})
	}
	return "", claims.AddLeases(want[0].repo, add)
}

// heldHere is the claim or lease of another agent's that holds t in its
// own work tree, as the guard reads it.
func (c *call) heldHere(t target, set *claims.Set) (claims.Hit, bool) {
	for _, h := range c.holding(t, set.Check(c.agent, t.repo.Top, t.rel)) {
		if h.Here {
			return h, true
		}
	}
	return claims.Hit{}, false
}

// awareNote is what the caller is told of the files others changed: for
// each, who, when, whether they hold a claim, and how to reach them. before
// says the call has not run yet (PreToolUse); after it ran, the note says
// its change came on top of theirs.
func (c *call) awareNote(news []fileNews, when moment) string {
	var lines []string
	size := 0
	for i, fn := range news {
		if size > awareBudget {
			// A command that writes many files others changed: the
			// rest is counted, and the views list them.
			var rest []string
			for _, more := range news[i:] {
				rest = append(rest, escape.Line(more.rel))
			}
			lines = append(lines, fmt.Sprintf("lucid: %d more %s you are writing %s changed by other agents lately: %s (lucid watch --once shows who).",
				len(rest), present.Plural(len(rest), "file", "files"), present.Plural(len(rest), "was", "were"), clip(strings.Join(rest, ", "), awareBudget/4, "")))
			break
		}
		var agents []editor
		var lichs []lichstore.Edit
		for _, e := range fn.editors {
			if e.id == "" {
				lichs = append(lichs, lichstore.Edit{Session: e.name, At: e.at.UnixMilli()})
			} else {
				agents = append(agents, e)
			}
		}
		if len(lichs) > 0 {
			l := &lichguard.Session{Name: c.markerName(), Bin: os.Getenv("LICH_BIN")}
			note, _, warn := l.Note(fn.path, lichs, c.now)
			if warn != nil {
				fmt.Fprintln(c.stderr, warn)
			}
			lines = append(lines, note)
		}
		if len(agents) > 0 {
			lines = append(lines, c.agentsNote(fn, agents, when))
		}
		size = len(strings.Join(lines, "\n"))
	}
	return strings.Join(lines, "\n")
}

// awareBudget bounds what one call is told of others' changes, in bytes
// (as the file facts are): past it, the rest of the files are counted.
const awareBudget = 1600

// agentsNote is the note about lucid agents that changed one file.
func (c *call) agentsNote(fn fileNews, eds []editor, when moment) string {
	labels := present.NewLabeler(fn.repo, c.naming)
	var who []string
	var lichLabels map[string]string // from lich's roster, asked once
	lich := false
	for _, e := range eds {
		client := c.clientTitle(e.rec.Client)
		if e.rec.Lich != "" {
			if lichLabels == nil {
				l := &lichguard.Session{Bin: os.Getenv("LICH_BIN")}
				var err error
				if lichLabels, err = l.Labels(); err != nil {
					fmt.Fprintln(c.stderr, "lucid lich:", err)
				}
				if lichLabels == nil {
					lichLabels = map[string]string{}
				}
			}
			name := escape.Line(e.rec.Lich)
			if label := lichLabels[e.rec.Lich]; label != "" {
				name = escape.Words(label) // as the person named it
			}
			client += ", the lich session " + name
			lich = true
		}
		s := fmt.Sprintf("%s (%s) %s", labels.Label(e.id), client, present.Ago(e.at, c.now))
		switch {
		case e.held == nil:
			s += ", holding no claim on it"
		case e.held.Lease:
			s += ", editing it under a lease"
		default:
			s += fmt.Sprintf(", holding a claim on it (%s) for %s", escape.Line(strings.Join(e.held.Globs, ", ")), escape.Words(e.held.Task))
		}
		who = append(who, s)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lucid: %s was changed since your last write of it by %s. ", escape.Line(fn.rel), strings.Join(who, "; "))
	if len(eds) == 1 {
		b.WriteString("That agent may still be at work on it: ")
	} else {
		b.WriteString("They may still be at work on it: ")
	}
	switch when {
	case beforeWrite:
		b.WriteString("read the file again before you change it, and agree on the change rather than undo theirs")
	case afterWrite:
		b.WriteString("your command changed it after them; check that their change still holds, and agree with them")
	default:
		b.WriteString("read the file again; where your change went in, check that theirs still holds, and agree on the change rather than undo theirs")
	}
	var asks []string
	for _, e := range eds {
		asks = append(asks, "`"+askAbout(e, fn.rel)+"`")
	}
	if lich {
		asks = append(asks, "or send_to_session or lich send to a lich session")
	}
	fmt.Fprintf(&b, " (%s).", strings.Join(asks, ", "))
	return b.String()
}

// askAbout is the command that asks e about the file rel, ready to run:
// for the claim or lease it holds, or whether it is still changing it.
func askAbout(e editor, rel string) string {
	if e.held != nil {
		return claims.AskCommand(e.id, e.held.Globs[0])
	}
	return fmt.Sprintf("lucid ask %s %s", shellword.Quote(escape.Line(e.id)),
		shellword.Quote("Are you still changing "+escape.Line(rel)+"? I am about to edit it."))
}

// clientTitle is the client as its users know it, from its name in an
// agent's record.
func (c *call) clientTitle(name string) string {
	if name == "" {
		return "an unknown client"
	}
	for _, cl := range c.clients {
		if cl.Name() == name {
			return client.TitleOf(cl)
		}
	}
	return escape.Line(name)
}

// tellAware gives the caller what the markers told: in this answer, or,
// where the client shows nothing at this event (Mute), as notices to
// itself that its next delta gives. The status line's news is the newest
// of it.
func (c *call) tellAware(news []fileNews, when moment) string {
	if len(news) == 0 {
		return ""
	}
	c.statusNews(news)
	if !c.in.Caps.Has(client.Mute) {
		for _, fn := range news {
			for _, e := range fn.editors {
				if c.told == nil {
					c.told = map[string]int64{}
				}
				c.told[e.id+" "+fn.rel] = e.at.UnixMilli()
			}
		}
		return c.awareNote(news, when)
	}
	if !c.home {
		return "" // no record, so no delta to give it later
	}
	var own []agentstore.Notice
	for _, fn := range news {
		for _, e := range fn.editors {
			own = append(own, agentstore.Notice{Kind: agentstore.NoticeChanged, Worktree: fn.repo.Top, Path: fn.rel, By: e.name, At: e.at.UnixMilli()})
		}
	}
	if err := c.hold(); err != nil {
		c.warn(err)
		return ""
	}
	c.warn(agentstore.AddNotices(c.repo, c.agent, own))
	return ""
}

// statusNews keeps the newest of news for the caller's status line
// (lucid statusline): "<file> also edited by <label>".
func (c *call) statusNews(news []fileNews) {
	key := os.Getenv("LICH_SESSION_ID")
	if key == "" {
		key = c.in.SessionID
	}
	newest := news[0].editors[0]
	path := news[0].path
	for _, fn := range news {
		if fn.editors[0].at.After(newest.at) {
			newest, path = fn.editors[0], fn.path
		}
	}
	by := newest.name
	if newest.id != "" {
		by = present.NewLabeler(news[0].repo, c.naming).Label(newest.id)
	}
	c.warn(lichstore.WriteNews(news[0].repo, lichstore.News{Session: key, Path: path, By: by, At: newest.at.UnixMilli()}))
}

// noticesText takes the caller's waiting notices for its delta: they leave
// its file once the answer is out (commit). "" when none wait: the usual
// case costs one stat.
func (c *call) noticesText() string {
	if !agentstore.HasNotices(c.repo, c.agent) {
		return ""
	}
	if err := c.hold(); err != nil {
		c.warn(err)
		return ""
	}
	ns, n, err := agentstore.Notices(c.repo, c.agent)
	if err != nil {
		c.warn(err)
		return ""
	}
	c.noticesTaken = n
	labels := present.NewLabeler(c.repo, c.naming)
	var lines []string
	var changed []fileNews
	for _, nt := range ns {
		if nt.Kind == agentstore.NoticeChanged && nt.At > c.told[nt.By+" "+nt.Path] {
			if c.told == nil {
				c.told = map[string]int64{}
			}
			c.told[nt.By+" "+nt.Path] = nt.At // the same answer tells of it
		}
	}
	for _, nt := range ns {
		switch nt.Kind {
		case agentstore.NoticeEditing:
			if at, ok := c.told[nt.By+" "+nt.Path]; ok && nt.At <= at {
				continue // this answer tells of that change already
			}
			rec, _, _ := agentstore.Load(c.repo, nt.By)
			lines = append(lines, fmt.Sprintf("lucid: %s (%s) is now editing %s, which you changed %s; it was told of your change. "+
				"If your work on the file is not done, agree with it: `lucid tell %s \"…\"`.",
				labels.Label(nt.By), c.clientTitle(rec.Client), escape.Line(nt.Path), present.Ago(time.UnixMilli(nt.Since), c.now), shellword.Quote(escape.Line(nt.By))))
		case agentstore.NoticeChanged:
			changed = addChanged(changed, c.repoAt(nt.Worktree), nt)
		}
	}
	for i := range changed {
		changed[i].editors = c.liveEditors(target{path: changed[i].path, repo: changed[i].repo, rel: changed[i].rel}, changed[i].editors)
	}
	changed = slices.DeleteFunc(changed, func(fn fileNews) bool { return len(fn.editors) == 0 })
	if note := c.awareNote(changed, withResult); note != "" {
		lines = append(lines, note)
	}
	return strings.Join(lines, "\n")
}

// addChanged adds a NoticeChanged to the files' news it gathers.
func addChanged(news []fileNews, r *gitstore.Repo, nt agentstore.Notice) []fileNews {
	e := editor{name: nt.By, at: time.UnixMilli(nt.At)}
	for i := range news {
		if news[i].rel == nt.Path && news[i].repo.Top == r.Top {
			news[i].editors = append(news[i].editors, e)
			return news
		}
	}
	return append(news, fileNews{repo: r, path: r.Abs(nt.Path), rel: nt.Path, editors: []editor{e}})
}

// repoAt is the work tree whose top is top, the caller's own where it is
// that or cannot be found.
func (c *call) repoAt(top string) *gitstore.Repo {
	if top == "" || top == c.repo.Top {
		return c.repo
	}
	if r, err := gitstore.Find(top); err == nil && r.Top == top {
		return r
	}
	return c.repo
}
