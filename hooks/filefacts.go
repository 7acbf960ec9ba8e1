package hooks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/agentstore"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/shellword"
	"github.com/lucid-dev/lucid/logformat"
	"github.com/lucid-dev/lucid/logstore"
	"github.com/lucid-dev/lucid/present"
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
// Each reaches one agent once, within factsBudget; what does not fit is
// counted, with the command that lists it.
//
// The hook finds them in logstore's index of cited files, which it brings
// up to the log under the lock when the log changed; with nothing to give,
// it reads the index's cursor and the small file of each path, and takes
// no lock. What it gives is noted in the record under the lock, held until
// the answer is out (as the delta does), so that two hooks of one agent at
// once do not both give an entry.

// factsBudget bounds what one call is told of its files, in bytes (a few
// hundred tokens): the call is about the edit, not the history.
const factsBudget = 1600

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
	cites, err := c.unshownCites(rec, rels)
	if err != nil || len(cites) == 0 {
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
	if cites, err = c.unshownCites(rec, rels); err != nil || len(cites) == 0 {
		return "", err
	}
	text, given, err := c.formatFacts(rels, cites)
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

// unshownCites returns, for each of rels, the live entries citing it that
// the agent of rec was not shown, newest first.
func (c *call) unshownCites(rec agentstore.Record, rels []string) (map[string][]logstore.Citation, error) {
	out := map[string][]logstore.Citation{}
	taken := map[string]bool{} // an entry citing two of the files is given once
	var shown *shownSet
	for _, rel := range rels {
		cites, err := logstore.Citing(c.repo, rel)
		if err != nil {
			return nil, err
		}
		if len(cites) > 0 && shown == nil {
			shown = newShownSet(rec)
		}
		for _, ci := range slices.Backward(cites) {
			if !taken[ci.ID] && !shown.has(ci.ID, rel) {
				taken[ci.ID] = true
				out[rel] = append(out[rel], ci)
			}
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
	upTo                    map[string]string // file -> newest id counted
	knownBefore, seenBefore int64
}

// givenMark marks in the given list the entries citing a file that were
// counted as more: "@" + the newest id counted + " " + the file.
const givenMark = "@"

func newShownSet(rec agentstore.Record) *shownSet {
	s := &shownSet{ids: make(map[string]bool, len(rec.Seen)+len(rec.Given)), upTo: map[string]string{},
		knownBefore: rec.KnownBefore, seenBefore: rec.SeenBefore}
	for _, id := range rec.Seen {
		s.ids[id] = true
	}
	for _, g := range rec.Given {
		if id, rel, ok := strings.Cut(strings.TrimPrefix(g, givenMark), " "); ok && strings.HasPrefix(g, givenMark) {
			s.upTo[rel] = max(s.upTo[rel], id)
			continue
		}
		s.ids[g] = true
	}
	return s
}

func (s *shownSet) has(id, rel string) bool {
	if s.ids[id] || s.upTo[rel] != "" && id <= s.upTo[rel] {
		return true
	}
	t := logformat.IDTime(id).UnixMilli()
	return t >= s.knownBefore && t < s.seenBefore
}

// formatFacts writes the entries of cites under a header for each file,
// within factsBudget, and returns what to add to the given list: the ids
// written, the caller's own (which it is not told of), and for a file
// whose entries did not all fit, a mark that counts the rest as given.
func (c *call) formatFacts(rels []string, cites map[string][]logstore.Citation) (string, []string, error) {
	checker, labels := logstore.NewChecker(c.repo), present.NewLabeler(c.repo)
	var b strings.Builder
	var given []string
	for _, rel := range rels {
		entries, err := logstore.ReadCited(c.repo, cites[rel])
		if err != nil {
			return "", nil, err
		}
		var body strings.Builder
		for i, e := range entries {
			if e.Agent == c.agent {
				given = append(given, e.ID)
				continue
			}
			s := FormatEntry(e, checker.Check(e.Evidence), labels.Label(e.Agent), c.now)
			if b.Len()+body.Len()+len(s) > factsBudget {
				newest := ""
				for _, rest := range entries[i:] {
					newest = max(newest, rest.ID)
				}
				given = append(given, givenMark+newest+" "+rel)
				fmt.Fprintf(&body, "%d more: `lucid log --path %s`\n", len(entries)-i, escape.Line(shellword.Quote(rel)))
				break
			}
			given = append(given, e.ID)
			body.WriteString(s)
		}
		if body.Len() == 0 {
			continue
		}
		fmt.Fprintf(&b, "lucid: what the log knows of %s, which you are about to change (newest first, not shown to you before):\n", escape.Line(rel))
		b.WriteString(body.String())
	}
	return b.String(), given, nil
}
