package agentstore

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/jsonread"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// Writers that are not agents.
const (
	AgentHuman = "human" // the lucid command line run by a person
	AgentUser  = "user"  // a change noticed on disk, made outside the agents' tools
)

// AgentID is the id of an agent as the hooks see it: the session id for a
// lead session, "session/agent" for a subagent (a subagent shares the lead's
// session id).
func AgentID(sessionID, agentID string) string {
	if agentID == "" {
		return sessionID
	}
	return sessionID + "/" + agentID
}

// Record is what lucid keeps about one agent, in
// <common git dir>/lucid/agents/<key>.json. The file's modification time is
// the agent's last-seen time: every hook call touches it (one syscall), and
// the content is rewritten only when something in it changes.
type Record struct {
	ID       string `json:"id"`
	Type     string `json:"type,omitempty"`   // the subagent's agent_type
	Client   string `json:"client,omitempty"` // the coding client it runs in ("" for Claude Code)
	Worktree string `json:"worktree"`
	Started  string `json:"started"`
	// Lich is the lich session a lead runs in (LICH_SESSION_ID): the name
	// its edits leave in lich's markers, so that lich's own sessions see
	// them as that session's.
	Lich string `json:"lich,omitempty"`

	// Cursor is where the agent last read the log; see the hooks package
	// for how the delta uses it.
	Cursor logstore.Cursor `json:"cursor"`
	// KnownBefore (Unix ms) is the agent's first look (or its latest
	// digest): an entry older than this that arrives by a rewrite of the
	// log is known to it only when its starting log held it, at StartHead
	// or among the newest entries then (SaveStart).
	KnownBefore int64  `json:"known_before"`
	StartHead   string `json:"start_head,omitempty"`
	// Seen holds ids the agent was shown or wrote since KnownBefore,
	// oldest first, at most MaxSeen of them; SeenBefore (Unix ms) is past
	// the newest id that fell off the list, so what it forgot still counts
	// as seen.
	Seen       []string `json:"seen,omitempty"`
	SeenBefore int64    `json:"seen_before,omitempty"`
	// Given holds the ids of the entries that cite files and that the
	// agent was shown though they are in no seen list: listed in its
	// digest, or given as what the log knows of a file it was about to
	// write; oldest first, at most MaxGiven.
	Given []string `json:"given,omitempty"`

	Edits   int  `json:"edits,omitempty"`   // files edited (PostToolUse)
	Entries int  `json:"entries,omitempty"` // entries and plan changes it wrote
	Asked   bool `json:"asked,omitempty"`   // asked once at its stop to record notes
	// Compacted: the agent's conversation was compacted since its last
	// start, so its next start gets the digest again.
	Compacted bool `json:"compacted,omitempty"`
}

// MaxSeen bounds Record.Seen.
const MaxSeen = 2000

// MaxGiven bounds Record.Given: past it, the oldest given is forgotten,
// and may be given again.
const MaxGiven = 1000

// Load reads the record of agent id; ok is false when there is none
// (or it cannot be read, which the hooks treat the same way).
func Load(r *gitstore.Repo, id string) (rec Record, lastSeen time.Time, ok bool) {
	path := r.AgentPath(id)
	f, fi, err := gitstore.OpenFile(path)
	if err != nil {
		return Record{}, time.Time{}, false
	}
	defer f.Close()
	b, err := gitstore.ReadLimited(f, path, fi.Size(), gitstore.MaxRecord)
	if err != nil || rec.decode(b) != nil || rec.ID != id {
		return Record{}, time.Time{}, false
	}
	return rec, fi.ModTime(), true
}

// decode reads a record as encoding/json would read it (the names are the
// struct's tags), without its cost at the start of every hook, which reads
// the caller's record (internal/jsonread).
func (rec *Record) decode(b []byte) error {
	cur := &rec.Cursor
	return jsonread.Fields(b, map[string]any{
		"id": &rec.ID, "type": &rec.Type, "client": &rec.Client, "worktree": &rec.Worktree, "started": &rec.Started, "lich": &rec.Lich,
		"cursor": func(v []byte) error {
			return jsonread.Fields(v, map[string]any{"size": &cur.Size, "inode": &cur.Inode, "mtime_ns": &cur.MTime, "tail": &cur.Tail})
		},
		"known_before": &rec.KnownBefore, "start_head": &rec.StartHead, "seen": &rec.Seen, "seen_before": &rec.SeenBefore, "given": &rec.Given, "edits": &rec.Edits, "entries": &rec.Entries,
		"asked": &rec.Asked, "compacted": &rec.Compacted,
	})
}

