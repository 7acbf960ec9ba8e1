package board

import (
	"errors"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// Board is the repository's agents, claims and notices at one moment.
type Board struct {
	At     time.Time `json:"at"`
	Top    string    `json:"top"` // the top of the work tree the board was opened in
	Agents []Agent   `json:"agents"`
	Claims []Claim   `json:"claims"`
	// Fetched is when the copy of other machines' claims was fetched; zero
	// without a remote.
	Fetched time.Time `json:"fetched,omitzero"`
	Notices []Notice  `json:"notices"`
	// Editing is the files of this work tree that agents still at work
	// changed lately (within the repository's awareness window), those
	// several agents changed first: where no claim keeps them apart.
	Editing []Editing `json:"editing"`
}

// Editing is a file agents changed lately, and who, newest first.
type Editing struct {
	Worktree string `json:"worktree"`
	Path     string `json:"path"` // relative to Worktree, with /
	Edits    []Edit `json:"edits"`
}

// The states of an agent, from its last hook call.
const (
	Working = "working" // a hook call within the last Idle
	Idle    = "idle"    // silent for longer, its session not ended
	Ended   = "ended"   // its session (or a subagent's task) ended and it has not acted since
)

// Agent is one agent lucid knows in this repository.
type Agent struct {
	ID       string    `json:"id"`
	Label    string    `json:"label"`
	Client   string    `json:"client"`
	Worktree string    `json:"worktree"`
	State    string    `json:"state"`
	LastSeen time.Time `json:"last_seen"`
	Ended    time.Time `json:"ended,omitzero"`
	Claims   []string  `json:"claims"`  // ids of its claims, in Board.Claims
	Entries  int       `json:"entries"` // entries and plan changes it wrote
	Edits    int       `json:"edits"`   // files it edited
	// Unread is how many entries others wrote that it has not been given
	// yet, counted up to MaxUnread; UnreadMore says there are more.
	Unread     int  `json:"unread"`
	UnreadMore bool `json:"unread_more,omitempty"`
	// Waiting is the messages for it that it has not received yet.
	Waiting int `json:"waiting"`
	// Denied is the last write a claim stopped, while it has not written
	// since; nil when none.
	Denied *Denial `json:"denied,omitempty"`
}

// MaxUnread bounds the count of an agent's unread entries, so that an
// agent that never read the log costs no more than one that did.
const MaxUnread = 999

// Denial is a write a claim stopped.
type Denial struct {
	At    time.Time `json:"at"`
	Path  string    `json:"path"`
	Owner string    `json:"owner"` // the claim's owner
	Label string    `json:"label"` // the owner's label
	Glob  string    `json:"glob"`
}

// Claim is a claim as the board shows it.
type Claim struct {
	ID       string    `json:"id"`
	Owner    string    `json:"owner"`
	Label    string    `json:"label"` // the owner's
	Task     string    `json:"task"`
	Worktree string    `json:"worktree"`
	Globs    []string  `json:"globs"`
	Created  time.Time `json:"created"`
	Ends     time.Time `json:"ends,omitzero"` // when it ends unless its owner acts again
	Active   bool      `json:"active"`
	Machine  string    `json:"machine,omitempty"` // another machine's claim: which
	// Lease: taken by the owner's write, without a claim, and held until
	// its turn ends.
	Lease bool `json:"lease,omitempty"`
}

// Notice is something a person watching should be told of.
type Notice struct {
	// ID stays the same for the same notice across boards, so that a page
	// tells each once.
	ID    string    `json:"id"`
	Kind  string    `json:"kind"` // one of the Notice kinds below
	At    time.Time `json:"at"`
	Agent string    `json:"agent,omitempty"`
	Label string    `json:"label,omitempty"`
	Text  string    `json:"text"`
	Path  string    `json:"path,omitempty"`
	Entry string    `json:"entry,omitempty"` // the log entry it is about
}

// The kinds of notice.
const (
	NoticeViolation  = "violation"  // a write a claim should have stopped
	NoticeDenied     = "denied"     // a claim stopped an agent's write
	NoticeUnreported = "unreported" // an agent ended with edits and nothing recorded
	NoticeStale      = "stale"      // a cited file changed under a live fact
)

// Entry is a log entry as the board shows it.
type Entry struct {
	logstore.Listed
	Label string           `json:"label"` // the writer's
	To    []string         `json:"to_labels,omitempty"`
	Stale []logstore.Stale `json:"stale,omitempty"`
	// StaleWhy says, for each of Stale, what changed, as lucid log says it.
	StaleWhy []string `json:"stale_why,omitempty"`
}

// LogQuery selects a page of the log.
type LogQuery struct {
	N      int    // entries per page (default 50, at most 500)
	Before string // the id of the last entry of the previous page; "" for the newest
	All    bool   // include superseded and retired entries
	Kind   string
	Agent  string // an id or a label
	Path   string // a file or glob relative to the work tree's top
	Words  string // rank by relevance to these words (no paging then)
}

// LogPage is one page of the log, newest first.
type LogPage struct {
	Entries []Entry `json:"entries"`
	// More says older entries follow; the next page is asked with Before
	// set to the last entry's id.
	More    bool `json:"more"`
	Invalid int  `json:"invalid,omitempty"`
}

// Tail is a place in the log, from which Since reads what was appended.
type Tail = logstore.Cursor

// End is the log's tail now.
func End(repo *gitstore.Repo) (Tail, error) { return logstore.EndCursor(repo.LogPath()) }

// Plan is the plan with its history.
type Plan struct {
	Text    string  `json:"text"`
	Hash    string  `json:"hash"`    // what WritePlan takes as base
	History []Entry `json:"history"` // plan entries, newest first, with their diffs
}

// Tree is a work tree's files with the claims over them and who edited
// them lately.
type Tree struct {
	Top       string `json:"top"`
	Files     []File `json:"files"` // sorted by path
	Truncated bool   `json:"truncated,omitempty"`
}

// File is one file of a Tree.
type File struct {
	Path   string   `json:"path"`             // relative to Top, with /
	Claims []string `json:"claims,omitempty"` // ids of the claims covering it
	Edits  []Edit   `json:"edits,omitempty"`  // newest first
}

// Edit is an agent's recent edit of a file.
type Edit struct {
	Agent string    `json:"agent"`
	Label string    `json:"label"`
	At    time.Time `json:"at"`
}

// MaxFiles bounds a Tree.
const MaxFiles = 20000

// ErrPlanChanged: the plan changed since the person began editing it.
var ErrPlanChanged = errors.New("the plan changed since you opened it: reload it, and make your change again")

// The person's actions. Each is what the command of the same name does when
// a person runs it, recorded the same way (as agentstore.AgentHuman).
