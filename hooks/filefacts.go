package hooks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// What the log knows of a file reaches the agent about to write it.
//
// An agent's delta gives it what was written since it looked, and its
// digest only the newest entries: an older fact about the file it is about
// to change may never have reached it. So a write (an edit tool's files,
// and those a shell command writes as the guard reads it) is given the
// live entries whose evidence cites the file and that the agent was not
// shown: not in its delta (the record's seen list), not written by it, not
// listed in its digest nor given here before (the record's given list).
// Each reaches one agent once, within factsBudget for the whole call,
// however many files it writes; what does not fit is counted, with the
// command that lists it, and counted as given.
//
// The hook finds them in logstore's index of cited files, which it brings
// up to the log under the lock when the log changed; with nothing to give,
// it reads the index's cursor and the small file of each path, and takes
// no lock. It reads each file's citations from the newest, and stops where
// an earlier call counted the rest as given, or after maxWalk citations in
// all: what a call costs does not grow with how many entries cite its
// files. What it gives is noted in the record under the lock, held until
// the answer is out (as the delta does), so that two hooks of one agent at
// once do not both give an entry.

// factsBudget bounds what one call is told of all the files it writes, in
// bytes (a few hundred tokens), every header and count included: the call
// is about the edit, not the history.
const factsBudget = 1600

// maxFileWalk bounds the citations one call looks at of each file, and
// maxWalk of all its files together; maxGive the entries it reads from the
// log to give, more than fit in factsBudget (an entry takes some 60 bytes
// at the least).
const (
	maxFileWalk = 256
	maxWalk     = 2048
	maxGive     = factsBudget / 50
)