// Save writes the record whole (a temp file and a rename); its
// modification time, the last-seen time, becomes now.
func Save(r *gitstore.Repo, rec Record) error {
	if err := os.MkdirAll(r.AgentsDir(), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(r.AgentPath(rec.ID), append(b, '\n'), 0o644)
}

// Touch sets the agent's last-seen time to now. It reports false when
// the agent has no record yet.
func Touch(r *gitstore.Repo, id string) bool {
	now := time.Now()
	return os.Chtimes(r.AgentPath(id), now, now) == nil
}

// MarkEnded notes that the agent's run ended (its session ended, or a
// subagent finished): a message to it would never be read. It holds
// until the agent's next hook call, which refreshes its record's time.
func MarkEnded(r *gitstore.Repo, id string) error {
	path := endedPath(r, id)
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		if err := gitstore.WriteFileAtomic(path, nil, 0o644); err != nil {
			return err
		}
	}
	// Set from the clock, as Touch sets a record's time: the time a file
	// system stamps on a write is coarser, and can come before it.
	now := time.Now()
	return os.Chtimes(path, now, now)
}

// Ended reports whether the agent's run ended after its last hook call,
// and when.
func Ended(r *gitstore.Repo, id string, lastSeen time.Time) (time.Time, bool) {
	fi, err := os.Stat(endedPath(r, id))
	if err != nil || fi.ModTime().Before(lastSeen) {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}

func endedPath(r *gitstore.Repo, id string) string {
	return strings.TrimSuffix(r.AgentPath(id), ".json") + ".ended"
}

// Agents lists every agent record with its last-seen time.
func Agents(r *gitstore.Repo) ([]Record, []time.Time, error) {
	ents, err := os.ReadDir(r.AgentsDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var recs []Record
	var seen []time.Time
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := gitstore.ReadFile(filepath.Join(r.AgentsDir(), e.Name()), gitstore.MaxRecord)
		if err != nil {
			continue
		}
		var rec Record
		if rec.decode(b) != nil || rec.ID == "" {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		recs = append(recs, rec)
		seen = append(seen, info.ModTime())
	}
	return recs, seen, nil
}

// AddSeen appends ids to the record's seen list, dropping the oldest past
// MaxSeen and moving SeenBefore up past the newest dropped id, so that what
// was forgotten still counts as seen.
func (rec *Record) AddSeen(ids ...string) {
	rec.Seen = append(rec.Seen, ids...)
	if over := len(rec.Seen) - MaxSeen; over > 0 {
		for _, id := range rec.Seen[:over] {
			if logformat.ValidID(id) {
				rec.SeenBefore = max(rec.SeenBefore, logformat.IDTime(id).UnixMilli()+1)
			}
		}
		rec.Seen = append([]string(nil), rec.Seen[over:]...)
	}
}

// HasSeen reports whether id is in the record's seen list.
func (rec *Record) HasSeen(id string) bool {
	for _, s := range rec.Seen {
		if s == id {
			return true
		}
	}
	return false
}

// AddGiven appends ids to the record's given list, dropping the oldest past
// MaxGiven.
func (rec *Record) AddGiven(ids ...string) {
	rec.Given = append(rec.Given, ids...)
	if over := len(rec.Given) - MaxGiven; over > 0 {
		rec.Given = append([]string(nil), rec.Given[over:]...)
	}
}

// Denial is the last write of an agent that a claim stopped: what a person
// watching sees as "waiting for X's claim on PATH".
type Denial struct {
	At    time.Time `json:"at"`
	Path  string    `json:"path"`  // relative to the work tree's top
	Claim string    `json:"claim"` // the id of the claim that stopped it
	Owner string    `json:"owner"` // its owner
	Glob  string    `json:"glob"`  // the glob of it that matched
}

// SaveDenial keeps d as id's last denied write, replacing the one before.
// Only a denied tool call pays for it.
func SaveDenial(r *gitstore.Repo, id string, d Denial) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.AgentsDir(), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(deniedPath(r, id), b, 0o644)
}

// LastDenial returns id's last denied write, if it has one.
func LastDenial(r *gitstore.Repo, id string) (Denial, bool) {
	var d Denial
	b, err := os.ReadFile(deniedPath(r, id))
	if err != nil || json.Unmarshal(b, &d) != nil {
		return Denial{}, false
	}
	return d, true
}

func deniedPath(r *gitstore.Repo, id string) string {
	return strings.TrimSuffix(r.AgentPath(id), ".json") + ".denied"
}
