package remoteclaims

import (
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
)

// State is the claims ref of a remote as this machine last saw it:
// the base of the next update.
type State struct {
	Remote string
	Commit string // the commit fetched, "" when the remote has no claims ref
	Claims []claimstore.Claim
}

// Fetch reads the remote's claims: git ls-remote for the
// commit its ref points to, git fetch into CopyRef only when that
// commit is not here already (after this machine's own push, or when
// nothing changed), then the commit's claims. With moved (a push just lost
// its lease, so the ref changed), it fetches straight away, which saves the
// ls-remote: a machine that lost a race comes back as fast as the one that
// won it. It refreshes the local copy (RemoteClaimsPath) with the claims.
// A remote that git cannot reach is a RemoteError, a ref that is not a
// claims commit a BadRefError; either leaves the local copy as it was. The
// caller holds the repository's lock.
func Fetch(r *gitstore.Repo, remote string, moved bool) (*State, error) {
	hashLen, err := hashLen(r)
	if err != nil {
		return nil, err
	}
	var o *objectReader
	defer func() {
		if o != nil {
			o.close()
		}
	}()
	commit := ""
	if !moved {
		if commit, err = lsRemoteClaims(r, remote); err != nil {
			return nil, err
		}
		if o, err = openObjects(r); err != nil {
			return nil, err
		}
		here, err := pointCopyRef(r, o, commit)
		if err != nil {
			return nil, err
		}
		moved = !here
	}
	if moved {
		// A running cat-file may not see what the fetch adds: ask a new one.
		if o != nil {
			o.close()
			o = nil
		}
		if err := fetchClaims(r, remote); err != nil {
			return nil, err
		}
		if o, err = openObjects(r); err != nil {
			return nil, err
		}
		objs, err := o.read(CopyRef)
		if err != nil {
			return nil, err
		}
		// What was fetched counts, even when the ref moved since ls-remote.
		commit = objs[0].oid
	}
	if commit == "" {
		return &State{Remote: remote}, SaveCopy(r, nil)
	}
	claims, err := readClaimsCommit(o, remote, commit, hashLen)
	if err != nil {
		return nil, err
	}
	if err := SaveCopy(r, claims); err != nil {
		return nil, err
	}
	return &State{Remote: remote, Commit: commit, Claims: claims}, nil
}

// pointCopyRef makes CopyRef point at commit (no ref for "") when
// the commit is here already, and reports whether it is: when it is not,
// it must be fetched.
func pointCopyRef(r *gitstore.Repo, o *objectReader, commit string) (bool, error) {
	names := []string{CopyRef}
	if commit != "" {
		names = append(names, commit)
	}
	objs, err := o.read(names...)
	if err != nil {
		return false, err
	}
	ref := objs[0]
	switch {
	case commit == "" && ref.kind == "":
	case commit == "":
		_, err = git(r, nil, "update-ref", "-d", CopyRef)
	case objs[1].kind == "":
		return false, nil
	case ref.oid != commit:
		err = updateCopyRef(r, commit)
	}
	return err == nil, err
}

// Push replaces the remote's claims with claims: a new commit
// whose parent is base's, pushed with a lease on base's commit. When
// another machine updated the remote since base was fetched, the remote
// refuses it and the error is ErrLeaseLost; fetch and decide again. On
// success the local copy holds claims. The caller holds the repository's
// lock.
func Push(r *gitstore.Repo, base *State, claims []claimstore.Claim, message string, now time.Time) (*State, error) {
	commit, err := writeClaimsCommit(r, claims, base.Commit, message, now)
	if err != nil {
		return nil, err
	}
	if err := pushClaims(r, base.Remote, base.Commit, commit); err != nil {
		return nil, err
	}
	if err := updateCopyRef(r, commit); err != nil {
		return nil, err
	}
	if err := SaveCopy(r, claims); err != nil {
		return nil, err
	}
	return &State{Remote: base.Remote, Commit: commit, Claims: claims}, nil
}

// hashLen is the length in bytes of the repository's object ids.
func hashLen(r *gitstore.Repo) (int, error) {
	f, err := objectFormat(r)
	if err != nil {
		return 0, err
	}
	if f == "sha256" {
		return 32, nil
	}
	return 20, nil
}
