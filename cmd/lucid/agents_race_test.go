package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// TestAgentsAtOnce runs eight agents of one session as real processes at
// the same time against one repository, for a few thousand steps: each
// records facts, makes pairs of parallel tool calls (whose PreToolUse hooks
// run at once, as Claude Code runs them), claims and releases folders that
// the others want too, writes through Bash while the others do (so every
// diff is shared), and runs the stop gate. Then:
//   - no entry is lost: every id lucid printed is in the log, once;
//   - no entry is delivered twice to an agent, and every other agent's
//     entry reaches each agent exactly once;
//   - no two agents ever hold overlapping claims;
//   - no agent is charged with another's write: no violation, no "Revert";
//   - an agent that recorded is never held back at its stop.
func TestAgentsAtOnce(t *testing.T) {
	agents, steps := 8, 250
	if testing.Short() {
		steps = 40
	}
	repo := newLucidRepo(t)
	const session = "5e55a0e1-0000-4000-8000-00000000a11e"
	ids := make([]string, agents)
	for i := range ids {
		ids[i] = fmt.Sprintf("a%02x%015x", (i+1)*17, i)
		if out := hookOut(repo, "SubagentStart", map[string]any{"session_id": session, "agent_id": ids[i]}); !strings.Contains(out, "# lucid:") {
			t.Fatalf("agent %d's start got no digest: %q", i, out)
		}
	}

	stop := make(chan struct{})
	var overlaps []string
	var watch sync.WaitGroup
	watch.Add(1)
	go func() { // no two agents ever hold overlapping claims
		defer watch.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if o := overlapping(repo); o != "" {
				overlaps = append(overlaps, o)
			}
		}
	}()

	type result struct {
		written   []string            // ids of the facts the agent recorded
		delivered map[string]int      // ids delivered to it, and how often
		clipped   bool                // a delta said "N more" (not exact then)
		problems  []string            // broken promises seen along the way
		counts    map[string]int      // steps by kind, to show what ran
		denied    map[string]struct{} // zones it was denied
	}
	results := make([]*result, agents)
	var wg sync.WaitGroup
	for i := range agents {
		r := &result{delivered: map[string]int{}, counts: map[string]int{}, denied: map[string]struct{}{}}
		results[i] = r
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			agent := session + "/" + ids[i]
			base := map[string]any{"session_id": session, "agent_id": ids[i]}
			deliver := func(out string) {
				for _, id := range deliveredIDs(out) {
					r.delivered[id]++
				}
				r.clipped = r.clipped || strings.Contains(out, " more: `lucid log`")
			}
			holding := ""
			for k := range steps {
				switch kind := k % 6; kind {
				case 0: // record
					out, err := lucidAs(repo, agent, "fact", fmt.Sprintf("agent %d step %d", i, k))
					if err != nil {
						r.problems = append(r.problems, "fact: "+err.Error())
						continue
					}
					r.written = append(r.written, strings.TrimSpace(out))
					r.counts["fact"]++
				case 1: // two parallel tool calls, whose hooks run at once
					var pair sync.WaitGroup
					outs := make([]string, 2)
					for j := range outs {
						pair.Add(1)
						go func() {
							defer pair.Done()
							outs[j] = hookOut(repo, "PreToolUse", with(base, map[string]any{"tool_name": "Write",
								"tool_input": map[string]any{"file_path": filepath.Join(repo.Top, "own", ids[i], fmt.Sprintf("f%d-%d", k, j)), "content": "x"}}))
						}()
					}
					pair.Wait()
					for _, o := range outs {
						if strings.Contains(o, `"deny"`) {
							r.problems = append(r.problems, "own file denied: "+o)
						}
						deliver(o)
					}
					r.counts["parallel"]++
				case 2: // claim a zone that the others want too, and write it
					zone := fmt.Sprintf("zone/%d", rng.IntN(4))
					if holding != "" {
						lucidAs(repo, agent, "release")
						holding = ""
					}
					if _, err := lucidAs(repo, agent, "claim", zone+"/**", "--for", "step "+fmt.Sprint(k)); err != nil {
						r.counts["claim refused"]++
						continue
					}
					holding = zone
					r.counts["claim"]++
					out := hookOut(repo, "PreToolUse", with(base, map[string]any{"tool_name": "Write",
						"tool_input": map[string]any{"file_path": filepath.Join(repo.Top, zone, "x.go"), "content": "x"}}))
					if strings.Contains(out, `"deny"`) {
						r.problems = append(r.problems, "denied in its own claim: "+out)
					}
					deliver(out)
				case 3: // write another zone: denied only while someone else holds it
					zone := fmt.Sprintf("zone/%d", rng.IntN(4))
					out := hookOut(repo, "PreToolUse", with(base, map[string]any{"tool_name": "Write",
						"tool_input": map[string]any{"file_path": filepath.Join(repo.Top, zone, "y.go"), "content": "y"}}))
					if strings.Contains(out, `"deny"`) {
						if zone == holding {
							r.problems = append(r.problems, "denied in its own claim: "+out)
						}
						r.denied[zone] = struct{}{}
						r.counts["denied"]++
					} else {
						deliver(out)
						r.counts["allowed"]++
					}
				case 4: // a shell write while the others write: the diff is shared
					own := filepath.Join(repo.Top, "own", ids[i], "g.txt")
					changed := []string{own}
					for z := range 4 {
						changed = append(changed, filepath.Join(repo.Top, fmt.Sprintf("zone/%d/x.go", z)))
					}
					out := hookOut(repo, "PostToolUse", with(base, map[string]any{"tool_name": "Bash",
						"tool_input":    map[string]any{"command": "echo x > " + own},
						"tool_response": map[string]any{"bashEditDiff": map[string]any{"changedFiles": changed, "shared": true}}}))
					if strings.Contains(out, "Revert") || strings.Contains(out, "violation") {
						r.problems = append(r.problems, "charged with another's write: "+out)
					}
					r.counts["shared diff"]++
				case 5: // the stop gate: an agent that recorded is not held back
					out := hookOut(repo, "SubagentStop", base)
					if strings.Contains(out, `"block"`) {
						r.problems = append(r.problems, "blocked at its stop after recording: "+out)
					}
					holding = "" // its claims ended with it
					r.counts["stop"]++
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	watch.Wait()
	for i := range agents { // the last news, once everyone is done
		out := hookOut(repo, "UserPromptSubmit", map[string]any{"session_id": session, "agent_id": ids[i]})
		for _, id := range deliveredIDs(out) {
			results[i].delivered[id]++
		}
		results[i].clipped = results[i].clipped || strings.Contains(out, " more: `lucid log`")
	}

	inLog := map[string]int{}
	var violations []string
	_, err := logstore.Scan(repo.LogPath(), func(e logformat.Entry) bool {
		inLog[e.ID]++
		if e.Kind == logformat.KindViolation {
			violations = append(violations, e.Text)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	written := map[string]int{} // fact id → writer
	for i, r := range results {
		for _, p := range r.problems {
			t.Errorf("agent %d: %s", i, p)
		}
		for _, id := range r.written {
			written[id] = i
			if inLog[id] != 1 {
				t.Errorf("agent %d's entry %s is in the log %d times", i, id, inLog[id])
			}
		}
	}
	for _, v := range violations {
		t.Errorf("false violation: %s", v)
	}
	for _, o := range overlaps {
		t.Errorf("two agents held overlapping claims: %s", o)
	}
	for i, r := range results {
		twice := 0
		for id, n := range r.delivered {
			if n > 1 {
				twice++
			}
			if w, ok := written[id]; ok && w == i {
				t.Errorf("agent %d was sent its own entry %s", i, id)
			}
		}
		if twice > 0 {
			t.Errorf("agent %d: %d entries arrived more than once", i, twice)
		}
		if r.clipped {
			t.Logf("agent %d: a delta was clipped to the budget; its count is not checked", i)
			continue
		}
		missing := 0
		for id, w := range written {
			if w != i && r.delivered[id] == 0 {
				missing++
			}
		}
		if missing > 0 {
			t.Errorf("agent %d: %d entries of the others never reached it", i, missing)
		}
	}
	t.Logf("%d agents × %d steps; log %d entries; agent 0 ran %v", agents, steps, len(inLog), results[0].counts)
}

var entryIDInText = regexp.MustCompile(`, ([0-9A-HJKMNP-TV-Z]{26})\)\n`)

// deliveredIDs reads the ids of the entries a hook's output delivered.
func deliveredIDs(out string) []string {
	if out == "" {
		return nil
	}
	var o struct {
		Specific struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(out), &o) != nil {
		return nil
	}
	var ids []string
	for _, m := range entryIDInText.FindAllStringSubmatch(o.Specific.AdditionalContext, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// overlapping returns two active claims of different owners that overlap,
// said in a line, or "". A lease of an agent of the other's session is
// no claim against it: the agents of one session are told of each
// other's leases, not stopped by them.
func overlapping(repo *gitstore.Repo) string {
	stored, _, err := claimstore.Load(repo)
	if err != nil {
		return ""
	}
	for i, a := range stored {
		for _, b := range stored[i+1:] {
			if a.Owner == b.Owner || claims.SessionLease(a, b.Owner) || claims.SessionLease(b, a.Owner) {
				continue
			}
			for _, ga := range a.Globs {
				for _, gb := range b.Globs {
					if overlap.Globs(ga, gb) {
						return fmt.Sprintf("%s %v and %s %v", a.Owner, a.Globs, b.Owner, b.Globs)
					}
				}
			}
		}
	}
	return ""
}

func with(base, more map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// hookOut runs `lucid hook EVENT` with the payload and returns its stdout.
func hookOut(repo *gitstore.Repo, event string, payload map[string]any) string {
	payload = with(map[string]any{"cwd": repo.Top, "hook_event_name": event, "agent_type": "general-purpose", "permission_mode": "bypassPermissions"}, payload)
	b, _ := json.Marshal(payload)
	cmd := exec.Command("lucid", "hook", event)
	cmd.Dir = repo.Top
	cmd.Env = append(os.Environ(), "LUCID_AGENT=", "LUCID_BUDGET=9500")
	cmd.Stdin = bytes.NewReader(b)
	out, _ := cmd.Output()
	return string(out)
}

// lucidAs runs lucid as agent and returns its stdout.
func lucidAs(repo *gitstore.Repo, agent string, args ...string) (string, error) {
	cmd := lucidCmd(repo, agent, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}
