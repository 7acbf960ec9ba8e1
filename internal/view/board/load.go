package board

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/address"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
)

// IdleAfter is how long an agent may make no hook call and still be
// working: a model thinking between tool calls takes seconds, rarely a
// minute.
const IdleAfter = 2 * time.Minute

// tailWindow is how much of the log's end Load reads: the entries an
// agent has not read yet are counted in it, and the notices found in it.
// Reading no more keeps a board as cheap on a log of a million entries
// as on one of a thousand.
const tailWindow = 512 << 10

// staleChecked bounds how many of the newest live entries citing files
// Load compares with the files, for the stale notices.
const staleChecked = 200

// Load reads the board of the repository at now, its agents named as
// naming says.
func Load(repo *gitstore.Repo, naming present.Naming, now time.Time) (*Board, error) {
	book, err := address.Open(repo, naming, now, claims.TTL())
	if err != nil {
		return nil, err
	}
	set, err := claims.Load(repo, now)
	if err != nil {
		return nil, err
	}
	b := &Board{At: now, Top: repo.Top, Fetched: set.Fetched, Agents: []Agent{}, Claims: []Claim{}, Notices: []Notice{}}
	for _, c := range append(slices.Clip(set.Claims), set.Remote...) {
		b.Claims = append(b.Claims, claimOf(set, c, book))
	}
	slices.SortStableFunc(b.Claims, func(x, y Claim) int { return y.Created.Compare(x.Created) })

	tail, err := readTail(repo)
	if err != nil {
		return nil, err
	}
	recs, seen := book.Agents()
	for i, r := range recs {
		a := Agent{ID: r.ID, Label: book.Label(r.ID), Client: r.Client, Worktree: r.Worktree,
			LastSeen: seen[i], Entries: r.Entries, Edits: r.Edits, Claims: []string{}}
		if a.Client == "" { // a record names every client but the default
			a.Client = naming.Default
		}
		switch ended, ok := agentstore.Ended(repo, r.ID, seen[i]); {
		case ok:
			a.State, a.Ended = Ended, ended
		case now.Sub(seen[i]) <= IdleAfter:
			a.State = Working
		default:
			a.State = Idle
		}
		for _, c := range b.Claims {
			if c.Owner == r.ID && c.Machine == "" {
				a.Claims = append(a.Claims, c.ID)
			}
		}
		a.Unread, a.UnreadMore, a.Waiting = tail.unread(r)
		if d, ok := agentstore.LastDenial(repo, r.ID); ok && a.State != Ended {
			// Waiting on the claim while it holds; once it ended or moved
			// on, the write may go ahead.
			if i := slices.IndexFunc(b.Claims, func(c Claim) bool { return c.ID == d.Claim && c.Active }); i >= 0 && d.At.After(b.Claims[i].Created.Add(-time.Second)) {
				a.Denied = &Denial{At: d.At, Path: d.Path, Owner: d.Owner, Label: book.Label(d.Owner), Glob: d.Glob}
			}
		}
		b.Agents = append(b.Agents, a)
	}
	slices.SortStableFunc(b.Agents, func(x, y Agent) int {
		return cmp.Or(cmp.Compare(stateRank(x.State), stateRank(y.State)), y.LastSeen.Compare(x.LastSeen))
	})
	b.Notices = notices(repo, b, tail, book)
	b.Editing = editing(repo, b, book, now)
	return b, nil
}

func stateRank(s string) int { return slices.Index([]string{Working, Idle, Ended}, s) }

// claimOf is c as the board shows it.
func claimOf(set *claims.Set, c claimstore.Claim, book *address.Book) Claim {
	out := Claim{ID: c.ID, Owner: c.Owner, Label: book.Label(c.Owner), Task: c.Task, Worktree: c.Worktree,
		Globs: c.Globs, Created: c.Created, Active: set.Active(c), Lease: c.Lease}
	if set.Foreign(c) {
		out.Machine = c.Machine
	}
	if ends, ok := set.Ends(c); ok {
		out.Ends = ends
	}
	if out.Globs == nil {
		out.Globs = []string{}
	}
	return out
}

// tail is the entries of the log's last tailWindow bytes, oldest first,
// with where each starts.
type tail struct {
	start   int64 // where the window starts; 0 when it holds the whole log
	end     logstore.Cursor
	entries []logformat.Entry
	offsets []int64
}

