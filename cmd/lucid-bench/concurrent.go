package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// concurrentSection times lucid hook PreToolUse of one agent while eight
// other agents append to the log as fast as lucid fact would (one entry
// each every 2 ms, under the log's lock, as lucid writes them): the case of
// many agents at work, where nearly every tool call has news. It also runs
// the agent's PreToolUse hooks two and eight at a time, as Claude Code runs
// the hooks of parallel tool calls, and counts the entries that reached the
// agent more than once or never (both must be none: news is delivered
// exactly once).
func concurrentSection(b *bench) error {
	const writers = 8
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	s, err := b.newScratch("concurrent")
	if err != nil {
		return err
	}
	defer s.remove()
	if err := s.generateLog(10000); err != nil {
		return err
	}
	payload := func(event, rest string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q,"permission_mode":"default"%s}`, session, s.dir, event, rest))
	}
	pre := payload(client.PreToolUse, fmt.Sprintf(`,"tool_name":"Write","tool_input":{"file_path":%q,"content":"x"}`, s.dir+"/a.go"))
	if _, err := b.output(s.dir, payload(client.SessionStart, `,"source":"startup"`), b.lucid, "hook", client.SessionStart); err != nil {
		return err
	}

	// The writers, until stop.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var nWritten atomic.Int64
	var writeErr atomic.Value
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			agent := fmt.Sprintf("%s/awriter%012d", session, w)
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				e := logformat.NewEntry(time.Now(), agent, logformat.KindFact, fmt.Sprintf("writer %d says something worth knowing", w))
				if err := logstore.Append(s.repo.LogPath(), e); err != nil {
					writeErr.Store(err)
					return
				}
				nWritten.Add(1)
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	time.Sleep(20 * time.Millisecond) // the writers are under way

	fmt.Fprintf(b.out, "  %-48s %10s %10s %10s %8s\n", "while 8 agents append", "median", "max", "floor", "x floor")
	t, err := b.timeCommand(s.dir, []string{"LUCID_BUDGET=9500"}, pre, b.lucid, "hook", client.PreToolUse)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.out, "  %-48s %s %s %s %8.2f\n", "hook PreToolUse, one agent (news every call)", ms(t.median), ms(t.max), ms(t.floor), xFloor(t))

	// Parallel tool calls of another agent: its hooks at once, many rounds.
	for _, width := range []int{2, 8} {
		agent := fmt.Sprintf("a%02dparallel0000000", width)
		one := payload(client.PreToolUse, fmt.Sprintf(`,"agent_id":%q,"agent_type":"general-purpose","tool_name":"Write","tool_input":{"file_path":%q,"content":"x"}`, agent, s.dir+"/b.go"))
		start := payload(client.SubagentStart, fmt.Sprintf(`,"agent_id":%q,"agent_type":"general-purpose"`, agent))
		if _, err := b.output(s.dir, start, b.lucid, "hook", client.SubagentStart); err != nil {
			return err
		}
		delivered := map[string]int{}
		passed := 0 // passed over as "N more" where a delta hit the budget
		var mu sync.Mutex
		rounds := 60
		began := time.Now()
		for range rounds {
			var round sync.WaitGroup
			for range width {
				round.Add(1)
				go func() {
					defer round.Done()
					cmd := exec.Command(b.lucid, "hook", client.PreToolUse)
					cmd.Dir = s.dir
					cmd.Env = append(cleanEnv(), "LUCID_BUDGET=9500")
					cmd.Stdin = bytes.NewReader(one)
					out, _ := cmd.Output()
					mu.Lock()
					ids, more := idsIn(out)
					for _, id := range ids {
						delivered[id]++
					}
					passed += more
					mu.Unlock()
				}()
			}
			round.Wait()
		}
		took := time.Since(began)
		twice := 0
		for _, n := range delivered {
			if n > 1 {
				twice++
			}
		}
		fmt.Fprintf(b.out, "  %-48s %d rounds in %.2f s: %d entries delivered, %d more than once (%d passed over as \"N more\")\n",
			fmt.Sprintf("%d PreToolUse of one agent at once", width), rounds, took.Seconds(), len(delivered), twice, passed)
		b.addGoalIn(fmt.Sprintf("entries delivered twice, %d parallel hooks of one agent", width), float64(twice), 0, " entries")
	}
	if err, ok := writeErr.Load().(error); ok {
		return fmt.Errorf("a writer failed: %v", err)
	}
	fmt.Fprintf(b.out, "  (the writers appended %d entries meanwhile)\n", nWritten.Load())
	return nil
}

var (
	idInDelta = regexp.MustCompile(`, ([0-9A-HJKMNP-TV-Z]{26})\)\n`)
	moreLine  = regexp.MustCompile("(?m)^([0-9]+) more: `lucid log`$")
)

// idsIn reads the ids of the entries a hook's output delivered, and how
// many it passed over for its budget.
func idsIn(out []byte) (ids []string, more int) {
	var o struct {
		Specific struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(out, &o) != nil {
		return nil, 0
	}
	for _, m := range idInDelta.FindAllStringSubmatch(o.Specific.AdditionalContext, -1) {
		ids = append(ids, m[1])
	}
	if m := moreLine.FindStringSubmatch(o.Specific.AdditionalContext); m != nil {
		more, _ = strconv.Atoi(m[1])
	}
	return ids, more
}
