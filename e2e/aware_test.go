package e2e

// Edit awareness with the real clients: an agent about to write a file
// that another agent still at work changed since its own last write is
// told who, once, where its client shows the model a hook's words; the
// other agent is told at its next hook that carries news that this one is
// now editing its file, once.

import (
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	api "github.com/lucid-dev/lucid/internal/testkit/scripted/messages"
)

// The words of the two notes that every client's agent reads.
const (
	changedNote = "was changed since your last write of it by "
	editingNote = " is now editing "
)

// clientLabel is how lucid names the lead of a client whose agents go by
// the client's name (codex·…, qwen·…, opencode·…): the name, then the
// last six letters or digits of its session id.
func clientLabel(client, session string) string {
	s := strings.ReplaceAll(session, "-", "")
	if len(s) > 6 {
		s = s[len(s)-6:]
	}
	return client + "·" + s
}

// claudeTold counts, in every request of a Claude Code conversation, the
// hook contexts added since the model's last turn that hold text: each
// request's new messages only, so a note kept in the history counts once,
// where it came.
func claudeTold(reqs []*api.Request, text string) (n int, at []api.HookContext, steps []int) {
	for _, r := range reqs {
		for _, c := range api.HookContexts(r.Messages.Tail()) {
			if k := strings.Count(c.Text, text); k > 0 {
				n += k
				at = append(at, c)
				steps = append(steps, r.Step)
			}
		}
	}
	return n, at, steps
}

// claudeShown counts text in everything the new messages of every request
// of a conversation show the model (tool results too): a note that came
// some other way than a hook's context is seen here.
func claudeShown(reqs []*api.Request, text string) int {
	n := 0
	for _, r := range reqs {
		for _, m := range r.Messages.Tail() {
			n += strings.Count(m.Text(), text)
		}
	}
	return n
}

