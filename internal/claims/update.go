package claims

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
)

// AddLeases records leases, made by the hooks as an agent writes. The
// caller holds the repository's lock, and has checked that no other
// agent's claim forbids the write.
func AddLeases(repo *gitstore.Repo, leases []claimstore.Claim) error {
	if len(leases) == 0 {
		return nil
	}
	return claimstore.Edit(repo, nil, leases)
}

// Request is a claim to make.
type Request struct {
	Owner    string
	Worktree string // the top of the work tree the globs are relative to
	Task     string
	Globs    []string // as the user typed them; Acquire cleans them
	Now      time.Time
	// Remote, when not "", is the git remote the claim is shared through
	// (see Acquire); TTL is how long it holds there unless renewed (0:
	// DefaultRemoteTTL).
	Remote string
	TTL    time.Duration
	// Naming is how a refusal names the owner of the claim in the way.
	Naming present.Naming
}

// Acquire records a claim, under the repository's lock: it is refused when
// one of its globs can match a path that an active claim of another agent
// in the same work tree can match (decided on the patterns, whether or not
// such a file exists), or that an active claim of another machine can
// match. An agent's claims never conflict with its own; globs it holds
// already are not claimed twice. It returns the claim made (with no globs
// when all were held already) and the overlapping claims of other work
// trees, which do not refuse it but deserve a warning.
//
// Without req.Remote, the other machines' claims are those of the last
// fetched copy, and nothing touches the network (acquireLocal). With it,
// the claim is decided against the remote's claims as fetched now and
// pushed there first (acquireShared).
func Acquire(repo *gitstore.Repo, req Request) (claimstore.Claim, []claimstore.Claim, error) {
	if strings.TrimSpace(req.Task) == "" {
		return claimstore.Claim{}, nil, fmt.Errorf("say what the claim is for: --for \"TASK\"")
	}
	if len(req.Globs) == 0 {
		return claimstore.Claim{}, nil, fmt.Errorf("name what to claim: lucid claim GLOB... --for \"TASK\"")
	}
	globs, err := CleanGlobs(req.Globs)
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	lock, err := repo.Lock()
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	defer lock.Unlock()
	if req.Remote == "" {
		return acquireLocal(repo, req, globs)
	}
	return acquireShared(repo, req, globs)
}

// CleanGlobs is globs as the store holds them (overlap.Clean), each once.
func CleanGlobs(globs []string) ([]string, error) {
	var out []string
	for _, g := range globs {
		clean, err := overlap.Clean(g)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, clean) {
			out = append(out, clean)
		}
	}
	return out, nil
}

// acquireLocal decides a claim on this machine's store and the last
// fetched copy of the remote's, without the network. It needs only the
// claims whose globs could overlap its own (see loadClaimsNear), and
// leaves the rest of the store unread.
func acquireLocal(repo *gitstore.Repo, req Request, globs []string) (claimstore.Claim, []claimstore.Claim, error) {
	set, err := loadClaimsNear(repo, req.Now, globs)
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	d, err := set.decide(req, globs)
	if err != nil || len(d.claim.Globs) == 0 {
		return d.claim, d.elsewhere, err
	}
	for _, c := range set.Remote {
		if mine, theirs, path, ok := set.overlapping(d.claim.Globs, c.Globs); ok && set.Active(c) {
			return claimstore.Claim{}, nil, set.conflict(mine, theirs, path, c, req.Naming)
		}
	}
	if err := claimstore.Edit(repo, d.expired, []claimstore.Claim{d.claim}); err != nil {
		return claimstore.Claim{}, nil, err
	}
	return d.claim, d.elsewhere, nil
}

// acquireShared decides a claim against the remote's claims as fetched
// now and pushes it there (see share) before the store holds it, so that
// a claim the remote did not take is not held here either. Sharing
// rewrites this machine's part of the remote's claims, which needs every
// claim of the store.
func acquireShared(repo *gitstore.Repo, req Request, globs []string) (claimstore.Claim, []claimstore.Claim, error) {
	set, err := Load(repo, req.Now)
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	d, err := set.decide(req, globs)
	if err != nil || len(d.claim.Globs) == 0 {
		return d.claim, d.elsewhere, err
	}
	if err := share(repo, set, &d.claim, req); err != nil {
		return claimstore.Claim{}, nil, err
	}
	if err := claimstore.Save(repo, append(d.keep, d.claim)); err != nil {
		return claimstore.Claim{}, nil, err
	}
	return d.claim, d.elsewhere, nil
}

