package e2e

import (
	"strings"
	"testing"

	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// What Claude Code 2.1.332 does with the hooks of an agent team, which
// lucid's handling rests on (testdata/payloads/claude-code-2.1.332/NOTES.md).
// Probes of the test's own answer in place of lucid: they hold a task open
// both ways, keep a teammate from going idle once, and give the woken
// teammate a context. If the client changes any of this, lucid's handling
// of teams has to be looked at again.
func TestClientTaskHooks(t *testing.T) {
	e := newEnv(t)
	ctx := func(s string) string {
		return `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"` + s + `"}}`
	}
	e.installProbes(map[string][]probeReply{
		"TaskCompleted/alpha": {{Code: 2, Stderr: "PROBE-EXIT2"}, {Stdout: `{"decision":"block","reason":"PROBE-JSON"}`}},
		"SubagentStop/alpha":  {{Stdout: `{"decision":"block","reason":"PROBE-STOP"}`}},
		"SubagentStart/alpha": {{Stdout: ctx("PROBE-FIRST-START")}, {Stdout: ctx("PROBE-WAKE-START")}},
	})
	var srv *api.Server
	idle := func(name string) bool {
		for _, c := range e.probeCalls("TeammateIdle") {
			if c.str("agent_type") == name {
				return true
			}
		}
		return false
	}
	alpha := newMate("alpha", "task a",
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
		api.Call("TaskGet", map[string]any{"taskId": "1"}),
		api.Call("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
		api.Call("TaskGet", map[string]any{"taskId": "1"}),
		api.Say("alpha stops."),
		api.Say("alpha stops again."),
		// Woken by the lead.
		api.Say("alpha is done."))
	beta := newMate("beta", "task b",
		api.Call("TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"}),
		api.Say("beta stops."))
	// Woken by the teammates' messages, the lead closes beta's task, then
	// wakes alpha.
	lead := []api.Step{
		func(*api.MessagesRequest) api.Reply {
			until(t, "beta idle", func() bool { return idle("beta") })
			return api.Reply{Tools: []api.ToolCall{{Name: "TaskUpdate", Input: map[string]any{"taskId": "2", "status": "completed"}}}}
		},
		func(*api.MessagesRequest) api.Reply {
			until(t, "alpha idle", func() bool { return idle("alpha") })
			return api.Reply{Tools: []api.ToolCall{{Name: "SendMessage", Input: map[string]any{"to": "alpha", "summary": "more", "message": "More work."}}}}
		},
		api.Say("Sent."),
	}
	var c *tty
	srv, c = e.team([]mate{alpha, beta}, lead...)
	c.waitCalls("alpha woken and idle again", func() bool { return len(e.probeCalls("SubagentStart")) >= 3 && at(srv, "alpha", 7) })
	c.waitCalls("alpha idle again", func() bool {
		n := 0
		for _, c := range e.probeCalls("TeammateIdle") {
			if c.str("agent_type") == "alpha" {
				n++
			}
		}
		return n >= 2
	})
	c.exit()

	// TaskCompleted holds the task open with exit 2 (the model reads the
	// hook's command and stderr) and with a JSON block (the reason alone),
	// as the result of the TaskUpdate.
	for _, w := range []struct {
		step int
		text string
	}{{2, "TaskCompleted hook feedback:\n[lucid probe TaskCompleted]: PROBE-EXIT2"}, {4, "TaskCompleted hook feedback:\nPROBE-JSON"}} {
		if got := resultOf(t, step(t, srv, "alpha", w.step), "TaskUpdate").ResultText(); got != w.text {
			t.Errorf("alpha's held TaskUpdate before step %d reads %q, want %q", w.step, got, w.text)
		}
		if got := resultOf(t, step(t, srv, "alpha", w.step+1), "TaskGet").ResultText(); !strings.Contains(got, "Status: in_progress") {
			t.Errorf("alpha's task after the held TaskUpdate: %q, want in_progress", got)
		}
	}
	// The lead closing beta's task: TaskCompleted names no agent.
	var byLead []call
	for _, c := range e.probeCalls("TaskCompleted") {
		if c.str("task_id") == "2" && c.str("agent_id") == "" {
			byLead = append(byLead, c)
		}
	}
	if len(byLead) != 1 {
		t.Fatalf("TaskCompleted for the lead's TaskUpdate of beta's task ran %d times, want once\ncalls:\n%s", len(byLead), e.callsText())
	}
	for _, k := range []string{"agent_id", "agent_type", "teammate_name", "team_name"} {
		if _, ok := byLead[0].Payload[k]; ok {
			t.Errorf("the lead's TaskCompleted has %s: %s", k, byLead[0].Stdin)
		}
	}
	// alpha's stops: the blocked SubagentStop is followed by no
	// TeammateIdle; the next (stop_hook_active) by TaskCompleted for its
	// open task, then TeammateIdle.
	var seq []string
	for _, c := range e.probeCalls("") {
		if c.str("agent_type") == "alpha" && (c.Args[1] == "SubagentStop" || c.Args[1] == "TeammateIdle" || c.Args[1] == "TaskCompleted" || c.Args[1] == "SubagentStart") {
			seq = append(seq, c.Args[1])
		}
	}
	want := "SubagentStart TaskCompleted TaskCompleted SubagentStop SubagentStop TaskCompleted TeammateIdle SubagentStart SubagentStop TaskCompleted TeammateIdle"
	if got := strings.Join(seq, " "); got != want {
		t.Errorf("alpha's events:\n%s\nwant\n%s", got, want)
	}
	// The woken teammate keeps its agent_id and its conversation, and is
	// not shown the context its second SubagentStart gave.
	starts := e.hooksOf("SubagentStart", "alpha")
	if len(starts) != 2 || starts[0].str("agent_id") != starts[1].str("agent_id") {
		t.Errorf("alpha's SubagentStart: %d calls, want 2 with one agent_id", len(starts))
	}
	woken := step(t, srv, "alpha", 7)
	if !strings.Contains(woken.Messages.LastUserText(), "More work.") {
		t.Errorf("alpha's request once woken does not end with the lead's message: %q", woken.Messages.LastUserText())
	}
	text := woken.Messages.AllText()
	if strings.Count(text, "PROBE-FIRST-START") != 1 || strings.Contains(text, "PROBE-WAKE-START") {
		t.Errorf("alpha once woken is shown the first start's context %d times and the wake's %d times; want once and never",
			strings.Count(text, "PROBE-FIRST-START"), strings.Count(text, "PROBE-WAKE-START"))
	}
}
