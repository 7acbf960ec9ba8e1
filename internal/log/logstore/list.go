package logstore

import (
	"bytes"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// ListOptions selects entries for List.
type ListOptions struct {
	N     int    // at most this many; 0 means no limit
	All   bool   // include entries that were superseded or retired
	Kind  string // only this kind
	Agent string // only entries whose agent is this, or starts with "this/"
	// Cites, when set, keeps only entries citing a path it accepts;
	// CitesHint, when set, is a string the line of every such entry holds:
	// the other lines are not decoded (nor counted when invalid), but for
	// the supersede entries, which say what is no longer live.
	Cites     func(path string) bool
	CitesHint string
	// SkimKind, with Kind, decodes only the lines that hold the kind's
	// name: a listing of a rare kind reads a large log fast, but does not
	// count the other lines when they are not valid.
	SkimKind bool
	// Before, when set, keeps only the entries listed after the entry of
	// that id: the next page of a listing that ended there.
	Before string
}

// Listed is an entry as List returns it.
type Listed struct {
	logformat.Entry
	// SupersededBy is the id of the entry that replaced or retired this one.
	SupersededBy string `json:"superseded_by,omitempty"`
}

// List returns entries newest first (by time, then id, also after a merge
// appended older entries: see newestFirst). It reads
// the log from its end and stops once it has N, so `lucid log -n 20` costs
// the same on any log. A supersede entry is always newer than its target,
// so it comes first.
func List(r *gitstore.Repo, opt ListOptions) ([]Listed, int, error) {
	supersededBy := map[string]string{}
	var out []Listed
	invalid := 0
	before := opt.Before != ""
	read := entries(&invalid, func(e logformat.Entry) bool {
		if e.Kind == logformat.KindSupersede && e.Supersedes != "" {
			if _, seen := supersededBy[e.Supersedes]; !seen {
				supersededBy[e.Supersedes] = e.ID
			}
		}
		if before {
			before = e.ID != opt.Before
			return true
		}
		by := supersededBy[e.ID]
		if by != "" && !opt.All {
			return true
		}
		if opt.Kind != "" && e.Kind != opt.Kind {
			return true
		}
		if opt.Agent != "" && e.Agent != opt.Agent && !strings.HasPrefix(e.Agent, opt.Agent+"/") {
			return true
		}
		if opt.Cites != nil && !slices.ContainsFunc(e.Evidence, func(ev logformat.Evidence) bool { return opt.Cites(ev.Path) }) {
			return true
		}
		out = append(out, Listed{Entry: e, SupersededBy: by})
		return opt.N <= 0 || len(out) < opt.N
	})
	// A line that may be selected holds the hint; every supersede entry is
	// read, since it says what is no longer live, and with Before the
	// line of that entry, where the page starts.
	hints := [][]byte{}
	if opt.CitesHint != "" {
		hints = append(hints, []byte(opt.CitesHint))
	}
	if opt.SkimKind && opt.Kind != "" && opt.Kind != logformat.KindSupersede {
		hints = append(hints, []byte(`"`+opt.Kind+`"`)) // the kind's value, however the line is spaced
	}
	if len(hints) > 0 {
		all := read
		read = func(line []byte) bool {
			if bytes.Contains(line, []byte(logformat.KindSupersede)) || before && bytes.Contains(line, []byte(opt.Before)) {
				return all(line)
			}
			for _, h := range hints {
				if !bytes.Contains(line, h) {
					return true
				}
			}
			return all(line)
		}
	}
	err := newestFirst(r, read)
	return out, invalid, err
}

// Kinds are the kinds of entry lucid writes, in the order commands list
// them.
var Kinds = []string{logformat.KindFact, logformat.KindDecision, logformat.KindDeadEnd, logformat.KindNote,
	logformat.KindPlan, logformat.KindSupersede, logformat.KindViolation, logformat.KindDream,
	logformat.KindMessage, logformat.KindHandoff, logformat.KindRelease}

// KnownKind reports whether k is a kind of entry lucid writes.
func KnownKind(k string) bool { return slices.Contains(Kinds, k) }
