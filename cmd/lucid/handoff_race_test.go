package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
)

// TestHandoffRace hands six claims back and forth between A and B, nine
// times each (A to B, to A, ... to B), the six at once, while four
// processes of C's keep claiming a file under each of them: C never gets
// one (a hand-over leaves no moment where the files are free), and B ends
// up holding all six.
func TestHandoffRace(t *testing.T) {
	repo := newLucidRepo(t)
	const (
		a = "30df32ba-0d45-4195-af71-803394f51561"
		b = "0b218250-bcad-4f28-bb25-013e7e946655"
		c = "fb2d5c0f-2408-4388-aa74-4a88124a7649"
	)
	for _, id := range []string{a, b} {
		if err := agentstore.Save(repo, agentstore.Record{ID: id, Worktree: repo.Top}); err != nil {
			t.Fatal(err)
		}
	}
	const n = 6
	for i := range n {
		if out, err := lucidCmd(repo, a, "claim", fmt.Sprintf("r%d/**", i), "--for", "round").CombinedOutput(); err != nil {
			t.Fatalf("claim: %v\n%s", err, out)
		}
	}
	var (
		done     atomic.Bool
		tries    atomic.Int64
		loopers  sync.WaitGroup
		handoffs sync.WaitGroup
	)
	for l := range 4 {
		loopers.Add(1)
		go func() {
			defer loopers.Done()
			for k := l; !done.Load(); k++ {
				cmd := lucidCmd(repo, c, "claim", fmt.Sprintf("r%d/a.go", k%n), "--for", "steal")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				err := cmd.Run()
				tries.Add(1)
				if err == nil {
					t.Errorf("C claimed r%d/a.go during the hand-over", k%n)
					return
				}
				if !strings.Contains(stderr.String(), "overlaps r") {
					t.Errorf("C refused without naming the claim: %s", stderr.String())
					return
				}
			}
		}()
	}
	for i := range n {
		handoffs.Add(1)
		go func() {
			defer handoffs.Done()
			from, to := a, b
			for range 9 {
				if out, err := lucidCmd(repo, from, "release", fmt.Sprintf("r%d/**", i), "--to", to).CombinedOutput(); err != nil {
					t.Errorf("release --to: %v\n%s", err, out)
					return
				}
				from, to = to, from
			}
		}()
	}
	handoffs.Wait()
	done.Store(true)
	loopers.Wait()
	claims, bad, err := claimstore.Load(repo)
	if err != nil || bad != 0 {
		t.Fatalf("store: %v, %d bad lines", err, bad)
	}
	held := 0
	for _, cl := range claims {
		if cl.Owner != b || len(cl.Globs) != 1 || !strings.HasPrefix(cl.Globs[0], "r") {
			t.Errorf("after the hand-overs, a claim of %s on %v", cl.Owner, cl.Globs)
			continue
		}
		held++
	}
	if held != n {
		t.Errorf("B holds %d claims, want %d", held, n)
	}
	t.Logf("C tried %d claims during the hand-overs", tries.Load())
}
