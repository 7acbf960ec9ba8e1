package remoteclaims

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// DefaultTimeout bounds each git command that talks to a remote;
// LUCID_REMOTE_TIMEOUT (seconds) changes it. A claim holds the repository's
// lock while it talks to the remote, so a remote that never answers must
// not hold it for ever.
const DefaultTimeout = 30 * time.Second

func remoteTimeout() time.Duration {
	return gitstore.EnvSeconds("LUCID_REMOTE_TIMEOUT", DefaultTimeout)
}

// git runs a local git command (no network) in the work tree and returns its
// standard output.
func git(r *gitstore.Repo, stdin []byte, args ...string) ([]byte, error) {
	return gitstore.RunGit(context.Background(), r.Top, stdin, args...)
}

// gitRemote runs a git command that talks to a remote, within the remote
// timeout.
func gitRemote(r *gitstore.Repo, args ...string) ([]byte, error) {
	d := remoteTimeout()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	out, err := gitstore.RunGit(ctx, r.Top, nil, args...)
	if ctx.Err() != nil {
		return out, &gitstore.GitError{Args: args, Code: -1, Reason: fmt.Sprintf("no answer within %s (LUCID_REMOTE_TIMEOUT)", d)}
	}
	return out, err
}

// remoteFailure turns a failed network command into a RemoteError.
func remoteFailure(remote string, err error) error {
	var ge *gitstore.GitError
	if errors.As(err, &ge) {
		return &RemoteError{Remote: remote, Reason: ge.Reason}
	}
	return &RemoteError{Remote: remote, Reason: err.Error()}
}

// lsRemoteClaims returns the commit the remote's claims ref points to, ""
// when it has none.
func lsRemoteClaims(r *gitstore.Repo, remote string) (string, error) {
	out, err := gitRemote(r, "ls-remote", "--refs", remote, Ref)
	if err != nil {
		return "", remoteFailure(remote, err)
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		oid, name, ok := strings.Cut(line, "\t")
		if ok && name == Ref {
			return oid, nil
		}
	}
	return "", nil
}

// fetchClaims makes CopyRef what the remote's claims ref is: the
// commit it points to, or no ref when the remote has none. The refspec is a
// pattern, "refs/lucid/claims*", because a pattern that matches nothing is
// no error, and --prune then removes the local ref: an absent ref needs no
// reading of git's messages.
func fetchClaims(r *gitstore.Repo, remote string) error {
	_, err := gitRemote(r, "fetch", "--quiet", "--prune", "--no-tags", "--no-write-fetch-head", "--no-auto-maintenance",
		"--no-recurse-submodules", remote, "+"+Ref+"*:"+CopyRef+"*")
	if err != nil {
		return remoteFailure(remote, err)
	}
	return nil
}

// pushClaims pushes commit to the remote's claims ref, with a lease: the
// remote takes it only while its ref still points to base ("": while it has
// none). A refusal because the ref moved is ErrLeaseLost.
func pushClaims(r *gitstore.Repo, remote, base, commit string) error {
	out, err := gitRemote(r, "push", "--porcelain", "--no-verify", "--no-signed", "--no-force-if-includes",
		"--recurse-submodules=no", "--force-with-lease="+Ref+":"+base, remote, commit+":"+Ref)
	for line := range strings.SplitSeq(string(out), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) < 3 || !strings.HasSuffix(fields[1], ":"+Ref) {
			continue
		}
		switch {
		case fields[0] != "!":
			return nil
		case strings.Contains(fields[2], "stale info"):
			return ErrLeaseLost
		case strings.Contains(fields[2], "[remote rejected]") && refMoved(r, remote, base):
			// Two pushes met on the remote, and its own compare-and-swap
			// of the ref refused this one ("failed to update ref").
			return ErrLeaseLost
		default:
			return &RemoteError{Remote: remote, Reason: fields[2], Refused: true}
		}
	}
	if err != nil {
		return remoteFailure(remote, err)
	}
	return &RemoteError{Remote: remote, Reason: "git push said nothing of " + Ref}
}

// refMoved reports whether the remote's claims ref no longer points to
// base: whether a refusal was a lost race, or something that trying again
// would not cure (a hook that declines, a full disk).
func refMoved(r *gitstore.Repo, remote, base string) bool {
	now, err := lsRemoteClaims(r, remote)
	return err == nil && now != base
}

// updateCopyRef points CopyRef at commit.
func updateCopyRef(r *gitstore.Repo, commit string) error {
	_, err := git(r, nil, "update-ref", "-m", "lucid: the remote's claims", CopyRef, commit)
	return err
}