// digestCites are the ids of the entries d lists that cite files: the
// agent given d was shown them, and is not given them again at an edit.
func digestCites(d Digest) []string {
	var ids []string
	for _, e := range d.Entries {
		if len(e.Evidence) > 0 {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// fileFacts returns what the log knows of the files rels name (relative
// to the top of the call's work tree) that the caller was not shown, and
// notes it as given in the record saved with the answer; "" when there is
// nothing.
func (c *call) fileFacts(rels []string) (string, error) {
	if !c.home || len(rels) == 0 {
		return "", nil
	}
	if !logstore.CitesFresh(c.repo) {
		if err := c.updateCites(); err != nil {
			return "", err
		}
	}
	// A first look without the lock, at the record as the delta read it
	// (an older record was shown less: it gives no entry too few).
	var rec agentstore.Record
	switch {
	case c.pending != nil:
		rec = *c.pending
	case c.looked != nil:
		rec = *c.looked
	default:
		var err error
		if rec, _, err = c.record(); err != nil {
			return "", err
		}
	}
	u, err := c.unshownCites(rec, rels)
	if err != nil || len(u.files) == 0 {
		return "", err
	}
	// Something to give: again under the lock, from the record as saved.
	if err := c.hold(); err != nil {
		return "", err
	}
	if c.pending != nil {
		rec = *c.pending
	} else if saved, _, ok := agentstore.Load(c.repo, c.agent); ok {
		rec = saved
	}
	if u, err = c.unshownCites(rec, rels); err != nil || len(u.files) == 0 {
		return "", err
	}
	text, given, err := c.formatFacts(u)
	if err != nil {
		return "", err
	}
	rec.AddGiven(given...)
	c.pending = &rec
	return text, nil
}

// updateCites brings the index of cited files up to the log, under the
// lock; a rewritten log is read whole before the lock is taken.
func (c *call) updateCites() error {
	var ahead *logstore.CitesAhead
	if c.held == nil {
		ahead = logstore.ReadCitesAhead(c.repo)
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if logstore.CitesFresh(c.repo) {
		return nil // another hook did
	}
	return logstore.UpdateCites(c.repo, ahead)
}

// unshown is what a call's files are cited by and the agent was not
// shown: for each file with any, its citations, newest first; and the
// files whose citations the call did not look at once it had looked at
// maxWalk in all.
type unshown struct {
	files  []fileCites
	unread []string
}

// fileCites are a file's citations the agent was not shown, newest first;
// cut when the walk stopped at maxFileWalk with older ones left (then
// their count is at least that).
type fileCites struct {
	rel   string
	cites []logstore.Citation
	cut   bool
}

// unshownCites returns the live entries citing each of rels that the agent
// of rec was not shown, newest first. It reads each file's citations from
// the newest and stops at one that an earlier call counted as given (the
// file's mark in the given list: the citations before it in the log's
// order were handled then), after maxFileWalk of the file's and after
// maxWalk in all: what is older than that, the agent can list with lucid
// log --path.
func (c *call) unshownCites(rec agentstore.Record, rels []string) (unshown, error) {
	var out unshown
	taken := map[string]bool{} // an entry citing two of the files is given once
	var shown *shownSet
	walked := 0
	names := c.repo.Names()
	for i, rel := range rels {
		key := names.Key(rel)
		if walked >= maxWalk {
			out.unread = rels[i:]
			break
		}
		f := fileCites{rel: rel}
		n := 0
		err := logstore.CitingNewest(c.repo, key, func(ci logstore.Citation) bool {
			if n == maxFileWalk || walked == maxWalk {
				f.cut = true
				return false
			}
			n++
			walked++
			if shown == nil {
				shown = newShownSet(rec, names)
			}
			if upTo := shown.upTo[key]; upTo != "" && ci.ID <= upTo {
				return false
			}
			if !taken[ci.ID] && !shown.has(ci.ID, key) {
				taken[ci.ID] = true
				f.cites = append(f.cites, ci)
			}
			return true
		})
		if err != nil {
			return unshown{}, err
		}
		if len(f.cites) > 0 {
			out.files = append(out.files, f)
		}
	}
	return out, nil
}

// shownSet tells whether the agent of a record was shown an entry: it
// was in its delta, or written by it, since its first look (the seen list,
// and what fell off it), or listed in its digest, or given as what is
// known of a file (the given list), or counted there as more of a file's
// (a mark of the file and the newest id counted). Any other entry older
// than its first look did not reach it: the digest lists only the newest.
type shownSet struct {
	ids                     map[string]bool
	upTo                    map[string]string // file (keyed as names key it) -> newest id counted
	knownBefore, seenBefore int64
}

// givenMark marks in the given list the entries citing a file that were
// counted as more: "@" + the newest id counted + " " + the file.
const givenMark = "@"

func newShownSet(rec agentstore.Record, names gitstore.Names) *shownSet {
	s := &shownSet{ids: make(map[string]bool, len(rec.Seen)+len(rec.Given)), upTo: map[string]string{},
		knownBefore: rec.KnownBefore, seenBefore: rec.SeenBefore}
	for _, id := range rec.Seen {
		s.ids[id] = true
	}
	for _, g := range rec.Given {
		if id, rel, ok := strings.Cut(strings.TrimPrefix(g, givenMark), " "); ok && strings.HasPrefix(g, givenMark) {
			key := names.Key(rel)
			s.upTo[key] = max(s.upTo[key], id)
			continue
		}
		s.ids[g] = true
	}
	return s
}

func (s *shownSet) has(id, key string) bool {
	if s.ids[id] || s.upTo[key] != "" && id <= s.upTo[key] {
		return true
	}
	t := logformat.IDTime(id).UnixMilli()
	return t >= s.knownBefore && t < s.seenBefore
}

// formatFacts writes the entries of u under a header for each file, newest
// first, within factsBudget for the whole call, and returns what to add to
// the given list: the ids written, the caller's own (which it is not told
// of), and for each file whose entries did not all fit, a mark that counts
// the rest as given. The rest is counted: under its file's header, and in
// one line for the files the budget left no room for.
func (c *call) formatFacts(u unshown) (string, []string, error) {
	checker, labels := logstore.NewChecker(c.repo), present.NewLabeler(c.repo, c.naming)
	var b strings.Builder
	var given []string
	read, full := 0, false
	// What was not given: how many, and of which files.
	restCount, restCut := 0, false
	var restFiles []string
	for _, f := range u.files {
		quoted := escape.Line(shellword.Quote(f.rel))
		header := fmt.Sprintf("lucid: what the log knows of %s, which you are about to change (newest first, not shown to you before):\n", escape.Line(f.rel))
		var entries []logformat.Entry
		k := 0
		if !full {
			k = min(len(f.cites), maxGive-read)
			var err error
			if entries, err = logstore.ReadCited(c.repo, f.cites[:k]); err != nil {
				return "", nil, err
			}
			read += k
		}
		var body strings.Builder
		newest, left := "", 0
		for i, e := range entries {
			if e.Agent == c.agent {
				given = append(given, e.ID)
				continue
			}
			s := FormatEntry(e, checker.Check(e.Evidence), labels, c.now)
			opening := header
			if body.Len() > 0 {
				opening = ""
			}
			// Room is kept for the line that counts this file's rest, and
			// for the one that counts the other files'.
			if b.Len()+body.Len()+len(opening)+len(s)+moreRoom(quoted) > factsBudget {
				full = true
				for _, rest := range entries[i:] {
					newest, left = max(newest, rest.ID), left+1
				}
				break
			}
			given = append(given, e.ID)
			body.WriteString(s)
		}
		if k < len(f.cites) {
			full = true // no more is read from the log: the rest is counted
		}
		for _, rest := range f.cites[k:] {
			newest, left = max(newest, rest.ID), left+1
		}
		if left > 0 {
			given = append(given, givenMark+newest+" "+f.rel)
		}
		if body.Len() == 0 {
			if left > 0 {
				restCount += left
				restCut = restCut || f.cut
				restFiles = append(restFiles, f.rel)
			}
			continue
		}
		b.WriteString(header)
		b.WriteString(body.String())
		if left > 0 {
			fmt.Fprintf(&b, "%s more: `lucid log --path %s`\n", atLeast(left, f.cut), quoted)
		}
	}
	if len(restFiles) > 0 || len(u.unread) > 0 {
		b.WriteString(restLine(restCount, restCut || len(u.unread) > 0, slices.Concat(restFiles, u.unread), factsBudget-b.Len()))
	}
	return b.String(), given, nil
}

// moreRoom is the room kept, while entries of a file are written, for the
// line that counts the rest of the file (its path quoted) and for the line
// that counts the other files' entries.
func moreRoom(quoted string) int {
	return len(" or more: `lucid log --path `\n") + 6 + len(quoted) + restRoom
}

// restRoom is the room of the line that counts the entries of the files
// the budget left no room for.
const restRoom = 200

// atLeast is n, said as at least n when the count stopped short.
func atLeast(n int, cut bool) string {
	if cut {
		return fmt.Sprintf("%d or", n)
	}
	return strconv.Itoa(n)
}

// restLine counts the entries of files the budget left no room for, and
// names the files as far as room allows; cut, the count is at least n, and
// files holds those the walk did not reach as well. With nothing counted
// (the walk read only what the agent was shown), it says the log may know
// more.
func restLine(n int, cut bool, files []string, room int) string {
	head := fmt.Sprintf("lucid: %s more %s the log knows of ", atLeast(n, cut), present.Plural(n, "entry", "entries"))
	if n == 0 {
		head = "lucid: the log may know more of "
	}
	if len(files) == 1 && !cut {
		line := head + fmt.Sprintf("%s, which you are about to change: `lucid log --path %s`\n", escape.Line(files[0]), escape.Line(shellword.Quote(files[0])))
		if len(line) <= room {
			return line
		}
		return head + "a file you are about to change: `lucid log --path FILE`\n"
	}
	of := fmt.Sprintf("%d of the files", len(files))
	if cut {
		of = "the files"
	}
	line := head + of + " you are about to change, not shown to you before: `lucid log --path FILE` for each:"
	const tail = " …\n"
	for i, f := range files {
		next := " " + escape.Line(f)
		if i < len(files)-1 {
			next += ","
		}
		if len(line)+len(next)+len(tail) > room {
			return line + tail
		}
		line += next
	}
	return line + "\n"
}
