// Package repotest makes the repository the stores' tests work in: git's,
// with one commit, found as lucid finds it and set up as `lucid init` sets
// it up. It stands apart from gittest because gitstore's own tests use
// gittest, and this package uses gitstore.
package repotest

import (
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// Lucid returns a repository with one commit in a temporary folder, with
// lucid's .lucid folder, plan and empty log.
func Lucid(t testing.TB) *gitstore.Repo {
	t.Helper()
	r, err := gitstore.Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	return r
}
