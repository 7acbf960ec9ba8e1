package hooks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// How the delta knows what an agent has not seen yet.
//
// Each agent's record keeps a cursor: the log's size, inode and mtime when
// the agent last read it, and a hash of the bytes just before that size.
//
//   - Nothing changed: one stat of the log matches the cursor, and the hook
//     prints nothing. This is the hot path; it reads no file.
//   - Appended (the bytes before the cursor are the ones it saw): only the
//     lines after the cursor are read, and the entries among them by others
//     are new. A merge by lucid's driver keeps "ours" as it was and appends
//     what "theirs" adds, so a merge is an append too.
//   - Rewritten (a checkout of another branch, a rebase, a merge without
//     lucid's driver): the whole log is read once, and an entry is new when
//     the agent has not seen it (it is not in the record's seen list) and
//     its starting log did not hold it: an entry older than KnownBefore,
//     the agent's first look, was in that log when git's commit of the
//     start (StartHead) or the newest entries then had it; otherwise it
//     comes from another branch, and is new however old (see unknown).
//
// Every entry delivered, written by the agent, or passed over as "N more"
// joins the seen list, so no entry reaches one agent twice, including after
// a checkout back and forth. The list is bounded (agentstore.MaxSeen); what
// falls off it moves SeenBefore up, so it still counts as seen. The read
// and the cursor's move hold the repository's lock, so two hooks of one
// agent running at once (parallel tool calls) do not both deliver an entry;
// so does the save of the record that says so. A rewritten log is read
// whole before the lock is taken (readAhead), and only what was appended
// since under it.

// logUnchanged reports whether the log is as the agent last read it: the
// hot path, one stat and no read.
func (c *call) logUnchanged(rec agentstore.Record) bool {
	now, err := logstore.Stat(c.repo.LogPath())
	return err == nil && now.SameFile(rec.Cursor) && rec.Worktree == c.repo.Top
}

// readAhead is a rewritten log as unread read it whole before the lock
// was taken, so that no hook holds the lock for the length of a long log:
// under the lock, only what was appended since is read.
type readAhead struct {
	entries []logformat.Entry
	cur     logstore.Cursor
}

// appended reports whether the log is the one the agent of rec read, with
// lines appended.
func (c *call) appended(rec agentstore.Record) bool {
	return rec.Worktree == c.repo.Top && logstore.Grown(c.repo.LogPath(), rec.Cursor)
}

// unread returns the entries of the log that the agent of rec has not seen,
// its own among them, oldest first, and the cursor at the end of what it
// read. It changes nothing. ahead, when not nil, is the log read before,
// and only what follows it is read now.
func (c *call) unread(rec agentstore.Record, ahead *readAhead) ([]logformat.Entry, logstore.Cursor, error) {
	path := c.repo.LogPath()
	unseen := func(e logformat.Entry) bool { return !rec.HasSeen(e.ID) }
	var fresh []logformat.Entry
	off, keep := int64(0), unseen
	if !c.appended(rec) {
		var err error
		if keep, err = c.unknown(rec); err != nil {
			return nil, logstore.Cursor{}, err
		}
	}
	switch {
	case c.appended(rec):
		off = rec.Cursor.Size
	case ahead != nil && logstore.Grown(path, ahead.cur):
		// rec may have moved since ahead was read: filter again.
		fresh = slices.DeleteFunc(ahead.entries, func(e logformat.Entry) bool { return !keep(e) })
		off = ahead.cur.Size
	}
	cur, _, err := logstore.ScanFrom(path, off, func(e logformat.Entry) {
		if keep(e) {
			fresh = append(fresh, e)
		}
	})
	return fresh, cur, err
}

// unknown is the test of an entry of a rewritten log (a checkout, a
// rebase, a pull --rebase) against what the agent of rec knows: it has not
// seen the entry, and its starting log did not hold it. An entry older
// than the agent's first look came in the log it started with, unless it
// was on another branch then: the log committed at the start's HEAD, and
// the newest entries then (the lines not yet committed are among them),
// say which.
func (c *call) unknown(rec agentstore.Record) (func(logformat.Entry) bool, error) {
	starting := logstore.LoadStart(c.repo, c.agent)
	var committed *logstore.IDSet
	if rec.StartHead != "" {
		// Read once a call: the log read ahead and the read under the
		// lock ask the same.
		if c.committed == nil || c.committedAt != rec.StartHead {
			set, err := logstore.CommittedIDs(c.repo, rec.StartHead)
			if err != nil {
				return nil, err
			}
			c.committed, c.committedAt = set, rec.StartHead
		}
		committed = c.committed
	}
	return func(e logformat.Entry) bool {
		if rec.HasSeen(e.ID) {
			return false
		}
		t := logformat.IDTime(e.ID).UnixMilli()
		switch {
		case t < rec.SeenBefore:
			return false // seen, and forgotten since (agentstore.MaxSeen)
		case starting[e.ID] || committed.Has(e.ID):
			// The log it started with held it, even one written in the
			// start's own millisecond.
			return false
		case t >= rec.KnownBefore:
			return true
		}
		// Older than the start, and not in its log: from another branch,
		// unless the record is from before lucid kept the start.
		return starting != nil || rec.StartHead != ""
	}, nil
}

