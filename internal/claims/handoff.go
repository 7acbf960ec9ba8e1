package claims

import (
	"fmt"
	"slices"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
)

// NotHeldError refuses a release or a hand-over of a glob its owner does
// not hold (or holds no more: its claim expired).
type NotHeldError struct{ Glob string }

func (e *NotHeldError) Error() string {
	return fmt.Sprintf("you hold no claim on %s: `lucid claims` lists the claims", escape.Line(e.Glob))
}

// Handoff passes from's claims on globs (cleaned as Acquire cleans them)
// to to, in one transaction under the lock, so that no other claim can
// come between: each claim of from's that holds some of the globs keeps
// the rest, and to gets a claim on those in the same work tree, for the
// same task, made now (its TTL counts from the hand-over). It returns the
// claims to got (without the globs it held already), and from's claims
// that gave them, as they were.
//
// Nothing is handed when one of the globs is not an active claim of
// from's, when one was shared through a remote (other machines hold their
// copy of it under from's claim id, and cannot all be told at once), or
// when to would then hold a glob that overlaps another agent's active
// claim in the same work tree, or another machine's: from's own that it
// keeps among them (src/** kept, src/a.go handed over). naming names the
// owner of a claim in the way.
func Handoff(repo *gitstore.Repo, from, to string, globs []string, now time.Time, naming present.Naming) (got, gave []claimstore.Claim, err error) {
	want, err := CleanGlobs(globs)
	if err != nil {
		return nil, nil, err
	}
	if len(want) == 0 {
		return nil, nil, fmt.Errorf("name the claims to hand over: lucid release GLOB... --to AGENT")
	}
	err = update(repo, func(stored []claimstore.Claim) ([]claimstore.Claim, bool, error) {
		copied, _, err := remoteclaims.LoadCopy(repo)
		if err != nil {
			return nil, false, err
		}
		set := NewSet(repo, now, stored, nil)
		for _, c := range copied {
			if set.Foreign(c) {
				set.Remote = append(set.Remote, c)
			}
		}
		var out []claimstore.Claim
		got, gave, out, err = set.handOver(from, to, want, now, naming)
		return out, err == nil, err
	})
	if err != nil {
		return nil, nil, err
	}
	return got, gave, nil
}

// handOver is Handoff's decision on the set: the claims to gets, and the
// store after.
func (s *Set) handOver(from, to string, want []string, now time.Time, naming present.Naming) (made, gave, out []claimstore.Claim, err error) {
	given := make([][]string, len(s.Claims))
	for _, g := range want {
		held := false
		for i, c := range s.Claims {
			// The glob as the claim spells it: where names fold, SRC/** hands
			// over a claim on src/**.
			at := slices.IndexFunc(c.Globs, func(x string) bool { return s.names.Same(x, g) })
			if c.Owner != from || at < 0 || !s.Active(c) {
				continue
			}
			if c.Machine != "" {
				return nil, nil, nil, fmt.Errorf("nothing was handed: your claim on %s is shared with other machines through the remote, and they cannot all see a hand-over at once: release it and let the other agent claim it", escape.Line(g))
			}
			given[i] = append(given[i], c.Globs[at])
			held = true
		}
		if !held {
			return nil, nil, nil, &NotHeldError{Glob: g}
		}
	}
	// to's own globs in each work tree are not claimed twice.
	own := map[string][]string{}
	for _, c := range s.Claims {
		if c.Owner == to && s.Active(c) {
			own[c.Worktree] = append(own[c.Worktree], c.Globs...)
		}
	}
	for i, c := range s.Claims {
		if len(given[i]) == 0 {
			out = append(out, c)
			continue
		}
		gave = append(gave, c)
		if kept := slices.DeleteFunc(slices.Clone(c.Globs), func(g string) bool { return slices.Contains(given[i], g) }); len(kept) > 0 {
			c.Globs = kept
			out = append(out, c)
		}
		globs := slices.DeleteFunc(given[i], func(g string) bool {
			return slices.ContainsFunc(own[c.Worktree], func(o string) bool { return s.names.Same(o, g) })
		})
		if len(globs) > 0 {
			made = append(made, claimstore.Claim{ID: logformat.NewID(now), Owner: to, Created: now, Worktree: c.Worktree, Task: c.Task, Globs: globs, Lease: c.Lease})
		}
	}
	expired := map[string]bool{}
	for _, n := range made {
		for _, c := range out {
			if c.Owner == to || !s.sameTree(c.Worktree, n.Worktree) {
				continue
			}
			mine, theirs, path, ok := s.overlapping(n.Globs, c.Globs)
			switch {
			case !ok:
			case !s.Active(c):
				expired[c.ID] = true
			case c.Owner == from:
				return nil, nil, nil, fmt.Errorf("nothing was handed: you would keep %s, which overlaps %s (both can match %s): hand both over, or release %s first",
					escape.Line(theirs), escape.Line(mine), escape.Line(path), escape.Line(theirs))
			default:
				return nil, nil, nil, s.handoffConflict(mine, theirs, path, c, naming)
			}
		}
		for _, c := range s.Remote {
			if mine, theirs, path, ok := s.overlapping(n.Globs, c.Globs); ok && s.Active(c) {
				return nil, nil, nil, s.handoffConflict(mine, theirs, path, c, naming)
			}
		}
	}
	out = slices.DeleteFunc(out, func(c claimstore.Claim) bool { return expired[c.ID] })
	return made, gave, append(out, made...), nil
}

// handoffConflict refuses a hand-over whose glob mine overlaps theirs, of
// another agent's claim c, both matching path.
func (s *Set) handoffConflict(mine, theirs, path string, c claimstore.Claim, naming present.Naming) error {
	return fmt.Errorf("nothing was handed: %s overlaps %s (both can match %s), claimed by %s",
		escape.Line(mine), escape.Line(theirs), escape.Line(path), s.Describe(c, present.NewLabeler(s.repo, naming)))
}

// Held is the claims of owner's, in this machine's store and in the copy
// of the other machines', whose globs include one of globs (all of its
// claims when globs is empty), active or not.
func (s *Set) Held(owner string, globs []string) (here, elsewhere []claimstore.Claim) {
	has := func(c claimstore.Claim) bool {
		return c.Owner == owner && (len(globs) == 0 || slices.ContainsFunc(c.Globs, func(g string) bool { return slices.Contains(globs, g) }))
	}
	for _, c := range s.Claims {
		if has(c) {
			here = append(here, c)
		}
	}
	for _, c := range s.Remote {
		if has(c) {
			elsewhere = append(elsewhere, c)
		}
	}
	return here, elsewhere
}
