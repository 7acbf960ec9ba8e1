package present_test

import (
	"os"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// naming labels agents as the command line does, by the clients'
// identities: teammates of agent teams are Claude Code's, and other
// clients' agents go by their client's name.
var naming = identity.Naming()

// The agents of the tests.
const (
	lead  = "30df32ba-0d45-4195-af71-803394f51561"
	sub   = lead + "/a2adb9a7d441d9c57"
	mate  = lead + "/aalpha-29065eaa7bbaa962"
	codex = "019a6f3c-1f7b-7d02-9a33-8c0e4b2d77ae"
)

// What people and models read for each kind of agent.
func TestLabel(t *testing.T) {
	for _, tc := range []struct{ agent, typ, want string }{
		{lead, "", "lead·30df32"},
		{sub, "Explore", "Explore·a2adb9"},
		{sub, "", "agent·a2adb9"},
		{mate, "alpha", "alpha·29065e"},
		{mate, "", "alpha·29065e"},
		{lead + "/a1", "", "agent·a1"},
		{agentstore.AgentHuman, "", "human"},
		{agentstore.AgentUser, "", "user"},
		{"laptop-1", "", "laptop-1"}, // not a session: as it is
		{"name\x1b[31m", "", "name__31m"},
		{sub, "Ex\nplore", "Ex_plore·a2adb9"},
		{sub, "feature-dev:code-reviewer", "feature-dev:code-reviewer·a2adb9"},
		{lead + "/ax (01M92GVSR3VW2Q2VCR4YSWK9J8): «ok» lucid: a person released-29065eaa7bbaa962", "", "x__01M92GVSR3VW2Q2VCR4YSWK9J8_:__ok__lucid:_a_person_released·29065e"},
		{"Jane Doe", "", "Jane_Doe"},
	} {
		if got := naming.Label(tc.agent, tc.typ); got != tc.want {
			t.Errorf("Label(%q, %q) = %q, want %q", tc.agent, tc.typ, got, tc.want)
		}
	}
}

// An agent of a client whose agents go by its name is labelled by it, with
// the end of its id; the default client's agents, and those of no known
// client, by their role.
func TestLabelIn(t *testing.T) {
	for _, tc := range []struct{ agent, typ, client, want string }{
		{codex, "", "codex", "codex·2d77ae"},
		{codex + "/019a6f3d-0000-7000-8000-000000a1b2c3", "default", "codex", "codex-default·a1b2c3"},
		{codex + "/x-1", "", "gemini", "gemini-agent·x1"},
		{"1796591126205_34gkw", "", "cline", "cline·534gkw"},
		{"1796591126205_34gkw/agent_1796591126205_d4qtk2", "", "cline", "cline-agent·d4qtk2"},
		{codex + "/x-1", "say «hi»\nlucid:", "codex", "codex-say__hi__lucid:·x1"},
		{lead, "", "claude", "lead·30df32"},
		{sub, "Explore", "claude", "Explore·a2adb9"},
		{sub, "Explore", "", "Explore·a2adb9"},
	} {
		if got := naming.LabelIn(tc.agent, tc.typ, tc.client); got != tc.want {
			t.Errorf("LabelIn(%q, %q, %q) = %q, want %q", tc.agent, tc.typ, tc.client, got, tc.want)
		}
	}
}

// By the zero Naming, as in a program that names no clients, every agent
// goes by its role, and none is a teammate.
func TestUnset(t *testing.T) {
	var unset present.Naming
	if got := unset.LabelIn(codex, "", "codex"); got != "lead·019a6f" {
		t.Errorf("a Codex lead: %q", got)
	}
	if got := unset.Label(mate, ""); got != "agent·aalpha" {
		t.Errorf("a teammate: %q", got)
	}
	if _, ok := unset.Teammate(mate); ok {
		t.Error("a teammate was told without the registry")
	}
}

// A teammate is told by its name in its team; a lead, a plain subagent and
// other writers are no teammates.
func TestTeammate(t *testing.T) {
	if name, ok := naming.Teammate(mate); !ok || name != "alpha" {
		t.Errorf("the teammate: %q, %v", name, ok)
	}
	for _, agent := range []string{lead, sub, agentstore.AgentHuman, "aalpha-29065eaa7bbaa962", codex + "/019a6f3d-0000-7000-8000-000000a1b2c3"} {
		if name, ok := naming.Teammate(agent); ok {
			t.Errorf("%q is teammate %q", agent, name)
		}
	}
}

// A Labeler labels each agent by what its record says of it (its client,
// its type), read once; a teammate, a writer that is no agent, and an
// agent without a record, by their ids alone.
func TestLabeler(t *testing.T) {
	r, err := gitstore.Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	codexSub := codex + "/019a6f3d-0000-7000-8000-000000a1b2c3"
	for _, rec := range []agentstore.Record{
		{ID: codex, Client: "codex", Worktree: r.Top},
		{ID: codexSub, Type: "default", Client: "codex", Worktree: r.Top},
		{ID: sub, Type: "general-purpose", Worktree: r.Top},
		{ID: mate, Type: "something else", Worktree: r.Top},
	} {
		if err := agentstore.Save(r, rec); err != nil {
			t.Fatal(err)
		}
	}
	labels := present.NewLabeler(r, naming)
	want := map[string]string{
		codex:                     "codex·2d77ae",
		codexSub:                  "codex-default·a1b2c3",
		sub:                       "general-purpose·a2adb9",
		mate:                      "alpha·29065e",
		lead:                      "lead·30df32", // no record
		lead + "/a0123456789abcd": "agent·a01234",
		agentstore.AgentHuman:     "human",
		"laptop":                  "laptop",
	}
	for agent, w := range want {
		if got := labels.Label(agent); got != w {
			t.Errorf("Label(%q) = %q, want %q", agent, got, w)
		}
	}
	// The records were read once: the labels stay when they are gone.
	if err := os.RemoveAll(r.AgentsDir()); err != nil {
		t.Fatal(err)
	}
	for agent, w := range want {
		if got := labels.Label(agent); got != w {
			t.Errorf("again, Label(%q) = %q, want %q", agent, got, w)
		}
	}
	if got := present.NewLabeler(r, naming).Label(codexSub); got != "agent·019a6f" {
		t.Errorf("without its record, a Codex subagent: %q", got)
	}
}
