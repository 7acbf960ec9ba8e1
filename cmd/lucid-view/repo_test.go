package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
)

// Outside a repository the error says what to do, and still is the
// NotRepoError it came from, for a caller that tells that case apart.
func TestNotRepoKeepsItsType(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("GIT_CEILING_DIRECTORIES", t.TempDir())
	_, err := findInitialised()
	var notRepo *gitstore.NotRepoError
	if !errors.As(err, &notRepo) {
		t.Fatalf("error %v (%T) is not a *gitstore.NotRepoError", err, err)
	}
	if !strings.Contains(err.Error(), "lucid init") {
		t.Fatalf("error %q does not say to run lucid init", err)
	}
}
