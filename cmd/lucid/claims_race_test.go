package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// newLucidRepo makes a git repository with lucid set up, for tests that
// run lucid as real processes (the test binary is `lucid` on PATH: see
// TestMain).
func newLucidRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"git", "init", "-q", dir}, {"lucid", "init"}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LUCID_AGENT=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	repo, err := gitstore.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func lucidCmd(repo *gitstore.Repo, agent string, args ...string) *exec.Cmd {
	cmd := exec.Command("lucid", args...)
	cmd.Dir = repo.Top
	cmd.Env = append(os.Environ(), "LUCID_AGENT="+agent)
	return cmd
}

// TestClaimRace starts 32 processes at once, in four sets of eight whose
// globs all overlap within a set and never across sets: exactly one of each
// set wins, the others are refused, and the store holds the four winners.
func TestClaimRace(t *testing.T) {
	repo := newLucidRepo(t)
	shapes := []string{"%s/**", "%s/*.go", "%s/a.go", "%s/{a,c}.go", "%s/[ab].go", "%s/?.go", "%s/a.*", "%s/**/a.go"}
	type result struct {
		set, agent string
		err        error
		stderr     string
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results []result
		start   = make(chan struct{})
	)
	for s := range 4 {
		set := fmt.Sprintf("set%d", s)
		for i, shape := range shapes {
			agent := fmt.Sprintf("30df32ba-0d45-4195-af71-80339400000%d/a%d", s, i)
			cmd := lucidCmd(repo, agent, "claim", fmt.Sprintf(shape, set), "--for", "race "+set)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				err := cmd.Run()
				mu.Lock()
				results = append(results, result{set, agent, err, stderr.String()})
				mu.Unlock()
			}()
		}
	}
	close(start)
	wg.Wait()

	winners := map[string]string{}
	for _, r := range results {
		switch {
		case r.err == nil:
			if w, ok := winners[r.set]; ok {
				t.Errorf("%s: both %s and %s won", r.set, w, r.agent)
			}
			winners[r.set] = r.agent
		case !strings.Contains(r.stderr, "overlaps") || !strings.Contains(r.stderr, "race "+r.set):
			t.Errorf("%s lost without naming the other claim of its set: %v: %s", r.agent, r.err, r.stderr)
		}
	}
	claims, bad, err := repo.LoadClaims()
	if err != nil || bad != 0 {
		t.Fatalf("store: %v, %d bad lines", err, bad)
	}
	if len(winners) != 4 || len(claims) != 4 {
		t.Fatalf("want one winner in each of 4 sets and 4 claims, have winners %v and claims %v", winners, claims)
	}
	for _, c := range claims {
		set := strings.TrimPrefix(c.Task, "race ")
		if winners[set] != c.Owner {
			t.Errorf("claim of %s by %s, but %s won that set", set, c.Owner, winners[set])
		}
	}
}

// TestClaimKilled kills claim processes with SIGKILL at random moments,
// many of them while they hold the lock in the middle of the transaction:
// the store stays readable (the old claims or the new, never a part) and
// the lock is free.
func TestClaimKilled(t *testing.T) {
	repo := newLucidRepo(t)
	// A large store makes the transaction long enough to be caught.
	var claims []gitstore.Claim
	for i := range 20000 {
		claims = append(claims, gitstore.Claim{ID: fmt.Sprintf("c%d", i), Owner: gitstore.AgentHuman,
			Created: time.Now(), Worktree: repo.Top, Task: "bulk", Globs: []string{fmt.Sprintf("bulk/%d/**", i)}})
	}
	if err := repo.SaveClaims(claims); err != nil {
		t.Fatal(err)
	}
	lockFile, err := os.OpenFile(repo.LockPath(), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lockFile.Close()
	tryLock := func() bool {
		if syscall.Flock(int(lockFile.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			return false
		}
		syscall.Flock(int(lockFile.Fd()), syscall.LOCK_UN)
		return true
	}

	want := len(claims)
	inLock := 0
	for i := 0; i < 40 || inLock < 5; i++ {
		if i > 400 {
			t.Fatalf("no kill landed while the lock was held in %d tries", i)
		}
		cmd := lucidCmd(repo, fmt.Sprintf("30df32ba-0d45-4195-af71-803394f51561/k%d", i), "claim", fmt.Sprintf("new/%d/**", i), "--for", "killed")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(time.Duration(rand.IntN(60)) * time.Millisecond)
		held := false
		for time.Now().Before(deadline) && !held {
			held = !tryLock()
		}
		cmd.Process.Kill()
		cmd.Wait()
		if held {
			inLock++
		}
		if !tryLock() {
			t.Fatalf("kill %d: the lock is still held after its holder died", i)
		}
		got, bad, lerr := repo.LoadClaims()
		if lerr != nil || bad != 0 {
			t.Fatalf("kill %d: store unreadable: %v, %d bad lines", i, lerr, bad)
		}
		switch {
		case len(got) == want:
		case len(got) == want+1:
			want++ // the claim landed whole before the kill
		default:
			t.Fatalf("kill %d: %d claims, want %d or %d", i, len(got), want, want+1)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(repo.ClaimsPath()), "claims*"))
	if len(matches) != 1 {
		t.Errorf("files beside the store: %v", matches)
	}
	t.Logf("%d kills landed while the process held the lock", inLock)
}
