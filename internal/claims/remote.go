package claims

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/present"
)

// DefaultRemoteTTL is how long a claim shared through a remote holds there
// unless `lucid remote sync` renews it: other machines cannot see whether
// its owner is still at work, so it carries an absolute expiry.
const DefaultRemoteTTL = 2 * time.Hour

// A claim or a sync that lost the race for the remote (another machine
// pushed first) fetches and decides again, at most remoteAttempts times
// and for at most remoteRetryFor. Claims of one machine queue on its lock,
// so only machines race there, and each lost attempt is another machine's
// won one; but a machine with claims queued pushes one after another, and
// the machine that lost needs a fetch more per attempt than the winner's
// next claim, so it can lose to each of them in turn (16 queued claims
// beat one claim of another machine 9 times in a row in a test). The bound
// is therefore one of time, long enough for such a queue to drain.
const (
	remoteAttempts = 100
	remoteRetryFor = 30 * time.Second
)

// leaseBackoff is the pause before attempt n (from 2) after a lost race:
// random, so that two machines that collided do not collide again in step,
// and short (at most 64 ms), because the winner's next push is what it
// waits for.
func leaseBackoff(n int) time.Duration {
	return time.Duration(rand.Int64N(int64(time.Millisecond) << min(n, 6)))
}

// sharedClaimError explains a shared claim or sync that could not be made,
// with what to do: what names the operation ("nothing was claimed").
func sharedClaimError(remote, what string, err error) error {
	var re *remoteclaims.RemoteError
	var be *remoteclaims.BadRefError
	switch {
	case errors.As(err, &re):
		// A remote that answered and said no will say no again until its
		// owner changes it (a hook, a protected ref); one that did not
		// answer may answer later.
		next := "try again when it answers"
		if re.Refused {
			next = "ask the remote's owner to let " + remoteclaims.Ref + " be pushed"
		}
		if what == nothingClaimed {
			return fmt.Errorf("%s: %w; %s, or claim on this machine only with --local-only", what, re, next)
		}
		return fmt.Errorf("%s: %w; %s", what, re, next)
	case errors.As(err, &be):
		return fmt.Errorf("%s: %w", what, be)
	case errors.Is(err, remoteclaims.ErrLeaseLost):
		return fmt.Errorf("%s: the claims on the remote %s kept changing under every attempt for %s (other machines are claiming at the same time); try again",
			what, remote, remoteRetryFor)
	}
	return fmt.Errorf("%s: %w", what, err)
}

const nothingClaimed = "nothing was claimed"

// share publishes claim on the remote before Acquire keeps it: it fetches
// the remote's claims, refuses the claim when it overlaps a live claim of
// another machine, and pushes a new commit that holds the live claims,
// this machine's as its store has them (see reconcile), and claim; when
// another machine pushed first, it fetches and decides again. The caller
// holds the lock, so claims of this machine queue here rather than race on
// the remote. On success claim carries its machine and expiry.
func share(repo *gitstore.Repo, set *Set, claim *claimstore.Claim, req Request) error {
	me, err := remoteclaims.Machine(repo)
	if err != nil {
		return err
	}
	ttl := req.TTL
	if ttl <= 0 {
		ttl = DefaultRemoteTTL
	}
	claim.Machine, claim.Expires = me, req.Now.Add(ttl)
	labels := present.NewLabeler(repo, req.Naming)
	message := fmt.Sprintf("claim %s for %q\n\nby %s on %s", strings.Join(claim.Globs, ", "), claim.Task,
		labels.Label(claim.Owner), remoteclaims.MachineLabel(me))
	return pushLoop(req.Remote, func(moved bool) (bool, error) {
		base, err := remoteclaims.Fetch(repo, req.Remote, moved)
		if err != nil {
			return false, err
		}
		next, _ := reconcile(set, base.Claims, me, false, 0)
		for _, c := range next {
			if c.Machine == me {
				continue // decided against the store, in Acquire
			}
			if mine, theirs, path, ok := set.overlapping(claim.Globs, c.Globs); ok {
				return false, set.conflict(mine, theirs, path, c, req.Naming)
			}
		}
		_, err = remoteclaims.Push(repo, base, append(next, *claim), message, req.Now)
		return true, err
	}, nothingClaimed)
}