func readTail(repo *gitstore.Repo) (*tail, error) {
	end, err := logstore.EndCursor(repo.LogPath())
	if err != nil {
		return nil, err
	}
	t := &tail{end: end, start: max(end.Size-tailWindow, 0)}
	// The window may start inside a line: that line is not valid and is
	// skipped.
	_, _, err = logstore.ScanFromOffsets(repo.LogPath(), t.start, func(e logformat.Entry, off int64) {
		t.entries = append(t.entries, e)
		t.offsets = append(t.offsets, off)
	})
	return t, err
}

// unread counts what r has not been given: entries of others written
// after its cursor (news), and the messages for it among them (waiting).
// An entry it was shown already (a rewrite of the log moves cursors)
// counts for neither.
func (t *tail) unread(r agentstore.Record) (news int, more bool, waiting int) {
	from := r.Cursor.Size
	if r.Cursor.Inode != t.end.Inode || from > t.end.Size {
		from = 0 // the log was rewritten since: the seen list decides
	}
	if from < t.start {
		more = true
	}
	for i, e := range t.entries {
		if t.offsets[i] < from || e.Agent == r.ID || r.HasSeen(e.ID) {
			continue
		}
		if e.Addressed() {
			if e.AddressedTo(r.ID) {
				waiting++
			}
			continue
		}
		if news < MaxUnread {
			news++
		} else {
			more = true
		}
	}
	return news, more, waiting
}

// notices are what Load tells a person of: violations and stale facts in
// the tail of the log, writes a claim stopped, and agents that ended with
// edits and nothing recorded.
func notices(repo *gitstore.Repo, b *Board, t *tail, book *address.Book) []Notice {
	out := []Notice{}
	superseded := map[string]bool{}
	for _, e := range t.entries {
		if e.Kind == logformat.KindSupersede {
			superseded[e.Supersedes] = true
		}
	}
	checker := logstore.NewChecker(repo)
	checked := 0
	for i := len(t.entries) - 1; i >= 0; i-- {
		e := t.entries[i]
		switch {
		case e.Kind == logformat.KindViolation:
			out = append(out, Notice{ID: "violation-" + e.ID, Kind: NoticeViolation, At: entryTime(e), Agent: e.Agent,
				Label: book.Label(e.Agent), Text: e.Text, Entry: e.ID})
		case len(e.Evidence) > 0 && !superseded[e.ID] && checked < staleChecked:
			checked++
			if stale := checker.Check(e.Evidence); len(stale) > 0 {
				out = append(out, Notice{ID: "stale-" + e.ID, Kind: NoticeStale, At: entryTime(e), Agent: e.Agent,
					Label: book.Label(e.Agent), Text: e.Text, Path: stale[0].Path, Entry: e.ID})
			}
		}
	}
	for _, a := range b.Agents {
		if a.Denied != nil {
			out = append(out, Notice{ID: "denied-" + a.ID + "-" + a.Denied.At.UTC().Format(time.RFC3339Nano), Kind: NoticeDenied,
				At: a.Denied.At, Agent: a.ID, Label: a.Label, Path: a.Denied.Path,
				Text: a.Label + " was stopped from writing " + a.Denied.Path + ": " + a.Denied.Label + " claims " + a.Denied.Glob})
		}
		if a.State == Ended && a.Edits > 0 && a.Entries == 0 {
			out = append(out, Notice{ID: "unreported-" + a.ID + "-" + a.Ended.UTC().Format(time.RFC3339Nano), Kind: NoticeUnreported,
				At: a.Ended, Agent: a.ID, Label: a.Label,
				Text: a.Label + " ended after editing " + strconv.Itoa(a.Edits) + " " + present.Plural(a.Edits, "file", "files") + " and recorded nothing"})
		}
	}
	slices.SortStableFunc(out, func(x, y Notice) int { return y.At.Compare(x.At) })
	return out
}

// entryTime is when e was written.
func entryTime(e logformat.Entry) time.Time {
	t, err := time.Parse(logformat.TimeFormat, e.At)
	if err != nil {
		return logformat.IDTime(e.ID)
	}
	return t
}
