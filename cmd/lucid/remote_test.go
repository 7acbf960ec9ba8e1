package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// newRemoteClones makes a bare repository on disk, the remote, and n
// clones of it, the machines, each with lucid set up and the remote set.
func newRemoteClones(t *testing.T, n int) (string, []*gitstore.Repo) {
	t.Helper()
	dir := t.TempDir()
	remote := filepath.Join(dir, "remote.git")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "LUCID_AGENT=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	gittest.Run(t, dir, "init", "-q", "--bare", remote)
	var clones []*gitstore.Repo
	for i := range n {
		top := filepath.Join(dir, fmt.Sprintf("clone%d", i))
		gittest.Run(t, dir, "clone", "-q", remote, top)
		run(top, "lucid", "init")
		run(top, "lucid", "remote", "set", "origin")
		repo, err := gitstore.Find(top)
		if err != nil {
			t.Fatal(err)
		}
		clones = append(clones, repo)
	}
	return remote, clones
}

// remoteClaims reads the claims on the remote with git alone: the JSON
// files of refs/lucid/claims.
func remoteClaims(t *testing.T, remote string) []map[string]any {
	t.Helper()
	out, err := exec.Command("git", "-C", remote, "ls-tree", "--name-only", "refs/lucid/claims").Output()
	if err != nil {
		t.Fatalf("git ls-tree refs/lucid/claims: %v", err)
	}
	var claims []map[string]any
	for name := range strings.FieldsSeq(string(out)) {
		b, err := exec.Command("git", "-C", remote, "cat-file", "blob", "refs/lucid/claims:"+name).Output()
		if err != nil {
			t.Fatalf("reading %s: %v", name, err)
		}
		var c map[string]any
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v: %s", name, err, b)
		}
		if c["id"].(string)+".json" != name {
			t.Errorf("%s holds the claim %v", name, c["id"])
		}
		claims = append(claims, c)
	}
	return claims
}

// claimer is one lucid claim process of a race.
type claimer struct {
	clone  int
	agent  string
	cmd    *exec.Cmd
	err    error
	stderr bytes.Buffer
}

// race starts every claimer at once and waits for them all.
func race(claimers []*claimer) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, c := range claimers {
		c.cmd.Stderr = &c.stderr
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			c.err = c.cmd.Run()
		}()
	}
	close(start)
	wg.Wait()
}

// TestRemoteClaimRace starts 16 claim processes on each of two clones at
// once, on globs that all overlap (every one matches src/a.go): exactly one
// wins across both machines, every other is refused naming the winner's
// task, and the remote and the stores hold that one claim.
func TestRemoteClaimRace(t *testing.T) {
	remote, clones := newRemoteClones(t, 2)
	shapes := []string{"src/**", "src/*.go", "src/a.go", "src/{a,c}.go", "src/[ab].go", "src/?.go", "src/a.*", "src/**/a.go",
		"**/a.go", "**", "src/*", "*/a.go", "src/[a-c].go", "src/a.{go,md}", "{src,lib}/a.go", "**/*.go"}
	var claimers []*claimer
	for i, repo := range clones {
		for j, glob := range shapes {
			agent := fmt.Sprintf("30df32ba-0d45-4195-af71-8033940000%02d/a%d", i, j)
			claimers = append(claimers, &claimer{clone: i, agent: agent,
				cmd: lucidCmd(repo, agent, "claim", glob, "--for", fmt.Sprintf("race %d %d", i, j))})
		}
	}
	race(claimers)

	var winner *claimer
	for _, c := range claimers {
		if c.err == nil {
			if winner != nil {
				t.Errorf("both %s and %s won", winner.agent, c.agent)
			}
			winner = c
		}
	}
	if winner == nil {
		t.Fatalf("nobody won; first refusal: %s", claimers[0].stderr.String())
	}
	for _, c := range claimers {
		if c.err != nil && (!strings.Contains(c.stderr.String(), "overlaps") || !strings.Contains(c.stderr.String(), "«race ")) {
			t.Errorf("%s on clone %d lost without naming the winning claim: %v: %s", c.agent, c.clone, c.err, c.stderr.String())
		}
	}
	on := remoteClaims(t, remote)
	if len(on) != 1 || on[0]["owner"] != winner.agent {
		t.Fatalf("the remote holds %v, want the one claim of %s", on, winner.agent)
	}
	winnerTask := on[0]["task"].(string)
	for i, repo := range clones {
		claims, _, err := claimstore.Load(repo)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case i == winner.clone && (len(claims) != 1 || claims[0].Owner != winner.agent || claims[0].Task != winnerTask || claims[0].Machine == ""):
			t.Errorf("the winner's clone holds %v", claims)
		case i != winner.clone && len(claims) != 0:
			t.Errorf("the other clone holds %v", claims)
		}
	}
	// Every loser on the other clone saw the winner through the remote.
	for _, c := range claimers {
		if c.err != nil && c.clone != winner.clone && !strings.Contains(c.stderr.String(), winnerTask) {
			t.Errorf("%s on clone %d was refused for another reason than the winner: %s", c.agent, c.clone, c.stderr.String())
		}
	}
}

// TestRemoteClaimDistinct starts 8 claim processes on each of two clones
// at once, on globs that never overlap: the remote's compare-and-swap loses
// none of them, and every one wins (a machine that loses the race to the
// remote fetches and decides again).
func TestRemoteClaimDistinct(t *testing.T) {
	remote, clones := newRemoteClones(t, 2)
	var claimers []*claimer
	for i, repo := range clones {
		for j := range 8 {
			agent := fmt.Sprintf("30df32ba-0d45-4195-af71-8033940000%02d/d%d", i, j)
			claimers = append(claimers, &claimer{clone: i, agent: agent,
				cmd: lucidCmd(repo, agent, "claim", fmt.Sprintf("area%d-%d/**", i, j), "--for", "distinct")})
		}
	}
	race(claimers)
	for _, c := range claimers {
		if c.err != nil {
			t.Errorf("%s on clone %d: %v: %s", c.agent, c.clone, c.err, c.stderr.String())
		}
	}
	on := remoteClaims(t, remote)
	owners := map[string]bool{}
	for _, c := range on {
		owners[c["owner"].(string)] = true
	}
	if len(on) != len(claimers) || len(owners) != len(claimers) {
		t.Errorf("the remote holds %d claims of %d owners, want %d", len(on), len(owners), len(claimers))
	}
}
