package hooks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/talk"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/merge"
)

// A message reaches its recipient once, set apart from the news, with
// the command that answers it; the other agents' deltas leave it out, and
// their digests too; to all, it reaches every agent but its sender.
func TestMessagesReachTheirRecipientOnce(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	read := func(session string) client.Input { return client.Input{SessionID: session, Cwd: top, ToolName: "Read"} }
	for _, s := range []string{lead, other} {
		do(t, c, "SessionStart", client.Input{SessionID: s, Cwd: top, Source: "startup"})
	}
	m, err := talk.Send(repo, sub, []string{other}, "which port does the API use?", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	record(t, repo, sub, logformat.KindFact, "the API listens on 8080")
	a := do(t, c, "PreToolUse", read(other))
	want := "lucid: a question for you from agent·a2adb9 (" + m.ID + "): «which port does the API use?»\n  Answer with: lucid reply " + m.ID + " \"…\"\n" +
		"lucid: 1 new log entry from other agents"
	if !strings.HasPrefix(a.context(), want) {
		t.Errorf("the recipient's delta:\n%s\nwant it to start:\n%s", a.context(), want)
	}
	if a := do(t, c, "PreToolUse", read(other)); a.out != nil {
		t.Errorf("the message came twice: %+v", a.out)
	}
	a = do(t, c, "PreToolUse", read(lead))
	if strings.Contains(a.context(), "which port") || !strings.Contains(a.context(), "the API listens on 8080") {
		t.Errorf("another agent's delta: %q, want the fact and not the message", a.context())
	}
	if d := do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: top, Source: "clear"}); strings.Contains(d.context(), "which port") {
		t.Errorf("the message is in another agent's digest:\n%s", d.context())
	}

	// To all: every agent but the sender.
	talk.Send(repo, other, []string{logformat.ToAll}, "I am rebasing main in 5 min", false, nil)
	if a := do(t, c, "PreToolUse", read(lead)); !strings.Contains(a.context(), "a message for you from lead·0b2182") {
		t.Errorf("a message to all did not reach the lead: %q", a.context())
	}
	if a := do(t, c, "PreToolUse", read(other)); a.out != nil {
		t.Errorf("the sender got its own message to all: %+v", a.out)
	}
}

// A question not answered yet is in the recipient's digest after its
// conversation was compacted, until it replies; a message is not a report
// of its work for the stop gate.
func TestUnansweredQuestionAfterCompaction(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	in := client.Input{SessionID: lead, AgentID: subID, Cwd: top}
	do(t, c, "SubagentStart", in)
	q, _ := talk.Send(repo, other, []string{sub}, "may I take src/api?", true, nil)
	do(t, c, "PreToolUse", in)
	do(t, c, "PreCompact", in)
	if a := do(t, c, "PreToolUse", in); !strings.Contains(a.context(), "## Questions for you, not answered yet\na question for you from lead·0b2182 ("+q.ID+"): «may I take src/api?»") {
		t.Errorf("the digest after the compaction:\n%s", a.context())
	}
	if _, _, err := talk.Reply(repo, sub, q.ID, "yes"); err != nil {
		t.Fatal(err)
	}
	do(t, c, "PreCompact", in)
	if a := do(t, c, "PreToolUse", in); strings.Contains(a.context(), "Questions for you") {
		t.Errorf("an answered question is repeated:\n%s", a.context())
	}

	write := edit(lead, subID, top, "a.go")
	write.Changed = write.Paths
	do(t, c, "PostToolUse", write)
	if a := do(t, c, "SubagentStop", in); a.out == nil || a.out.Block != reportReason {
		t.Errorf("an agent that only replied to a message was not asked to report: %+v", a.out)
	}
	if rec, _, _ := agentstore.Load(repo, sub); rec.Entries != 0 {
		t.Errorf("its reply counted as an entry: %d", rec.Entries)
	}
}

// A request for a claim says how to hand it over and how to refuse; a
// hand-over and a person's release tell the agent what it holds now.
func TestClaimMessages(t *testing.T) {
	labels := func(string) string { return "lead·0b2182" }
	req := logformat.Entry{ID: "01M92GVSR3VW2Q2VCR4YSWK9J8", Agent: other, Kind: logformat.KindMessage, Text: "I need it", To: []string{lead}, Ask: true, Claim: []string{"src/**"}}
	got := formatMessage(req, labels(other))
	for _, want := range []string{"lead·0b2182 asks you for your claim on 'src/**'", "lucid release 'src/**' --to " + other, "lucid reply 01M92GVSR3VW2Q2VCR4YSWK9J8 \"why not\""} {
		if !strings.Contains(got, want) {
			t.Errorf("request %q lacks %q", got, want)
		}
	}
	hand := logformat.Entry{ID: "01M92GVSR3VW2Q2VCR4YSWK9J9", Agent: lead, Kind: logformat.KindHandoff, To: []string{other}, Claim: []string{"src/**"}, Owner: lead}
	if got := formatMessage(hand, "lead·30df32"); !strings.Contains(got, "lead·30df32 handed you its claim on 'src/**'") {
		t.Errorf("hand-over: %q", got)
	}
	rel := logformat.Entry{ID: "01M92GVSR3VW2Q2VCR4YSWK9JA", Agent: agentstore.AgentHuman, Kind: logformat.KindRelease, Text: "stuck for an hour", To: []string{lead}, Claim: []string{"src/**"}, Owner: lead}
	if got := formatMessage(rel, "human"); !strings.Contains(got, "a person released your claim on 'src/**'") || !strings.Contains(got, "stuck for an hour") {
		t.Errorf("release: %q", got)
	}
}

