package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/setup"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

const other = "0b218250-bcad-4f28-bb25-013e7e946655"

// newRepo is a repository set up by lucid init, with no claim TTL of the
// environment's.
func newRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	gittest.Setenv(t)
	t.Setenv("LUCID_CLAIM_TTL", "")
	return repotest.Lucid(t)
}

// record appends an entry of agent to the log, as `lucid fact` does.
func record(t *testing.T, repo *gitstore.Repo, agent, kind, text string) {
	t.Helper()
	if err := logstore.Append(repo.LogPath(), logformat.NewEntry(time.Now(), agent, kind, text)); err != nil {
		t.Fatal(err)
	}
}

// claim takes a claim of owner's, as `lucid claim` does.
func claim(t *testing.T, repo *gitstore.Repo, owner, top, task string, globs ...string) {
	t.Helper()
	if _, _, err := claims.Acquire(repo, claims.Request{Owner: owner, Worktree: top, Task: task, Globs: globs, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// lucid doctor's checks of the repository: each finding says what is
// wrong and what to do.
func TestDoctor(t *testing.T) {
	repo := newRepo(t)
	bin := t.TempDir()
	gittest.WriteFile(t, bin, "lucid", "#!/bin/sh\necho 'lucid 1.2.3'\n")
	if err := os.Chmod(filepath.Join(bin, "lucid"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	findings := func(version string) map[string]setup.Finding {
		out := map[string]setup.Finding{}
		for _, f := range Check(repo, version, nil, nil) {
			out[f.Check] = f
		}
		return out
	}
	fs := findings("lucid 1.2.3")
	for check, detail := range map[string]string{
		"lucid on PATH": filepath.Join(bin, "lucid") + ", the same version as this one (lucid 1.2.3)",
		"set up":        ".lucid/ at " + repo.Top,
		"log":           "0 entries, all valid",
		"claims":        "0 active, 0 expired (lucid gc removes those)",
		"lock":          "free",
	} {
		if f := fs[check]; !f.OK || f.Detail != detail {
			t.Errorf("%s: %+v, want OK with %q", check, f, detail)
		}
	}
	if f := fs["files"]; !f.OK {
		t.Errorf("files: %+v", f)
	}

	// Another version on PATH, a torn log line, a claims line that cannot
	// be read, a plan that is a folder.
	record(t, repo, other, logformat.KindFact, "one")
	f, _ := os.OpenFile(repo.LogPath(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("<<<<<<< HEAD\n")
	f.Close()
	claim(t, repo, other, repo.Top, "x", "x/**")
	f, _ = os.OpenFile(repo.ClaimsPath(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not a claim\n")
	f.Close()
	os.Remove(repo.PlanPath())
	os.Mkdir(repo.PlanPath(), 0o755)
	fs = findings("lucid 9.9.9")
	for check, want := range map[string]string{
		"lucid on PATH": "the hooks run " + filepath.Join(bin, "lucid") + " (lucid 1.2.3), not this binary (lucid 9.9.9)",
		"log":           "1 entry, and 1 line that are not valid entries (every reader skips them)",
		"claims":        "1 line of " + repo.ClaimsPath() + " cannot be read",
		"files":         repo.PlanPath() + " ",
	} {
		if f := fs[check]; f.OK || !strings.HasPrefix(f.Detail, want) || f.Fix == "" {
			t.Errorf("%s: %+v, want a failure starting %q, with a fix", check, f, want)
		}
	}

	os.RemoveAll(repo.Abs(".lucid"))
	if f := findings("lucid 1.2.3")["set up"]; f.OK || f.Fix != "run `lucid init`" {
		t.Errorf("set up without .lucid/: %+v", f)
	}
}