// pushLoop runs attempt until it does not lose the race for the remote,
// at most remoteAttempts times; moved tells attempt that the last one lost
// (the remote's ref moved). attempt reports whether it pushed, so that
// only the remote's errors get the advice of sharedClaimError.
func pushLoop(remote string, attempt func(moved bool) (bool, error), what string) error {
	deadline := time.Now().Add(remoteRetryFor)
	for n := 1; ; n++ {
		pushed, err := attempt(n > 1)
		if errors.Is(err, remoteclaims.ErrLeaseLost) && n < remoteAttempts && time.Now().Before(deadline) {
			time.Sleep(leaseBackoff(n + 1))
			continue
		}
		var ce *ConflictError
		if err == nil || errors.As(err, &ce) {
			return err
		}
		if !pushed && !isRemoteErr(err) {
			return err
		}
		return sharedClaimError(remote, what, err)
	}
}

func isRemoteErr(err error) bool {
	var re *remoteclaims.RemoteError
	var be *remoteclaims.BadRefError
	return errors.As(err, &re) || errors.As(err, &be)
}

// SyncResult says what Sync changed on the remote.
type SyncResult struct {
	Remote  string
	Commit  string // the remote's claims commit now, "" when it has none
	Others  int    // live claims of other machines on the remote
	Renewed int    // this machine's claims given a new expiry
	Shared  int    // this machine's claims shared again after they lapsed there
	Removed int    // this machine's claims removed: released here, or their owners gone
	// Lapsed are this machine's claims whose copy on the remote expired or
	// vanished, and that another machine's claim now overlaps: held here
	// still, but no longer shared.
	Lapsed []claimstore.Claim
	Pushed bool // whether the remote was updated
}

// SyncOptions says how far Sync goes.
type SyncOptions struct {
	Now time.Time
	// Renew gives this machine's live shared claims a new expiry, Now+TTL
	// (0: DefaultRemoteTTL), and shares again those that lapsed on the
	// remote while no other machine claimed their files. Without it, Sync
	// only removes the claims released here (what a release needs).
	Renew bool
	TTL   time.Duration
}

// SyncReleased takes a release to the remote, when one is set and shared
// says a released claim was shared through it. Its error says why the
// remote's copy stays, until it expires or the next sync.
func SyncReleased(repo *gitstore.Repo, shared bool) error {
	remote := remoteclaims.Remote(repo)
	if !shared || remote == "" {
		return nil
	}
	_, err := Sync(repo, remote, SyncOptions{Now: time.Now()})
	var re *remoteclaims.RemoteError
	if errors.As(err, &re) {
		// The remote's own words: the wrapping's advice is for a sync
		// that was asked for, and the caller says what a release left.
		return re
	}
	return err
}

