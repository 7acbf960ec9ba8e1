package remoteclaims

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
)

// Claims shared across machines live on a git remote, as one ref:
// Ref points to a commit whose tree holds one JSON file per
// claim, "<claim id>.json" (see remote_json.go). Each update is a new commit
// whose parent is the commit it replaced, pushed with a lease on that
// commit, so the remote itself decides which of two machines that updated
// the same commit wins.
//
// This machine keeps two things of the remote's claims:
//   - CopyRef, the last fetched commit (what fetch stores), which keeps
//     its objects from git's garbage collection;
//   - RemoteClaimsPath, the claims of the last fetched commit that decoded,
//     in the local store's format, written by every fetch and push. The hooks
//     read only this file: they never touch the network, and decoding a
//     commit would take git processes.
//
// Everything here that talks to the remote runs the system git (ls-remote,
// fetch, push), so the user's own authentication, SSH set-up and proxies
// apply; refs are updated with git update-ref, which keeps git's lock
// protocol; objects are written here, as loose objects (remote_objects.go).
const (
	Ref     = "refs/lucid/claims"
	CopyRef = "refs/lucid/remote/claims"
)

// LoadCopy reads the local copy of the remote's claims (every
// machine's, this one's too, expired or not) and when it was fetched. No
// copy: no claims and a zero time.
func LoadCopy(r *gitstore.Repo) ([]claimstore.Claim, time.Time, error) {
	path := r.RemoteClaimsPath()
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	claims, _, err := claimstore.Read(path)
	return claims, fi.ModTime(), err
}

// SaveCopy replaces the local copy whole; every fetch and push
// does. Unlike the store, a copy of no claims is a file too: its time says
// when the remote was last seen. The caller holds the lock.
func SaveCopy(r *gitstore.Repo, claims []claimstore.Claim) error {
	path := r.RemoteClaimsPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(path, claimstore.Encode(claims), 0o644)
}

// forgetRemoteClaims removes the local copy and the ref of the last fetched
// commit, when claims stop being shared or the remote changes.
func forgetRemoteClaims(r *gitstore.Repo) error {
	if err := os.Remove(r.RemoteClaimsPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if _, err := git(r, nil, "update-ref", "-d", CopyRef); err != nil {
		return fmt.Errorf("removing %s: %w", CopyRef, err)
	}
	return nil
}

// RemoteError says that git could not talk to the remote, or that the
// remote answered and refused the push (Refused): Reason is git's own first
// line of explanation.
type RemoteError struct {
	Remote  string
	Reason  string
	Refused bool
}

func (e *RemoteError) Error() string {
	if e.Refused {
		return fmt.Sprintf("the remote %s refused the push (git: %s)", e.Remote, e.Reason)
	}
	return fmt.Sprintf("cannot reach the remote %s (git: %s)", e.Remote, e.Reason)
}

// BadRefError says that the remote's Ref is not a claims commit
// (someone rewrote it by hand, or another tool uses the name).
type BadRefError struct {
	Remote string
	Commit string // the object the ref points to
	Why    string
}

func (e *BadRefError) Error() string {
	return fmt.Sprintf("%s on the remote %s (%.12s) is not a lucid claims commit: %s; "+
		"to start the shared claims over, delete it with `git push %s :%s` (each machine shares its claims again with `lucid remote sync`)",
		Ref, e.Remote, e.Commit, e.Why, e.Remote, Ref)
}

// ErrLeaseLost says that a push was refused because the remote's claims
// changed since they were fetched: another machine got there first.
var ErrLeaseLost = errors.New("the remote's claims changed since they were fetched")
