package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/log/logquery"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/log/search"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	register(&command{name: "search", summary: "find the entries of the log about some words", run: runSearch})
}

// searchText is how long the text of a hit may be on its line.
const searchText = 160

// foundEntry is a hit as `lucid search --json` prints it.
type foundEntry struct {
	logstore.Found
	Stale []logstore.Stale `json:"stale,omitempty"`
}

func runSearch(c *cli, args []string) error {
	f := newFlags("search", `lucid search WORDS... [--kind K]... [--agent A] [--path PATH|GLOB] [--since WHEN] [-n N] [--all] [--json]

Lists the live entries of the log most relevant to the words, best first:
a word matches the words of an entry's text, diff and evidence that begin
with it ("cache" finds "cached"), and rare words weigh more than common
ones (BM25). Equals, and every match when no words are given, come newest
first. Each hit shows its kind, text, writer, age and id, and its evidence
with ⚠stale where a cited file changed. Superseded and retired entries are
left out unless --all. Give words, a filter, or both.`)
	kinds := f.StringSlice("kind", nil, "only entries of kind `K` (repeat or list with commas: "+strings.Join(kindNames(), ", ")+")")
	agentFilter := f.String("agent", "", "only entries written by agent `A`: its id (a session id also selects its subagents) or its label, as lucid prints it")
	pathFilter := f.String("path", "", "only entries citing `PATH`, a file or a glob relative to the work tree's top (src/auth/**)")
	sinceFlag := f.String("since", "", "only entries written since `WHEN`: a duration back from now (30m, 2h, 3d) or a date (2026-12-01)")
	n := f.IntP("n", "n", 20, "show at most `N` entries")
	all := f.Bool("all", false, "include superseded and retired entries")
	asJSON := f.Bool("json", false, "print a JSON array")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if *n < 1 {
		return usageErr("-n takes a number of entries, 1 or more")
	}
	for _, k := range *kinds {
		if !slices.Contains(kindNames(), k) {
			return usageErr("unknown kind %q: use one of %s", k, strings.Join(kindNames(), ", "))
		}
	}
	now := time.Now()
	var since time.Time
	if *sinceFlag != "" {
		var ok bool
		if since, ok = parseSince(*sinceFlag, now); !ok {
			return usageErr("--since takes a duration back from now (30m, 2h, 3d) or a date (2026-12-01), not %q", *sinceFlag)
		}
	}
	words := f.Args()
	if err := search.CheckWords(words); err != nil {
		return usageErr("%s", err)
	}
	if search.NewQuery(words).Empty() && len(*kinds) == 0 && *agentFilter == "" && *pathFilter == "" && since.IsZero() {
		return usageErr("say what to look for: lucid search WORDS..., or a filter (--kind, --agent, --path, --since)")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	labels := present.NewLabeler(repo, identity.Naming())
	opt := logstore.SearchOptions{Words: words, N: *n, All: *all, Kinds: *kinds, Since: since}
	if *agentFilter != "" {
		opt.Agent, opt.AgentHint = logquery.Agent(labels, *agentFilter)
	}
	if *pathFilter != "" {
		if opt.Cites, opt.CitesHint, err = citesMatcher(repo, *pathFilter); err != nil {
			return err
		}
	}
	found, err := logstore.Search(context.Background(), repo, opt)
	if err != nil {
		return err
	}
	checker := logstore.NewChecker(repo)
	out := make([]foundEntry, len(found))
	for i, e := range found {
		out[i] = foundEntry{Found: e, Stale: checker.Check(e.Evidence)}
	}
	if *asJSON {
		return c.printJSON(out)
	}
	for _, e := range out {
		shown := e.Entry
		shown.Text = oneLine(shown.Text, searchText)
		fmt.Fprint(c.stdout, withSupersededBy(hooks.FormatEntry(shown, e.Stale, labels, now), e.SupersededBy))
	}
	if len(out) == 0 {
		fmt.Fprintln(c.stderr, "lucid: no entries match")
	}
	return nil
}

// withSupersededBy adds to an entry as FormatEntry prints it what replaced
// or retired it, when something did.
func withSupersededBy(s, by string) string {
	if by == "" {
		return s
	}
	return strings.Replace(s, "\n", fmt.Sprintf(" (superseded by %s)\n", by), 1)
}

// oneLine is text on one line, at most max bytes of it.
func oneLine(text string, max int) string {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "…"
}

// citesMatcher is logquery.Path, a bad path a usage error.
func citesMatcher(repo *gitstore.Repo, spec string) (match func(string) bool, hint string, err error) {
	match, hint, err = logquery.Path(repo.Top, spec, repo.Names())
	if err != nil {
		return nil, "", usageErr("--path takes a file or a glob relative to the work tree's top, like src/auth/** (not %q)", spec)
	}
	return match, hint, nil
}

// parseSince reads --since: a duration back from now (Go's, or a number
// of days: 3d) or a date (2026-12-01, or a time in RFC 3339).
func parseSince(s string, now time.Time) (time.Time, bool) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(days); err == nil && d >= 0 {
			return now.AddDate(0, 0, -d), true
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), true
	}
	for _, layout := range []string{"2006-01-02", time.RFC3339} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
