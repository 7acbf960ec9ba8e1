package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// newLucidRepo makes a git repository with lucid set up, for tests that
// run lucid as real processes (a build of lucid is first on PATH: see
// TestMain).
func newLucidRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	return lucidInit(t, gittest.Init(t))
}

// lucidInit runs `lucid init` in the git repository dir, as a person
// would in a terminal of their own.
func lucidInit(t *testing.T, dir string) *gitstore.Repo {
	t.Helper()
	cmd := exec.Command("lucid", "init")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LUCID_AGENT=", "AI_AGENT=", "CLAUDECODE=", "GEMINI_CLI=", "CODEX_THREAD_ID=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("lucid init: %v\n%s", err, out)
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
	cmd.Env = append(os.Environ(), "LUCID_AGENT="+agent, "CODEX_SESSION_ID=", "CODEX_THREAD_ID=",
		"AI_AGENT=", "CLAUDECODE=", "CLAUDE_CODE_SESSION_ID=", "GEMINI_CLI=") // a person's terminal, even inside an agent's shell
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
	claims, bad, err := claimstore.Load(repo)
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

// TestClaimKilled kills claim processes with SIGKILL while they hold the
// lock, at different moments of the transaction (reading the store,
// checking overlaps, writing the new one): the store stays readable (the
// old claims or the new, never a part of either) and the lock is free.
func TestClaimKilled(t *testing.T) {
	repo := newLucidRepo(t)
	// A large store makes the transaction last long enough to be cut.
	var claims []claimstore.Claim
	for i := range 5000 {
		claims = append(claims, claimstore.Claim{ID: fmt.Sprintf("c%d", i), Owner: agentstore.AgentHuman,
			Created: time.Now(), Worktree: repo.Top, Task: "bulk", Globs: []string{fmt.Sprintf("bulk/%d/**", i)}})
	}
	if err := claimstore.Save(repo, claims); err != nil {
		t.Fatal(err)
	}
	// free reports whether the lock is free, taking and dropping it.
	free := func() bool {
		l, ok, err := repo.TryLock(0)
		if err != nil {
			t.Fatal(err)
		}
		l.Unlock()
		return ok
	}

	// holdLock starts a claim and returns once it holds the lock; held is
	// false when the claim ended before a look found it holding the lock
	// (a transaction can be quicker than the looks).
	n := 0
	holdLock := func() (cmd *exec.Cmd, exited chan struct{}, held bool) {
		n++
		cmd = lucidCmd(repo, fmt.Sprintf("30df32ba-0d45-4195-af71-803394f51561/k%d", n), "claim", fmt.Sprintf("new/%d/**", n), "--for", "killed")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited = make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		deadline := time.Now().Add(30 * time.Second)
		for free() {
			select {
			case <-exited:
				return cmd, exited, false
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("claim %d never took the lock", n)
			}
			time.Sleep(100 * time.Microsecond)
		}
		return cmd, exited, true
	}
	want := len(claims)
	// check checks the store after a claim ended, killed or not.
	check := func() {
		t.Helper()
		if !free() {
			t.Fatalf("claim %d: the lock is still held after its holder ended", n)
		}
		got, bad, err := claimstore.Load(repo)
		if err != nil || bad != 0 {
			t.Fatalf("claim %d: store unreadable: %v, %d bad lines", n, err, bad)
		}
		switch len(got) {
		case want:
		case want + 1:
			want++ // the claim landed whole
		default:
			t.Fatalf("claim %d: %d claims, want %d or %d", n, len(got), want, want+1)
		}
	}
	// How long one transaction holds the lock, so that the kills fall
	// all along it, and some just after it.
	var span time.Duration
	for span == 0 {
		_, exited, held := holdLock()
		began := time.Now()
		<-exited
		if held {
			span = time.Since(began)
		}
		check()
	}

	killed, landed := 0, 0
	for killed < 20 {
		if n > 200 {
			t.Fatalf("only %d of %d claims were seen holding the lock", killed, n)
		}
		cmd, exited, held := holdLock()
		if held {
			time.Sleep(time.Duration(rand.Int64N(int64(span) * 6 / 5)))
			cmd.Process.Kill()
			killed++
		}
		<-exited
		had := want
		check()
		if held && want > had {
			landed++
		}
	}
	t.Logf("a transaction holds the lock about %v; of %d claims, 20 were killed holding it, and %d of those had landed whole", span, n, landed)
}

// TestSessionEndLockBusy: while another lucid holds the lock (a claim
// through a slow remote), SessionEnd does not wait past its budget: it
// leaves the claims to expire, says so on stderr, and exits 0.
func TestSessionEndLockBusy(t *testing.T) {
	repo := newLucidRepo(t)
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	if out, err := lucidCmd(repo, session, "claim", "src/**", "--for", "t").CombinedOutput(); err != nil {
		t.Fatalf("claim: %v\n%s", err, out)
	}
	lock, err := repo.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	cmd := lucidCmd(repo, "", "hook", "SessionEnd")
	cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"SessionEnd","reason":"other"}`, session, repo.Top))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("SessionEnd failed: %v", err)
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "stayed locked") {
		t.Errorf("SessionEnd printed %q, stderr %q; want nothing, and a line saying the claims stayed locked", stdout.String(), stderr.String())
	}
	lock.Unlock()
	if claims, _, _ := claimstore.Load(repo); len(claims) != 1 {
		t.Errorf("%d claims after a SessionEnd that could not take the lock, want the 1 left to expire", len(claims))
	}
}

// TestDoctorLockHeld: doctor reports a lock held by a running process,
// naming it, and exits 1.
func TestDoctorLockHeld(t *testing.T) {
	repo := newLucidRepo(t)
	lock, err := repo.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	out, err := lucidCmd(repo, "", "doctor").Output()
	if err == nil {
		t.Errorf("doctor exited 0 with the lock held")
	}
	if !strings.Contains(string(out), "FAIL  lock: "+repo.LockPath()+" has been held for over 2 s by process "+strconv.Itoa(os.Getpid())+" (") || !strings.Contains(string(out), "fix: wait for it to finish") {
		t.Errorf("doctor did not report the held lock:\n%s", out)
	}
}