// newEntries returns the entries new to the caller, oldest first, and
// advances its cursor past them. It reports whether the record changed. The
// caller holds the lock and saves the record before it lets go: then two
// hooks of one agent running at once (parallel tool calls) cannot both
// deliver an entry.
func (c *call) newEntries(rec *agentstore.Record, ahead *readAhead) ([]logformat.Entry, bool, error) {
	if c.logUnchanged(*rec) {
		return nil, false, nil
	}
	// Another hook of this agent may have moved the cursor meanwhile.
	if fresh, _, ok := agentstore.Load(c.repo, c.agent); ok {
		*rec = fresh
	}
	fresh, cur, err := c.unread(*rec, ahead)
	if err != nil {
		return nil, false, err
	}
	var out []logformat.Entry
	for _, e := range fresh {
		if rec.HasSeen(e.ID) { // a line twice in the log (a union merge)
			continue
		}
		rec.AddSeen(e.ID)
		if e.Agent == c.agent {
			if !e.Addressed() { // talking is not reporting
				rec.Entries++
			}
			continue
		}
		if e.Addressed() && !e.AddressedTo(c.agent) {
			continue // said to others: lucid log shows it
		}
		out = append(out, e)
	}
	rec.Cursor = cur
	rec.Worktree = c.repo.Top
	return out, true, nil
}

// planOverrides is said with every plan change in a delta.
const planOverrides = "The plan is the user's latest intent: it overrides your original brief. Re-read .lucid/plan.md and adjust your work to it."

// formatDelta writes the messages for the caller first, each set apart,
// then the news under one header line that counts it, within the budget;
// what does not fit is counted as "N more: `lucid log`" (or `lucid inbox`).
func (c *call) formatDelta(entries []logformat.Entry, budget int) string {
	if len(entries) == 0 {
		return ""
	}
	checker, labels := logstore.NewChecker(c.repo), present.NewLabeler(c.repo, c.naming)
	var said, news []logformat.Entry
	for _, e := range entries {
		if e.Addressed() {
			said = append(said, e)
		} else {
			news = append(news, e)
		}
	}
	var msgs strings.Builder
	for i, e := range said {
		s := formatMessage(e, labels.Label(e.Agent))
		if msgs.Len()+len(s) > budget/2 {
			n := len(said) - i
			fmt.Fprintf(&msgs, "lucid: %d more %s for you: `lucid inbox`\n", n, present.Plural(n, "message", "messages"))
			break
		}
		msgs.WriteString(s)
	}
	if len(news) == 0 {
		return msgs.String()
	}
	return msgs.String() + c.formatNews(news, budget-msgs.Len(), checker, labels)
}

// formatMessage is one addressed entry as its recipient reads it in its
// delta: who said it, what, and the command that answers it. What the
// sender wrote is fenced (escape.Words): one line, its line breaks shown,
// so that no line of it passes for lucid's.
func formatMessage(e logformat.Entry, from string) string {
	text := escape.Words(e.Text)
	// The globs as shell words: those of a request are the asker's, as it
	// typed them, and a space in one cannot make words of lucid's.
	globs := escape.Line(shellword.Join(e.Claim))
	switch {
	case e.Kind == logformat.KindHandoff:
		return fmt.Sprintf("lucid: %s handed you its claim on %s (%s): it is yours now.\n", from, globs, e.ID)
	case e.Kind == logformat.KindRelease:
		why := ""
		if strings.TrimSpace(e.Text) != "" {
			why = ": " + text
		}
		return fmt.Sprintf("lucid: a person released your claim on %s (%s)%s. You no longer hold it: claim again (lucid claim) before you edit those files.\n", globs, e.ID, why)
	case len(e.Claim) > 0:
		return fmt.Sprintf("lucid: %s asks you for your claim on %s (%s): %s\n  To hand it over: %s\n  To refuse: lucid reply %s \"why not\"\n",
			from, globs, e.ID, text, claims.HandCommand(e.Claim, e.Agent), e.ID)
	case e.Ask:
		return fmt.Sprintf("lucid: a question for you from %s (%s): %s\n  Answer with: lucid reply %s \"…\"\n", from, e.ID, text, e.ID)
	case e.ReplyTo != "":
		return fmt.Sprintf("lucid: %s replied to your message %s (%s): %s\n", from, e.ReplyTo, e.ID, text)
	}
	return fmt.Sprintf("lucid: a message for you from %s (%s): %s\n  Reply with: lucid reply %s \"…\"\n", from, e.ID, text, e.ID)
}

// formatNews writes the news under one header line that counts it.
func (c *call) formatNews(entries []logformat.Entry, budget int, checker *logstore.Checker, labels *present.Labeler) string {
	header := fmt.Sprintf("lucid: %d new log %s from other agents since you last looked (oldest first):\n", len(entries), present.Plural(len(entries), "entry", "entries"))
	var body strings.Builder
	for i, e := range entries {
		s := FormatEntry(e, checker.Check(e.Evidence), labels, c.now)
		if e.Kind == logformat.KindPlan {
			s += "  " + planOverrides + "\n"
			if d := planDiffBody(e.Diff); d != "" {
				s += clip(escape.Block(d, "  "), budget/2, "see .lucid/plan.md") + "\n"
			}
		}
		more := fmt.Sprintf("%d more: `lucid log`\n", len(entries)-i)
		if len(header)+body.Len()+len(s)+len(more) > budget {
			body.WriteString(more)
			break
		}
		body.WriteString(s)
	}
	return header + body.String()
}

// planDiffBody is a plan change's diff without its file header (the file
// is always the plan): its hunks, whose lines are the plan's, as its
// writer wrote them.
func planDiffBody(diff string) string {
	if rest, ok := strings.CutPrefix(diff, "--- "); ok {
		if _, after, ok := strings.Cut(rest, "\n+++ "); ok {
			if _, body, ok := strings.Cut(after, "\n"); ok {
				return body
			}
		}
	}
	return diff
}