// decision is what this machine's claims say about a request.
type decision struct {
	claim     claimstore.Claim   // the claim to make, on the globs its owner does not hold yet
	keep      []claimstore.Claim // the claims read, without the expired ones met
	expired   map[string]bool    // ids of expired claims that overlapped it: they go now
	elsewhere []claimstore.Claim // overlapping claims of other work trees, a warning
}

// decide checks globs against the set's own claims (not the other
// machines'): an active claim of another agent in the same work tree that
// overlaps refuses the request; the owner's own globs are not claimed twice.
func (s *Set) decide(req Request, globs []string) (decision, error) {
	d := decision{keep: make([]claimstore.Claim, 0, len(s.Claims)+1), expired: map[string]bool{}}
	for _, c := range s.Claims {
		if c.Owner == req.Owner {
			if s.sameTree(c.Worktree, req.Worktree) {
				globs = slices.DeleteFunc(globs, func(g string) bool { return slices.Contains(c.Globs, g) })
			}
			d.keep = append(d.keep, c)
			continue
		}
		mine, theirs, path, ok := s.overlapping(globs, c.Globs)
		switch {
		case !ok || SessionLease(c, req.Owner):
		case !s.Active(c):
			d.expired[c.ID] = true
			continue
		case !s.sameTree(c.Worktree, req.Worktree):
			d.elsewhere = append(d.elsewhere, c)
		default:
			return decision{}, s.conflict(mine, theirs, path, c, req.Naming)
		}
		d.keep = append(d.keep, c)
	}
	d.claim = claimstore.Claim{ID: logformat.NewID(req.Now), Owner: req.Owner, Created: req.Now,
		Worktree: req.Worktree, Task: strings.TrimSpace(req.Task), Globs: globs}
	return d, nil
}

// loadClaimsNear reads the claims that could overlap globs: those with a
// glob whose literal prefix and one of globs' are prefixes of one another
// (the same test overlapping makes first), and the other machines' alike.
func loadClaimsNear(repo *gitstore.Repo, now time.Time, globs []string) (*Set, error) {
	names := repo.Names()
	prefixes := make([][]byte, len(globs))
	for i, g := range globs {
		prefixes[i] = []byte(names.Key(literalPrefix(g)))
	}
	want := func(glob []byte) bool {
		p := []byte(names.Key(string(literalPrefixBytes(glob))))
		for _, q := range prefixes {
			if bytes.HasPrefix(p, q) || bytes.HasPrefix(q, p) {
				return true
			}
		}
		return false
	}
	return findSet(repo, now, want, names)
}

// overlapping returns the first pair of globs, one of each list, that can
// match a common path, and the shortest such path. Every path a glob matches starts with the glob's
// literal prefix, so two globs whose prefixes differ before either ends
// cannot overlap: that cheap test spares most pairs the exact one.
func (s *Set) overlapping(mine, theirs []string) (string, string, string, bool) {
	for _, m := range mine {
		pm := literalPrefix(s.name(m))
		for _, t := range theirs {
			pt := literalPrefix(s.name(t))
			if !strings.HasPrefix(pm, pt) && !strings.HasPrefix(pt, pm) {
				continue
			}
			// The path shown is one the globs match as written, where
			// there is one.
			path, ok := overlap.Witness(m, t)
			if !ok && s.names != 0 {
				path, ok = overlap.Witness(s.name(m), s.name(t))
			}
			if ok {
				return m, t, path, true
			}
		}
	}
	return "", "", "", false
}

