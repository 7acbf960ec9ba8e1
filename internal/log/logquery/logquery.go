// Package logquery holds the filters by which a person selects entries of
// the log (lucid log, lucid search, lucid web): by the agent that wrote
// them, named by id or by label, and by the paths they cite, named as
// lucid claim names them. Each filter comes with a hint, a string that
// every line it accepts holds, so that a reader of a large log decodes
// only the lines that may match. Every filter is safe for concurrent use:
// logstore.Search calls it from the readers of each part of the log at once.
package logquery

import (
	"errors"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/present"
)

// Agent accepts the writers that a names: an agent's id (a session id
// also its subagents, as lucid log has it) or its label. hint is ""
// for a label.
//
// Like every filter here, match is safe for concurrent use: logstore.Search
// calls it from the readers of each part of the log at once. A label's
// answer for each writer is kept, shared by those readers (a writer's
// label costs a read of its record, once).
func Agent(labels *present.Labeler, a string) (match func(string) bool, hint string) {
	if !strings.Contains(a, "·") {
		return func(agent string) bool { return agent == a || strings.HasPrefix(agent, a+"/") }, InLine(a)
	}
	var seen sync.Map // writer -> bool
	return func(agent string) bool {
		if ok, known := seen.Load(agent); known {
			return ok.(bool)
		}
		ok := labels.Label(agent) == a
		seen.Store(agent, ok)
		return ok
	}, ""
}

// ErrPath is Path's error: what it takes.
var ErrPath = errors.New("a path is a file, a folder or a glob relative to the work tree's top, like src/auth/**")

// Path accepts the cited paths that spec names: a file, a folder
// (everything in it) or a glob, relative to the work tree top, as lucid
// claim reads them, and as names compares them (where the file system
// folds case, --path src/Match.go finds the entries citing src/match.go).
// hint is the glob's literal start, which every path it matches holds as
// it is written; "" where names fold, since a line may spell it otherwise.
func Path(top, spec string, names gitstore.Names) (match func(string) bool, hint string, err error) {
	glob, err := overlap.Clean(claims.FolderGlob(top, spec))
	if err != nil {
		return nil, "", ErrPath
	}
	if names != 0 {
		key := names.Key(glob)
		return func(path string) bool { return overlap.Match(key, names.Key(path)) }, "", nil
	}
	return func(path string) bool { return overlap.Match(glob, path) }, InLine(glob[:literalLen(glob)]), nil
}

// InLine is s when a line of the log holds it as it is, inside a JSON
// string; "" when it holds characters that JSON escapes (or bytes that
// are not UTF-8, which it replaces).
func InLine(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x20 || r == '"' || r == '\\' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError
	}) {
		return ""
	}
	return s
}

// literalLen is the length of glob's start that has no special character.
func literalLen(glob string) int {
	if i := strings.IndexAny(glob, `*?[{\`); i >= 0 {
		return i
	}
	return len(glob)
}