// Sync brings the remote's copy of this machine's claims in line with its
// store, under the lock: claims released here (or whose owners stopped,
// which the hooks record without touching the network) are removed from
// the remote, a claim partly released keeps only its remaining globs, and
// with Renew the live ones get a new expiry. It pushes only when something
// changed, and refreshes the local copy of the remote's claims either way.
func Sync(repo *gitstore.Repo, remote string, opt SyncOptions) (SyncResult, error) {
	ttl := opt.TTL
	if ttl <= 0 {
		ttl = DefaultRemoteTTL
	}
	me, err := remoteclaims.Machine(repo)
	if err != nil {
		return SyncResult{}, err
	}
	lock, err := repo.Lock()
	if err != nil {
		return SyncResult{}, err
	}
	defer lock.Unlock()
	set, err := Load(repo, opt.Now)
	if err != nil {
		return SyncResult{}, err
	}
	var res SyncResult
	var next []claimstore.Claim
	err = pushLoop(remote, func(moved bool) (bool, error) {
		base, err := remoteclaims.Fetch(repo, remote, moved)
		if err != nil {
			return false, err
		}
		res = SyncResult{Remote: remote, Commit: base.Commit}
		var changed bool
		next, changed = reconcile(set, base.Claims, me, opt.Renew, ttl)
		for _, c := range next {
			if c.Machine != me {
				res.Others++
			}
		}
		res.Removed = countMine(base.Claims, me) - countMine(next, me)
		if opt.Renew {
			res.Renewed = countMine(next, me)
			next, res.Shared, res.Lapsed = shareLapsed(set, next, me, ttl)
			changed = changed || res.Renewed > 0 || res.Shared > 0
		}
		if !changed {
			return false, nil
		}
		pushed, err := remoteclaims.Push(repo, base, next, syncMessage(res, me), opt.Now)
		if err != nil {
			return true, err
		}
		res.Commit, res.Pushed = pushed.Commit, true
		return true, nil
	}, "the remote's claims were not synced")
	if err != nil || !res.Pushed {
		return res, err
	}
	// The store keeps each shared claim's expiry, for lucid claims and for
	// the next sync.
	expires := map[string]time.Time{}
	for _, c := range next {
		if c.Machine == me {
			expires[c.ID] = c.Expires
		}
	}
	changed := false
	for i, c := range set.Claims {
		if t, ok := expires[c.ID]; ok && !t.Equal(c.Expires) {
			set.Claims[i].Expires, changed = t, true
		}
	}
	if changed {
		return res, claimstore.Save(repo, set.Claims)
	}
	return res, nil
}

// reconcile is the claims to push, from the remote's: other machines'
// live claims as they are, and this machine's as its store has them: gone
// when released here or when their owner stopped, with the globs still
// held, and with a new expiry, now+ttl, when renew. Expired claims go. It
// reports whether this machine's claims changed.
func reconcile(set *Set, remote []claimstore.Claim, me string, renew bool, ttl time.Duration) ([]claimstore.Claim, bool) {
	local := map[string]claimstore.Claim{}
	for _, c := range set.Claims {
		if c.Machine == me && set.Active(c) {
			local[c.ID] = c
		}
	}
	var next []claimstore.Claim
	changed := false
	for _, c := range remote {
		if !set.now.Before(c.Expires) {
			continue
		}
		if c.Machine != me {
			next = append(next, c)
			continue
		}
		lc, ok := local[c.ID]
		if !ok {
			changed = true
			continue
		}
		if !slices.Equal(c.Globs, lc.Globs) {
			c.Globs, changed = lc.Globs, true
		}
		if renew {
			c.Expires = set.now.Add(ttl)
		}
		next = append(next, c)
	}
	return next, changed
}

// shareLapsed adds to next this machine's live shared claims that it
// lacks (their copy on the remote expired, or the ref was started over),
// unless another machine's claim in next overlaps them now.
func shareLapsed(set *Set, next []claimstore.Claim, me string, ttl time.Duration) ([]claimstore.Claim, int, []claimstore.Claim) {
	there := map[string]bool{}
	for _, c := range next {
		there[c.ID] = true
	}
	shared := 0
	var lapsed []claimstore.Claim
	others := len(next)
	for _, c := range set.Claims {
		if c.Machine != me || there[c.ID] || !set.Active(c) {
			continue
		}
		clash := false
		for _, o := range next[:others] {
			if _, _, _, ok := set.overlapping(c.Globs, o.Globs); ok && o.Machine != me {
				clash = true
				break
			}
		}
		if clash {
			lapsed = append(lapsed, c)
			continue
		}
		c.Expires = set.now.Add(ttl)
		next = append(next, c)
		shared++
	}
	return next, shared, lapsed
}

func countMine(claims []claimstore.Claim, me string) int {
	n := 0
	for _, c := range claims {
		if c.Machine == me {
			n++
		}
	}
	return n
}

func syncMessage(res SyncResult, me string) string {
	return fmt.Sprintf("sync %s\n\nrenewed %d, shared again %d, removed %d", remoteclaims.MachineLabel(me), res.Renewed, res.Shared, res.Removed)
}