// Release removes the owner's claims on globs (cleaned as Acquire cleans
// them), or all the owner's claims when globs is empty, and returns the
// globs released, and whether one of the claims it changed was shared
// through a remote (then Sync takes the change there). A glob the owner
// does not hold is an error, and then nothing is released.
func Release(repo *gitstore.Repo, owner string, globs []string) ([]string, bool, error) {
	// Globs compare as the file system compares names: where it folds
	// case, SRC/** releases a claim on src/**.
	names := repo.Names()
	want := map[string]bool{}
	for _, g := range globs {
		clean, err := overlap.Clean(g)
		if err != nil {
			return nil, false, err
		}
		want[names.Key(clean)] = true
	}
	var released []string
	shared := false
	err := update(repo, func(claims []claimstore.Claim) ([]claimstore.Claim, bool, error) {
		held := map[string]bool{}
		var out []claimstore.Claim
		for _, c := range claims {
			if c.Owner != owner {
				out = append(out, c)
				continue
			}
			var kept []string
			for _, g := range c.Globs {
				held[names.Key(g)] = true
				if len(want) == 0 || want[names.Key(g)] {
					released = append(released, g)
					shared = shared || c.Machine != ""
				} else {
					kept = append(kept, g)
				}
			}
			if len(kept) > 0 {
				c.Globs = kept
				out = append(out, c)
			}
		}
		for _, g := range globs {
			if g, _ := overlap.Clean(g); !held[names.Key(g)] {
				return nil, false, &NotHeldError{Glob: g}
			}
		}
		return out, len(released) > 0, nil
	})
	if err != nil {
		return nil, false, err
	}
	return released, shared, nil
}

// ReleaseWhere removes every claim that which takes (by its owner, or its
// kind: the leases of a teammate whose task is done), and returns how
// many it removed. The hooks use it when agents stop and sessions end,
// within a time they must keep: when the lock does not come free within
// wait (a claim through a slow remote holds it), the claims are left to
// expire with their owners, and the error says so.
func ReleaseWhere(repo *gitstore.Repo, which func(claimstore.Claim) bool, wait time.Duration) (int, error) {
	// Most stops own no claim: a look without the lock (the store is
	// replaced whole, so a read is never torn) spares them the lock.
	if claims, _, err := claimstore.Load(repo); err == nil && !slices.ContainsFunc(claims, which) {
		return 0, nil
	}
	n := 0
	err := updateWithin(repo, wait, func(claims []claimstore.Claim) ([]claimstore.Claim, bool, error) {
		out := slices.DeleteFunc(slices.Clone(claims), which)
		n = len(claims) - len(out)
		return out, n > 0, nil
	})
	return n, err
}

// Prune removes the expired claims, and lines of the store that cannot be
// read, and returns how many claims it removed (lucid gc).
func Prune(repo *gitstore.Repo, now time.Time) (int, error) {
	_, bad, err := claimstore.Load(repo)
	if err != nil {
		return 0, err
	}
	n := 0
	err = update(repo, func(claims []claimstore.Claim) ([]claimstore.Claim, bool, error) {
		set := newSet(repo, now, claims, nil, 0) // only whether each is active
		out := slices.DeleteFunc(slices.Clone(claims), func(c claimstore.Claim) bool { return !set.Active(c) })
		n = len(claims) - len(out)
		return out, n > 0 || bad > 0, nil
	})
	return n, err
}

// ErrStillLocked says that a release waited for the lock as long as it
// might, and gave up: the claims stay, and expire with their owners.
var ErrStillLocked = errors.New("the claims stayed locked")

// update changes the claims under the lock; change reports whether it
// changed anything, and only then is the file written. Without a claims
// file it runs change on no claims without taking the lock, so that the
// hooks that release claims at every stop cost nothing where none exist.
func update(repo *gitstore.Repo, change func([]claimstore.Claim) ([]claimstore.Claim, bool, error)) error {
	return updateWithin(repo, 0, change)
}

// updateWithin is update that waits at most wait for the lock (0: as
// long as it takes).
func updateWithin(repo *gitstore.Repo, wait time.Duration, change func([]claimstore.Claim) ([]claimstore.Claim, bool, error)) error {
	if _, err := os.Stat(repo.ClaimsPath()); os.IsNotExist(err) {
		_, _, err := change(nil)
		return err
	}
	var lock *gitstore.Lock
	var err error
	if wait > 0 {
		var ok bool
		lock, ok, err = repo.TryLock(wait)
		if err == nil && !ok {
			err = fmt.Errorf("%w for %v by another lucid: these claims end when their owners' silence reaches LUCID_CLAIM_TTL", ErrStillLocked, wait.Round(10*time.Millisecond))
		}
	} else {
		lock, err = repo.Lock()
	}
	if err != nil {
		return err
	}
	defer lock.Unlock()
	claims, _, err := claimstore.Load(repo)
	if err != nil {
		return err
	}
	out, changed, err := change(claims)
	if err != nil || !changed {
		return err
	}
	return claimstore.Save(repo, out)
}
