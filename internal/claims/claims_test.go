package claims

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/client/identity"
)

// TestLoadForAgrees checks the write guard's read against the full
// one: for any paths and globs, the claims LoadFor leaves out are
// claims that Check and CheckTree would not have hit.
// naming names the agents as lucid does.
var naming = identity.Naming()

func TestLoadForAgrees(t *testing.T) {
	repo := &gitstore.Repo{Top: t.TempDir(), GitDir: t.TempDir()}
	repo.CommonDir = repo.GitDir
	now := time.Now()
	r := rand.New(rand.NewPCG(1, 2))
	parts := []string{"src", "docs", "a.go", "b.md", "*", "**", "*.go", "s?c", "{src,docs}", "[a-c].go", "web"}
	glob := func() string {
		n := 1 + r.IntN(3)
		g := ""
		for i := range n {
			if i > 0 {
				g += "/"
			}
			g += parts[r.IntN(len(parts))]
		}
		return g
	}
	var claims []claimstore.Claim
	for i := range 200 {
		claims = append(claims, claimstore.Claim{ID: fmt.Sprint(i), Owner: agentstore.AgentHuman, Created: now,
			Worktree: repo.Top, Task: "t", Globs: []string{glob(), glob()}})
	}
	if err := claimstore.Save(repo, claims); err != nil {
		t.Fatal(err)
	}
	full, err := Load(repo, now)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"src/a.go", "src", "docs/b.md", "web/x/y.go", "a.go", "sxc/b.md", "docs", "other/a.go"}
	for _, p := range paths {
		for _, tree := range []bool{false, true} {
			some, err := LoadFor(repo, now, []string{p}, []bool{tree})
			if err != nil {
				t.Fatal(err)
			}
			check, checkSome := full.Check, some.Check
			if tree {
				check, checkSome = full.CheckTree, some.CheckTree
			}
			want, got := check("me", repo.Top, p), checkSome("me", repo.Top, p)
			if !reflect.DeepEqual(ids(want), ids(got)) {
				t.Errorf("%s (tree %v): full read hits %v, the guard's read %v", p, tree, ids(want), ids(got))
			}
			if len(some.Claims) == len(full.Claims) {
				t.Errorf("%s: the guard's read kept every claim", p)
			}
		}
	}
	// What find finds under a folder (the top too) is read as a tree.
	for _, p := range append(paths, ".") {
		for _, under := range []string{"**", "**/*.go", "**/*.md/**", "**/b.md"} {
			some, err := LoadFor(repo, now, []string{p}, []bool{true})
			if err != nil {
				t.Fatal(err)
			}
			want, got := full.CheckUnder("me", repo.Top, p, under), some.CheckUnder("me", repo.Top, p, under)
			if !reflect.DeepEqual(ids(want), ids(got)) {
				t.Errorf("%s under %s: full read hits %v, the guard's read %v", p, under, ids(want), ids(got))
			}
		}
	}
}

// CheckUnder hits the claims that can match a path under the folder that
// the glob matches, and no others.
func TestCheckUnder(t *testing.T) {
	repo := &gitstore.Repo{Top: t.TempDir(), GitDir: t.TempDir()}
	repo.CommonDir = repo.GitDir
	now := time.Now()
	mk := func(id, glob string) claimstore.Claim {
		return claimstore.Claim{ID: id, Owner: agentstore.AgentHuman, Created: now, Worktree: repo.Top, Task: "t", Globs: []string{glob}}
	}
	if err := claimstore.Save(repo, []claimstore.Claim{mk("go", "src/**/*.go"), mk("gen", "src/gen/**"), mk("docs", "docs/*.md")}); err != nil {
		t.Fatal(err)
	}
	set, err := Load(repo, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel, under string
		want       []string
	}{
		{"src", "**/*.go", []string{"go:src/**/*.go", "gen:src/gen/**"}},
		{"src", "**/*.md", []string{"gen:src/gen/**"}},
		{"src/gen", "**/*.pyc", []string{"gen:src/gen/**"}},
		{"src/lib", "**/*.md", nil},
		{".", "**/*.md", []string{"gen:src/gen/**", "docs:docs/*.md"}},
		{".", "**/*.pyc", []string{"gen:src/gen/**"}},
		{"docs", "**/*.go/**", nil},
		{"docs/sub", "**", nil},
	} {
		if got := ids(set.CheckUnder("me", repo.Top, tc.rel, tc.under)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("CheckUnder(%s, %s) = %v, want %v", tc.rel, tc.under, got, tc.want)
		}
	}
}

func ids(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Claim.ID+":"+h.Glob)
	}
	return out
}
