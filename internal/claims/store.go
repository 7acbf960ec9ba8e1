package claims

import (
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
)

// Store is the claims as the hooks read and end them. Disk is the
// repository's own; a test hands the hooks another, to try their
// decisions on claims no file holds. Each method is the package's
// function of the same name.
type Store interface {
	Load(repo *gitstore.Repo, now time.Time) (*Set, error)
	LoadFor(repo *gitstore.Repo, now time.Time, paths []string, trees []bool) (*Set, error)
	LoadIn(repo *gitstore.Repo, now time.Time, top string) (*Set, error)
	ReleaseWhere(repo *gitstore.Repo, which func(claimstore.Claim) bool, wait time.Duration) (int, error)
}

// Disk is the Store of the repository's claims files.
type Disk struct{}

func (Disk) Load(repo *gitstore.Repo, now time.Time) (*Set, error) {
	return Load(repo, now)
}

func (Disk) LoadFor(repo *gitstore.Repo, now time.Time, paths []string, trees []bool) (*Set, error) {
	return LoadFor(repo, now, paths, trees)
}

func (Disk) LoadIn(repo *gitstore.Repo, now time.Time, top string) (*Set, error) {
	return LoadIn(repo, now, top)
}

func (Disk) ReleaseWhere(repo *gitstore.Repo, which func(claimstore.Claim) bool, wait time.Duration) (int, error) {
	return ReleaseWhere(repo, which, wait)
}

// NewSet is the Set of local (this machine's claims) and remote
// (other machines'), as seen at now in repo, whose agents' records and
// machine identity say which claims are active and foreign.
func NewSet(repo *gitstore.Repo, now time.Time, local, remote []claimstore.Claim) *Set {
	var names gitstore.Names
	if repo != nil {
		names = repo.Names()
	}
	return newSet(repo, now, local, remote, names)
}
