package logformat

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"
)

// The kinds of entry.
const (
	KindFact      = "fact"
	KindDecision  = "decision"
	KindDeadEnd   = "dead-end"
	KindNote      = "note"
	KindPlan      = "plan"      // a change of plan.md, with Diff
	KindSupersede = "supersede" // replaces (or, with Retired, retires) Supersedes
	KindViolation = "violation" // a write that a claim should have stopped
	KindDream     = "dream"     // a consolidation point: digest.md covers what came before
	// Addressed entries (To): the delta delivers them to their recipients
	// alone, set apart from the news.
	KindMessage = "message" // a message, a question (Ask), a reply (ReplyTo), a request for a claim (Claim)
	KindHandoff = "handoff" // Owner handed the claim on Claim to To[0]
	KindRelease = "release" // a person ended Owner's claims on Claim (all of them when empty)
)

// ToAll addresses an entry to every agent.
const ToAll = "all"

// TimeFormat is the layout of Entry.At: UTC with milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Entry is one line of the log. The field order is the key order on disk;
// empty fields are left out.
//
// Two keys go beyond the first format's list: Evidence.Text keeps the cited line, so
// that a stale entry can say where that line is now, and Retired marks a
// supersede entry that retires its target instead of replacing it (its Text
// is the reason). Agents talk through To (the recipients' agent ids, or
// ToAll), Ask (a question that wants an answer), ReplyTo (the message
// answered), Claim (the globs asked for, handed over or released) and
// Owner (whose claim was handed over or released).
type Entry struct {
	ID         string     `json:"id"`
	At         string     `json:"at"`
	Agent      string     `json:"agent,omitempty"`
	Kind       string     `json:"kind"`
	Text       string     `json:"text,omitempty"`
	Evidence   []Evidence `json:"evidence,omitempty"`
	Supersedes string     `json:"supersedes,omitempty"`
	Retired    bool       `json:"retired,omitempty"`
	Diff       string     `json:"diff,omitempty"`
	To         []string   `json:"to,omitempty"`
	Ask        bool       `json:"ask,omitempty"`
	ReplyTo    string     `json:"reply_to,omitempty"`
	Claim      []string   `json:"claim,omitempty"`
	Owner      string     `json:"owner,omitempty"`
}

// Addressed reports whether e is said to some agents (To), not recorded
// for the team: the delta gives it to them alone, and it is no report of
// work, nor knowledge for the digest.
func (e *Entry) Addressed() bool { return len(e.To) > 0 }

// AddressedTo reports whether e is addressed to agent: named in To, or To
// holds ToAll (not the sender itself).
func (e *Entry) AddressedTo(agent string) bool {
	for _, t := range e.To {
		if t == agent || t == ToAll && e.Agent != agent {
			return true
		}
	}
	return false
}

// Evidence is a file an entry cites, as it was when the entry was written.
type Evidence struct {
	Path   string `json:"path"` // relative to the work tree's top, with slashes
	Line   int    `json:"line,omitempty"`
	Blake3 string `json:"blake3"`
	Text   string `json:"text,omitempty"` // the cited line, trimmed
}

// Time returns At as a time; the zero time if it does not parse.
func (e *Entry) Time() time.Time {
	t, _ := time.Parse(TimeFormat, e.At)
	return t
}

// NewEntry returns an entry of kind by agent at time now, with a new id.
func NewEntry(now time.Time, agent, kind, text string) Entry {
	now = now.UTC()
	return Entry{ID: NewID(now), At: now.Format(TimeFormat), Agent: agent, Kind: kind, Text: text}
}

// EncodeEntry returns the entry as one line of JSON with its newline.
// HTML characters are not escaped, so code in texts and diffs stays readable.
func EncodeEntry(e Entry) ([]byte, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil // Encode ends the line with '\n'
}

// DecodeEntry parses one line of the log (without its newline). A line that
// is not a JSON object with a well-formed id, a time and a kind is an error.
func DecodeEntry(line []byte) (Entry, error) {
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil {
		return Entry{}, err
	}
	if err := e.validate(); err != nil {
		return Entry{}, err
	}
	return e, nil
}

var (
	errBadID   = errors.New("entry has no valid id")
	errBadTime = errors.New("entry has no valid time")
	errNoKind  = errors.New("entry has no kind")
)

func (e *Entry) validate() error {
	if !ValidID(e.ID) {
		return errBadID
	}
	if _, err := time.Parse(TimeFormat, e.At); err != nil {
		return errBadTime
	}
	if e.Kind == "" {
		return errNoKind
	}
	return nil
}
