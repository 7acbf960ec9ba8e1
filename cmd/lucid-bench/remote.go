package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// remoteSection times claims shared through a git remote. The
// remote is a bare repository on disk and the machines are two clones of
// it, a and b, so the figures are git's and lucid's own cost without a
// network: over SSH or HTTPS to a forge, add the round trips (a claim makes
// two: ls-remote and push, and a third, fetch, when another machine changed
// the claims since).
//
// Rows, each beside the floor: git ls-remote and a plain git push of one
// new commit to the same remote, for scale; lucid claim --local-only; lucid
// claim through the remote when nobody else changed it, and when machine b
// claimed in between (the fetch path); and the hook PreToolUse on an Edit
// with 1,000 claims of other machines in the local copy (the hooks never
// touch the network). Then contention: rounds of 16 lucid claim processes
// started at once on distinct free globs, all on clone a (they queue on its
// lock), and 8 on each clone (the machines race on the remote's lease);
// the median and the worst of every process's wall time.
func remoteSection(b *bench) error {
	root := filepath.Join(b.root, "remote")
	if err := os.Mkdir(root, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(root)
	remote := filepath.Join(root, "remote.git")
	if err := b.runIn(root, "git", "init", "-q", "--bare", remote); err != nil {
		return err
	}
	var clones []string
	for _, name := range []string{"a", "b"} {
		dir := filepath.Join(root, name)
		if err := b.runIn(root, "git", "clone", "-q", remote, dir); err != nil {
			return err
		}
		if err := b.runIn(dir, b.lucid, "init"); err != nil {
			return err
		}
		if err := b.runIn(dir, b.lucid, "remote", "set", "origin"); err != nil {
			return err
		}
		clones = append(clones, dir)
	}
	a, bDir := clones[0], clones[1]
	const session = "30df32ba-0d45-4195-af71-803394f51561"

	fmt.Fprintf(b.out, "  %-52s %10s %10s %10s %8s\n", "a bare repository on disk as the remote", "median", "max", "floor", "x floor")
	row := func(label string, t timing) {
		fmt.Fprintf(b.out, "  %-52s %s %s %s %8.2f\n", label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
	}

	// The guard with 1,000 claims of another machine in the copy.
	repoA, err := gitstore.Find(a)
	if err != nil {
		return err
	}
	now := time.Now()
	var foreign []claimstore.Claim
	for i := range 1000 {
		foreign = append(foreign, claimstore.Claim{ID: logformat.NewID(now), Owner: fmt.Sprintf("%s/agent%02d", session, i%50),
			Machine: "0123456789ab@elsewhere", Worktree: "/home/dev/repo", Task: fmt.Sprintf("task %d", i),
			Globs: []string{fmt.Sprintf("pkg%d/**", i)}, Created: now, Expires: now.Add(time.Hour)})
	}
	if err := remoteclaims.SaveCopy(repoA, foreign); err != nil {
		return err
	}
	in, _ := json.Marshal(map[string]any{"file_path": a + "/internal/server/handler.go", "old_string": "x", "new_string": "y"})
	edit := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Edit","tool_input":%s}`, session, a, in))
	if out, err := b.output(a, edit, b.lucid, "hook", client.PreToolUse); err != nil || strings.Contains(out, "deny") {
		return fmt.Errorf("the Edit with 1,000 claims of another machine: %v %s", err, out)
	}
	t, err := b.timeCommand(a, nil, edit, b.lucid, "hook", client.PreToolUse)
	if err != nil {
		return err
	}
	row("hook PreToolUse, Edit, 1,000 other machines' claims", t)

	// git alone, for scale: ls-remote, and a push of one new commit each run.
	if t, err = b.timeCommand(a, nil, nil, "git", "ls-remote", "origin", "refs/lucid/claims"); err != nil {
		return err
	}
	row("git ls-remote origin refs/lucid/claims", t)
	commits, err := b.commitChain(a, 2*(b.warmups+b.runs))
	if err != nil {
		return err
	}
	if t, err = b.timeVaried(a, nil, func(n int) ([]string, []string) {
		return nil, []string{"git", "push", "-q", "origin", commits[n] + ":refs/heads/bench"}
	}); err != nil {
		return err
	}
	row("git push origin (one new commit)", t)

	claimArgs := func(glob string) []string {
		return []string{b.lucid, "claim", glob, "--for", "bench"}
	}
	agentEnv := []string{"LUCID_AGENT=" + session + "/claimer"}
	if t, err = b.timeVaried(a, nil, func(n int) ([]string, []string) {
		return agentEnv, append(claimArgs(fmt.Sprintf("local/%d/**", n)), "--local-only")
	}); err != nil {
		return err
	}
	row("lucid claim --local-only", t)
	if t, err = b.timeVaried(a, nil, func(n int) ([]string, []string) {
		return agentEnv, claimArgs(fmt.Sprintf("quiet/%d/**", n))
	}); err != nil {
		return err
	}
	row("lucid claim through the remote (unchanged)", t)
	if t, err = b.timeAfterOther(a, bDir, agentEnv); err != nil {
		return err
	}
	row("lucid claim through the remote (b claimed since)", t)

	fmt.Fprintf(b.out, "  %-52s %10s %10s %10s\n", "16 lucid claim at once, distinct free globs", "median", "max", "claims")
	for _, c := range []struct {
		label string
		dirs  []string
	}{{"16 on clone a (queued on its lock)", []string{a}}, {"8 on each of two clones (racing on the lease)", clones}} {
		times, err := b.contend(c.dirs, 16)
		if err != nil {
			return err
		}
		fmt.Fprintf(b.out, "  %-52s %s %s %10d\n", c.label, ms(median(times)), ms(slices.Max(times)), len(times))
	}
	return nil
}

// commitChain makes n commits in dir, each the parent of the next, so that
// pushing them in turn pushes one new commit each time.
func (b *bench) commitChain(dir string, n int) ([]string, error) {
	tree, err := b.output(dir, nil, "git", "mktree")
	if err != nil {
		return nil, err
	}
	tree = strings.TrimSpace(tree)
	var out []string
	for i := range n {
		args := []string{"git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit-tree", tree, "-m", fmt.Sprintf("bench %d", i)}
		if i > 0 {
			args = append(args, "-p", out[i-1])
		}
		oid, err := b.output(dir, nil, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, strings.TrimSpace(oid))
	}
	return out, nil
}

// timeAfterOther times lucid claim on clone a, each run after an untimed
// claim on clone b, so that every timed claim must fetch b's commit.
func (b *bench) timeAfterOther(a, other string, env []string) (timing, error) {
	var times, floors []time.Duration
	for i := range b.warmups + b.runs {
		args := []string{"claim", fmt.Sprintf("other/%d/**", i), "--for", "bench"}
		if _, err := b.runOnce(other, []string{"LUCID_AGENT=30df32ba-0d45-4195-af71-803394f51562"}, nil, b.lucid, args...); err != nil {
			return timing{}, fmt.Errorf("lucid claim in %s: %v", other, err)
		}
		f, err := b.runOnce(b.root, nil, nil, b.hello)
		if err != nil {
			return timing{}, err
		}
		args[1] = fmt.Sprintf("after/%d/**", i)
		d, err := b.runOnce(a, env, nil, b.lucid, args...)
		if err != nil {
			return timing{}, fmt.Errorf("lucid claim in %s: %v", a, err)
		}
		if i >= b.warmups {
			times, floors = append(times, d), append(floors, f)
		}
	}
	return timing{median: median(times), max: slices.Max(times), floor: median(floors)}, nil
}

// contend runs rounds of n lucid claim processes started at once, on the
// clones in turn, each on a glob of its own, and returns every process's
// wall time: enough rounds for about b.runs of them.
func (b *bench) contend(dirs []string, n int) ([]time.Duration, error) {
	b.scratch++
	var all []time.Duration
	for round := 0; len(all) < b.runs; round++ {
		times := make([]time.Duration, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			cmd := exec.Command(b.lucid, "claim", fmt.Sprintf("contend%d/r%d/c%d/**", b.scratch, round, i), "--for", "bench")
			cmd.Dir = dirs[i%len(dirs)]
			cmd.Env = append(slices.Clip(b.env), fmt.Sprintf("LUCID_AGENT=30df32ba-0d45-4195-af71-8033940000%02d", i))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				t0 := time.Now()
				err := cmd.Run()
				times[i] = time.Since(t0)
				if err != nil {
					errs[i] = fmt.Errorf("lucid claim in %s: %v (%s)", cmd.Dir, err, firstLine(stderr.Bytes()))
				}
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		all = append(all, times...)
	}
	return all, nil
}