// markerOf reads the lich marker of a file of the repository (its
// absolute path, as the tools gave it): who wrote it last, and who before.
func (e *env) markerOf(abs string) *lichstore.Marker {
	e.t.Helper()
	r, err := gitstore.Find(e.repo)
	if err != nil {
		e.t.Fatal(err)
	}
	m, err := lichstore.ReadMarker(r, abs)
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

// Two background subagents of one Claude Code lead edit src/auth.go, no
// claim anywhere. B, whose Edit comes after A's, is told before its Edit
// that A changed the file (naming A by its label, with the lucid ask that
// reaches it), once; A, at its next tool call, that B is now editing its
// file, once; nobody else is told anything of it, and both edits land.
//
// What overlaps: both subagents run at once from start to end, and
// both read the file at once. A edits it while B holds its read; B edits
// right after, on its read from before A's change: Claude Code 2.1.332
// applies such an Edit when its old_string is still there, and only adds
// to the result that the file "had been modified on disk since you last
// read it" (FACTS.md says it refuses it: not so when the edit applies
// cleanly). Meanwhile A waits, still at work, for B's Edit to run. B's
// Edit starts once A's has run, not before: two Edits of one file at the
// same moment would lose one of them (each reads, replaces and writes the
// whole file), and which of the two is told would be a race.
func TestAwareTwoClaudeSubagents(t *testing.T) {
	leasesOff(t)
	e := newEnv(t)
	auth := e.path("src/auth.go")
	var srv *api.Server
	at := func(conv string, step int) { waitStep(t, srv, conv, step) }
	lead := &api.Script{Name: "lead", Marker: "[[lead]]", Steps: []api.Step{
		func(*api.MessagesRequest) api.Reply {
			return api.Reply{Tools: []api.ToolCall{
				{Name: "Agent", Input: map[string]any{"description": "document auth", "prompt": "[[sub:aware-a]] Document the auth package.",
					"subagent_type": "general-purpose", "run_in_background": true}},
				{Name: "Agent", Input: map[string]any{"description": "rename login", "prompt": "[[sub:aware-b]] Rename Login.",
					"subagent_type": "general-purpose", "run_in_background": true}},
			}}
		},
		api.Say("Both workers are on it."),
	}, Done: api.Say("Lead done.")}
	a := &api.Script{Name: "a", Marker: "[[sub:aware-a]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		func(*api.MessagesRequest) api.Reply {
			at("b", 1) // B holds the file read too
			return api.Reply{Tools: []api.ToolCall{{Name: "Edit", Input: map[string]any{"file_path": auth,
				"old_string": "package auth\n", "new_string": "// Package auth logs users in.\npackage auth\n"}}}}
		},
		func(*api.MessagesRequest) api.Reply {
			at("b", 2) // B's Edit has run: A, still at work, makes one more call
			return api.Reply{Tools: []api.ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo next", "description": "next"}}}}
		},
		api.Say("A done."),
	}, Done: api.Say("Nothing worth recording.")}
	b := &api.Script{Name: "b", Marker: "[[sub:aware-b]]", Steps: []api.Step{
		api.Call("Read", map[string]any{"file_path": auth}),
		func(*api.MessagesRequest) api.Reply {
			at("a", 2) // A's Edit has run, after B's Read
			return api.Reply{Tools: []api.ToolCall{{Name: "Edit", Input: map[string]any{"file_path": auth,
				"old_string": "func Login(", "new_string": "func LogIn("}}}}
		},
		api.Say("B done."),
	}, Done: api.Say("Nothing worth recording.")}
	srv = api.New(lead, a, b)
	defer srv.Close()
	res := e.claude(srv, "[[lead]] Have two workers touch up the auth code.")

	session, aID, bID := res.sessionID(), res.agentID("[[sub:aware-a]]"), res.agentID("[[sub:aware-b]]")
	if session == "" || aID == "" || bID == "" {
		t.Fatalf("no session id (%q) or agent ids (%q, %q) in the client's output", session, aID, bID)
	}
	aLabel, bLabel := "general-purpose·"+aID[:6], "general-purpose·"+bID[:6]
	as, bs := srv.Conversation("a"), srv.Conversation("b")
	if len(as) < 4 || len(bs) < 3 {
		t.Fatalf("A sent %d requests (want 4 or more), B %d (want 3 or more)\n%s\ncalls:\n%s", len(as), len(bs), srv.Dump(), e.callsText())
	}
	if got := e.read("src/auth.go"); !strings.Contains(got, "// Package auth logs users in.") || !strings.Contains(got, "func LogIn(") {
		t.Fatalf("both edits did not land:\n%s", got)
	}

	// B's Edit, on its read from before A's change, ran.
	if u, r, ok := lastResult(bs[2].Messages); !ok || u.Name != "Edit" || r.IsError {
		t.Errorf("B's Edit: %s %q (error %v), want it applied", u.Name, r.ResultText(), r.IsError)
	} else {
		t.Logf("Claude Code's result of B's Edit: %q", r.ResultText())
	}

	// B: told once, before its Edit, who changed the file, how to reach it.
	n, ctx, steps := claudeTold(bs, changedNote)
	if n != 1 || ctx[0].Hook != "PreToolUse:Edit" || steps[0] != 2 {
		t.Fatalf("B was told of A's change %d times (%+v at steps %v), want once, as PreToolUse:Edit context in its request after its Edit (step 2)\n%s\ncalls:\n%s",
			n, ctx, steps, srv.Dump(), e.callsText())
	}
	for _, want := range []string{
		"lucid: src/auth.go " + changedNote + aLabel + " (Claude Code) under a minute ago, holding no claim on it.",
		"read the file again before you change it, and agree on the change rather than undo theirs",
		"`lucid ask " + session + "/" + aID + " 'Are you still changing src/auth.go? I am about to edit it.'`",
	} {
		if !strings.Contains(ctx[0].Text, want) {
			t.Errorf("B's note lacks %q:\n%s", want, ctx[0].Text)
		}
	}

	// A: told once, at its next tool call, that B is editing its file.
	n, ctx, steps = claudeTold(as, editingNote)
	if n != 1 || ctx[0].Hook != "PreToolUse:Bash" || steps[0] != 3 {
		t.Fatalf("A was told %d times that B is editing its file (%+v at steps %v), want once, with its next tool call (step 3)\n%s\ncalls:\n%s",
			n, ctx, steps, srv.Dump(), e.callsText())
	}
	for _, want := range []string{
		"lucid: " + bLabel + " (Claude Code)" + editingNote + "src/auth.go, which you changed under a minute ago; it was told of your change.",
		"`lucid tell " + session + "/" + bID + ` "…"` + "`",
	} {
		if !strings.Contains(ctx[0].Text, want) {
			t.Errorf("A's note lacks %q:\n%s", want, ctx[0].Text)
		}
	}

	// Nobody else, nothing twice: the two notes, counted in all that any
	// request newly showed any model, came once each.
	for _, c := range []struct {
		conv    string
		changed int
		editing int
	}{{"lead", 0, 0}, {"a", 0, 1}, {"b", 1, 0}} {
		reqs := srv.Conversation(c.conv)
		if got := claudeShown(reqs, changedNote); got != c.changed {
			t.Errorf("%s was shown %q %d times, want %d", c.conv, changedNote, got, c.changed)
		}
		if got := claudeShown(reqs, editingNote); got != c.editing {
			t.Errorf("%s was shown %q %d times, want %d", c.conv, editingNote, got, c.editing)
		}
	}

	// The marker names B last, A before it.
	m := e.markerOf(auth)
	if m == nil {
		t.Fatal("src/auth.go has no lich marker")
	}
	if eds := m.Edits(); len(eds) != 2 || eds[0].Session != session+"/"+bID || eds[1].Session != session+"/"+aID {
		t.Errorf("src/auth.go's marker names %+v; want B (%s/%s), then A (%s)", eds, session, bID, aID)
	}
}