// A subagent whose task ended, and every agent of an ended session, is
// marked ended until it acts again; a teammate that goes idle is not.
func TestEndedAgents(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	ended := func(id string) bool {
		_, seen, _ := agentstore.Load(repo, id)
		_, ok := agentstore.Ended(repo, id, seen)
		return ok
	}
	subIn := client.Input{SessionID: lead, AgentID: subID, Cwd: top}
	mate := client.Input{SessionID: lead, AgentID: mateID, Cwd: top}
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: top, Source: "startup"})
	do(t, c, "SubagentStart", subIn)
	do(t, c, "SubagentStart", mate)
	do(t, c, "SubagentStop", subIn)
	do(t, c, "SubagentStop", mate)
	if !ended(sub) || ended(lead+"/"+mateID) || ended(lead) {
		t.Errorf("after the stops: subagent ended %v (want true), teammate %v, lead %v (want false)", ended(sub), ended(lead+"/"+mateID), ended(lead))
	}
	do(t, c, "PreToolUse", client.Input{SessionID: lead, AgentID: subID, Cwd: top, ToolName: "Read"})
	if ended(sub) {
		t.Error("a subagent that acts again is still ended")
	}
	do(t, c, "SessionEnd", client.Input{SessionID: lead, Cwd: top})
	if !ended(lead) || !ended(sub) || !ended(lead+"/"+mateID) {
		t.Error("the session ended, yet an agent of it is not")
	}
}

// More messages than half the delta's budget holds are counted, with the
// command that lists them, and the news still has the rest of the room.
func TestMessagesPastTheBudget(t *testing.T) {
	repo := newRepo(t)
	top := repo.Top
	c := wholeClient{}
	t.Setenv("LUCID_BUDGET", "1200")
	do(t, c, "SessionStart", client.Input{SessionID: lead, Cwd: top, Source: "startup"})
	for i := range 10 {
		talk.Send(repo, other, []string{lead}, fmt.Sprintf("message %d: %s", i, strings.Repeat("x", 60)), false, nil)
	}
	record(t, repo, other, logformat.KindFact, "the API listens on 8080")
	got := do(t, c, "PreToolUse", client.Input{SessionID: lead, Cwd: top, ToolName: "Read"}).context()
	shown := strings.Count(got, "lucid: a message for you from")
	if shown == 0 || shown == 10 || !strings.Contains(got, fmt.Sprintf("lucid: %d more messages for you: `lucid inbox`\n", 10-shown)) {
		t.Errorf("%d messages shown, want some and the rest counted:\n%s", shown, got)
	}
	if !strings.Contains(got, "the API listens on 8080") {
		t.Errorf("the news did not follow the messages:\n%s", got)
	}
}

// The digest after a compaction says the questions the agent has not
// answered inside its budget (LUCID_BUDGET, at most MaxBudget), the line
// that says a fresh clone's merge driver was set up too: a question of
// 120,000 characters is cut, saying that lucid inbox shows it whole, and
// the questions past the digest's share for them are counted, with the
// command that lists them. (One such question made a digest of 121 KB.)
func TestDigestBudgetHoldsWithQuestions(t *testing.T) {
	repo := newRepo(t)
	if _, err := merge.Install(repo, false); err != nil {
		t.Fatal(err)
	}
	c := wholeClient{}
	in := client.Input{SessionID: lead, AgentID: subID, Cwd: repo.Top}
	do(t, c, "SubagentStart", in)
	long, err := talk.Send(repo, other, []string{sub}, "may I take src/api? "+strings.Repeat("here is why, at length. ", 5000), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	var last logformat.Entry
	for i := range 60 {
		if last, err = talk.Send(repo, other, []string{sub}, fmt.Sprintf("question %d: which port does service %d use?", i, i), true, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 300 {
		record(t, repo, other, logformat.KindFact, fmt.Sprintf("fact %d of the log, which fills the digest's room for entries", i))
	}
	do(t, c, "PreToolUse", in)
	for _, budget := range []string{"", "3000", "9500", "20000"} {
		t.Setenv("LUCID_BUDGET", budget)
		want := BudgetFromEnv()
		do(t, c, "PreCompact", in)
		// A fresh clone's config lacks the merge driver: the digest sets
		// it up and says so, within the budget too.
		gittest.Run(t, repo.Top, "config", "--unset", "merge.lucid.driver")
		got := do(t, c, "PreToolUse", in).context()
		if len(got) > want {
			t.Errorf("LUCID_BUDGET=%q: the digest is %d bytes, over %d", budget, len(got), want)
		}
		for _, part := range []string{healedLine, "## Questions for you, not answered yet\na question for you from lead·0b2182 (" + long.ID + "): «may I take src/api?",
			"…» (cut: `lucid inbox` shows it whole)", " more questions: `lucid inbox --unanswered`\n", "## Log, newest first\n- [fact] «fact 299 of the log", "## Using lucid"} {
			if !strings.Contains(got, part) {
				t.Errorf("LUCID_BUDGET=%q: the digest lacks %q:\n%s", budget, part, got)
			}
		}
		if strings.Contains(got, last.ID) {
			t.Errorf("LUCID_BUDGET=%q: the newest question is listed, not counted: the oldest come first", budget)
		}
	}
}
