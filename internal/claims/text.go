package claims

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// Describe says whose a claim is, for what, on which globs and since when,
// for people and models: `general-purpose·a2adb9 for "fix login" (src/**,
// claimed 4 min ago)`.
func (s *Set) Describe(c claimstore.Claim, labels *present.Labeler) string {
	if c.Lease {
		return fmt.Sprintf("%s (a lease on %s, taken by its write %s and held until its turn ends)", s.who(c, labels),
			escape.Line(strings.Join(c.Globs, ", ")), present.Ago(c.Created, s.now))
	}
	return fmt.Sprintf("%s for %s (%s, claimed %s)", s.who(c, labels), escape.Words(c.Task),
		escape.Line(strings.Join(c.Globs, ", ")), present.Ago(c.Created, s.now))
}

// who is a claim's owner, said as a teammate where it is one, and its
// machine when that is another: "teammate tester·a3f9c1",
// "lead·1bd236 on laptop (4f2a9c)".
func (s *Set) who(c claimstore.Claim, labels *present.Labeler) string {
	who := labels.Label(c.Owner)
	if _, mate := labels.Naming().Teammate(c.Owner); mate {
		who = "teammate " + who
	}
	if s.Foreign(c) {
		return who + " on " + escape.Line(remoteclaims.MachineLabel(c.Machine))
	}
	return who
}

// ConflictError refuses a claim that overlaps an active claim of another
// agent in the same work tree, or of another machine.
type ConflictError struct {
	Glob   string // the requested glob
	Theirs string // the other claim's glob it overlaps
	Path   string // the shortest path both can match
	Other  string // Describe of the other claim
	Owner  string // the other claim's owner
	// Foreign: the other claim is another machine's, whose owner reads
	// what is written here only after a merge.
	Foreign bool
}

func (e *ConflictError) Error() string {
	what := "wait until it is released, ask for it with `" + AskCommand(e.Owner, e.Theirs) + "`, or work on other files"
	switch {
	case e.Owner == agentstore.AgentHuman:
		what = "ask the person who claimed it, or work on other files"
	case e.Foreign:
		what = "wait until it expires, ask that agent (through the user), or work on other files"
	}
	return fmt.Sprintf("%s overlaps %s (both can match %s), claimed by %s: %s", escape.Line(e.Glob), escape.Line(e.Theirs), escape.Line(e.Path), e.Other, what)
}

// conflict is the ConflictError of a claim whose glob mine overlaps
// theirs, of c, both matching path; n names c's owner.
func (s *Set) conflict(mine, theirs, path string, c claimstore.Claim, n present.Naming) error {
	return &ConflictError{Glob: mine, Theirs: theirs, Path: path, Other: s.Describe(c, present.NewLabeler(s.repo, n)), Owner: c.Owner, Foreign: s.Foreign(c)}
}

// AskCommand is the command that asks owner for its claim on glob, ready
// to run: what a refused claim and a denied write tell the agent.
func AskCommand(owner, glob string) string {
	return fmt.Sprintf("lucid ask %s --for-claim %s \"why you need it\"", shellword.Quote(escape.Line(owner)), shellword.Quote(escape.Line(glob)))
}

// HandCommand is the command that hands the caller's claims on globs to
// the agent to, ready to run: what a request for a claim tells its owner.
func HandCommand(globs []string, to string) string {
	return escape.Line(shellword.Join(append(append([]string{"lucid", "release"}, globs...), "--to", to)))
}

// ClaimLine is one claim as `lucid claims` and the digest list it:
// `src/**, docs/*.md: general-purpose·a2adb9 for "fix login" (4 min ago)`,
// with the work tree named when it is not top, and the machine when it is
// another.
func (s *Set) ClaimLine(c claimstore.Claim, labels *present.Labeler, top string) string {
	what := "for " + escape.Words(c.Task)
	if c.Lease {
		what = "editing it (a lease, until its turn ends)"
	}
	line := fmt.Sprintf("%s: %s %s (%s)", escape.Line(strings.Join(c.Globs, ", ")), s.who(c, labels), what, present.Ago(c.Created, s.now))
	if !s.sameTree(c.Worktree, top) && !s.Foreign(c) {
		line += " in the work tree " + escape.Line(c.Worktree)
	}
	return line
}
