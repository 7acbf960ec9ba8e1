package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lucid-dev/lucid/internal/client/identity"
)

// TestAwareAtOnce runs eight agents of one session as real processes that
// write a few files at the same time, with no claim, round after round:
// in each round every agent writes one of three files (some two at once,
// as parallel tool calls), then every agent reads its delta. Then, round
// by round:
//   - the writers of a file are told of each other as one order of their
//     writes explains: each writer of a file is told of exactly the agents
//     that wrote it since its own last write (lucid takes the marker's
//     lock, so some order exists, whatever the timing);
//   - for every such tell, the agent told of learns that the teller is
//     now editing its file exactly once: from a notice in one of its
//     answers, or, where its own write came next, from being told of the
//     teller's change, which says it already.
func TestAwareAtOnce(t *testing.T) {
	agents, rounds := 8, 12
	if testing.Short() {
		rounds = 4
	}
	repo := newLucidRepo(t)
	const session = "a3a7e000-0000-4000-8000-0000000a3a7e"
	ids := make([]string, agents)
	labels := map[string]string{} // label -> id
	for i := range ids {
		ids[i] = fmt.Sprintf("%x%015x", i+10, i)
		hookOut(repo, "SubagentStart", map[string]any{"session_id": session, "agent_id": ids[i]})
		labels[identity.Naming().Label(session+"/"+ids[i], "general-purpose")] = ids[i]
	}
	files := []string{"a.go", "b.go", "c.go"}
	context := func(out string) string {
		var v struct {
			HookSpecificOutput struct {
				AdditionalContext string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		json.Unmarshal([]byte(out), &v)
		return v.HookSpecificOutput.AdditionalContext
	}
	// told parses "F was changed since your last write of it by L1 (...)
	// ...; L2 (...) ..." into the agents told of, by file.
	told := func(text string) map[string][]string {
		out := map[string][]string{}
		for _, line := range strings.Split(text, "\n") {
			rest, ok := strings.CutPrefix(line, "lucid: ")
			if !ok {
				continue
			}
			file, rest, ok := strings.Cut(rest, " was changed since your last write of it by ")
			if !ok {
				continue
			}
			for _, part := range strings.Split(rest, "; ") {
				label, _, _ := strings.Cut(part, " ")
				out[file] = append(out[file], labels[label])
			}
		}
		return out
	}
	// editing parses "L (claude) is now editing F, which you changed ...".
	editing := func(text string) [][2]string {
		var out [][2]string
		for _, line := range strings.Split(text, "\n") {
			rest, ok := strings.CutPrefix(line, "lucid: ")
			if !ok || !strings.Contains(rest, " is now editing ") {
				continue
			}
			label, _, _ := strings.Cut(rest, " ")
			_, after, _ := strings.Cut(rest, " is now editing ")
			file, _, _ := strings.Cut(after, ", which you changed")
			out = append(out, [2]string{labels[label], file})
		}
		return out
	}

	var history []awareWrite // every write, in an order that explains the tells
	for round := range rounds {
		type answer struct{ agent, text string }
		var mu sync.Mutex
		var writes []awareWrite
		var answers []answer
		var wg sync.WaitGroup
		for _, id := range ids {
			n := 1 + rand.IntN(4)/3 // one file, sometimes two at once
			picks := rand.Perm(len(files))[:n]
			for _, p := range picks {
				wg.Add(1)
				go func() {
					defer wg.Done()
					out := context(hookOut(repo, "PreToolUse", map[string]any{"session_id": session, "agent_id": id,
						"tool_name": "Edit", "tool_input": map[string]any{"file_path": filepath.Join(repo.Top, files[p]), "old_string": "x", "new_string": "y"}}))
					mu.Lock()
					defer mu.Unlock()
					answers = append(answers, answer{id, out})
					writes = append(writes, awareWrite{agent: id, file: files[p], told: told(out)[files[p]]})
				}()
			}
		}
		wg.Wait()
		for _, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out := context(hookOut(repo, "UserPromptSubmit", map[string]any{"session_id": session, "agent_id": id, "prompt": "go on"}))
				mu.Lock()
				defer mu.Unlock()
				answers = append(answers, answer{id, out})
			}()
		}
		wg.Wait()

		// Find, for each file, an order of the round's writes of it that
		// explains every tell: each writer told of exactly the agents that
		// wrote the file since its own last write. lucid writes the marker
		// under the lock, so one exists whatever the timing.
		var ordered []awareWrite
		for _, f := range files {
			var mine []awareWrite
			for _, w := range writes {
				if w.file == f {
					mine = append(mine, w)
				}
			}
			order, ok := explain(history, mine)
			if !ok {
				var seen []string
				for _, w := range mine {
					seen = append(seen, fmt.Sprintf("%s told of %v", w.agent, w.told))
				}
				t.Errorf("round %d: no order of the writes of %s explains what they were told: %s", round, f, strings.Join(seen, "; "))
				continue
			}
			for _, w := range order {
				w.pos = len(history)
				history = append(history, w)
				ordered = append(ordered, w)
			}
		}
		writes = ordered

		// Every tell reaches the agent told of once: as a notice, or, where
		// that agent wrote the file next in this round, as the tell of the
		// teller's change, which says it already (the notice then stays
		// unsaid).
		for _, w := range writes {
			for _, other := range w.told {
				n := 0
				for _, a := range answers {
					if a.agent != other {
						continue
					}
					for _, e := range editing(a.text) {
						if e == [2]string{w.agent, w.file} {
							n++
						}
					}
				}
				answered := slices.ContainsFunc(writes, func(o awareWrite) bool {
					return o.agent == other && o.file == w.file && o.pos > w.pos && slices.Contains(o.told, w.agent)
				})
				if n > 1 || n == 0 && !answered {
					t.Errorf("round %d: %s was told that %s changed %s; %s learnt that it is editing it %d times (and from its own next write: %v), want once", round, w.agent, other, w.file, other, n, answered)
				}
			}
		}
		// And nothing else is delivered as a notice.
		for _, a := range answers {
			for _, e := range editing(a.text) {
				if !slices.ContainsFunc(writes, func(w awareWrite) bool { return w.agent == e[0] && w.file == e[1] && slices.Contains(w.told, a.agent) }) {
					t.Errorf("round %d: %s was told that %s is editing %s, which no write of this round told of it", round, a.agent, e[0], e[1])
				}
			}
		}
	}
	if t.Failed() {
		return
	}
	tells := 0
	for _, w := range history {
		tells += len(w.told)
	}
	if tells == 0 {
		t.Fatal("no agent was ever told of another: the test tried nothing")
	}
	t.Logf("%d writes, %d tells, each delivered once", len(history), tells)
}

// awareWrite is one write of TestAwareAtOnce.
type awareWrite struct {
	agent, file string
	told        []string // the agents it was told of
	pos         int      // its place in the history
}

// explain finds an order of writes (all of one file) that, after history,
// explains what each was told: the agents that wrote the file since its
// own last write, each once. It tries the orders depth first, a write
// placed only where its tell holds.
func explain(history, writes []awareWrite) ([]awareWrite, bool) {
	if len(writes) == 0 {
		return nil, true
	}
	for i, w := range writes {
		want := map[string]bool{}
		for j := len(history) - 1; j >= 0; j-- {
			if h := history[j]; h.file == w.file {
				if h.agent == w.agent {
					break
				}
				want[h.agent] = true
			}
		}
		got := map[string]bool{}
		dup := false
		for _, a := range w.told {
			dup = dup || got[a]
			got[a] = true
		}
		if dup || fmt.Sprint(got) != fmt.Sprint(want) {
			continue
		}
		rest := append(slices.Clone(writes[:i]), writes[i+1:]...)
		if order, ok := explain(append(slices.Clone(history), w), rest); ok {
			return append([]awareWrite{w}, order...), true
		}
	}
	return nil, false
}
