package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// messageInText finds the id of a message in a delta: "(ID): " after who
// sent it.
var messageInText = regexp.MustCompile(`for you from [^\n]* \(([0-9A-Z]{26})\): `)

// TestMessagesAtOnce runs eight agents as real processes at the same time:
// each sends messages to the others by label and by id, records facts, and
// makes tool calls whose hooks deliver what is new. Then every message
// reached its recipient exactly once and no other agent, and none was
// lost: each id a sender printed is delivered.
func TestMessagesAtOnce(t *testing.T) {
	agents, steps := 8, 60
	if testing.Short() {
		steps = 15
	}
	repo := newLucidRepo(t)
	const session = "7a1c0000-0000-4000-8000-00000000a11e"
	ids := make([]string, agents)
	for i := range ids {
		ids[i] = fmt.Sprintf("a%02x%015x", (i+1)*19, i)
		hookOut(repo, "SubagentStart", map[string]any{"session_id": session, "agent_id": ids[i]})
	}
	agentOf := func(i int) string { return session + "/" + ids[i] }
	type result struct {
		sent      map[string]int // message id -> recipient
		delivered map[string]int // message id -> times delivered here
		problems  []string
	}
	results := make([]*result, agents)
	var wg sync.WaitGroup
	for i := range agents {
		r := &result{sent: map[string]int{}, delivered: map[string]int{}}
		results[i] = r
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			look := func() {
				out := hookOut(repo, "PreToolUse", map[string]any{"session_id": session, "agent_id": ids[i], "tool_name": "Read",
					"tool_input": map[string]any{"file_path": repo.Top + "/README.md"}})
				for _, id := range messagesIn(out) {
					r.delivered[id]++
				}
			}
			for s := range steps {
				switch rng.IntN(3) {
				case 0:
					to := rng.IntN(agents - 1)
					if to >= i {
						to++
					}
					name := agentOf(to)
					if s%2 == 0 {
						name = "general-purpose·" + ids[to][:6]
					}
					out, err := lucidAs(repo, agentOf(i), "tell", name, fmt.Sprintf("step %d from %d", s, i))
					if err != nil {
						r.problems = append(r.problems, fmt.Sprintf("tell %s: %v", name, err))
						continue
					}
					r.sent[strings.TrimSpace(out)] = to
				case 1:
					if _, err := lucidAs(repo, agentOf(i), "fact", fmt.Sprintf("fact %d of %d", s, i)); err != nil {
						r.problems = append(r.problems, err.Error())
					}
				default:
					look()
				}
			}
		}()
	}
	wg.Wait()
	for i := range agents { // each looks once more, when all is written
		out := hookOut(repo, "PreToolUse", map[string]any{"session_id": session, "agent_id": ids[i], "tool_name": "Read",
			"tool_input": map[string]any{"file_path": repo.Top + "/README.md"}})
		for _, id := range messagesIn(out) {
			results[i].delivered[id]++
		}
	}
	sent := 0
	for i, r := range results {
		for _, p := range r.problems {
			t.Errorf("agent %d: %s", i, p)
		}
		for id, to := range r.sent {
			sent++
			for j, other := range results {
				n := other.delivered[id]
				switch {
				case j == to && n != 1:
					t.Errorf("message %s from agent %d reached its recipient %d %d times", id, i, j, n)
				case j != to && n != 0:
					t.Errorf("message %s from agent %d to %d reached agent %d too", id, i, to, j)
				}
			}
		}
	}
	if sent < agents {
		t.Fatalf("only %d messages were sent: the test shows little", sent)
	}
	t.Logf("%d agents, %d messages, each delivered once", agents, sent)
}

// messagesIn is the ids of the messages a hook's answer delivered.
func messagesIn(out string) []string {
	var o struct {
		Specific struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if out == "" || json.Unmarshal([]byte(out), &o) != nil {
		return nil
	}
	var ids []string
	for _, m := range messageInText.FindAllStringSubmatch(o.Specific.AdditionalContext, -1) {
		ids = append(ids, m[1])
	}
	return ids
}
