package address

import (
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

const (
	lead  = "30df32ba-0d45-4195-af71-803394f51561"
	other = "0b218250-bcad-4f28-bb25-013e7e946655"
)

// Every way a person or an agent names an agent, and the names that fit
// none or more than one.
func TestResolve(t *testing.T) {
	gittest.Setenv(t)
	repo := repotest.Lucid(t)
	// Teammates are "a<name>-<tag>" here, as a client would say.
	naming := present.Naming{Teammates: func(sub string) (string, string, bool) {
		name, tag, ok := strings.Cut(strings.TrimPrefix(sub, "a"), "-")
		return name, tag, ok && strings.HasPrefix(sub, "a")
	}}
	for _, r := range []agentstore.Record{
		{ID: lead}, {ID: other}, {ID: lead + "/b2adb9a7d441d9c57", Type: "general-purpose"},
		{ID: lead + "/atester-111111"}, {ID: other + "/atester-222222"}, {ID: other + "/areviewer-333333"}, {ID: other + "/areviewer-444444"},
	} {
		if err := agentstore.Save(repo, r); err != nil {
			t.Fatal(err)
		}
	}
	book, err := Open(repo, naming, time.Now(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	caller := lead + "/b2adb9a7d441d9c57"
	for _, tc := range []struct{ name, want, err string }{
		{other, other, ""},
		{"lead·0b2182", other, ""},
		{"LEAD·0B2182", other, ""},
		{"general-purpose·b2adb9", caller, ""},
		{"tester", lead + "/atester-111111", ""}, // the caller's own team first
		{"lead", lead, ""},
		{"all", logformat.ToAll, ""},
		{"human", agentstore.AgentHuman, ""},
		{"nobody", "", `no agent is known here as "nobody"`},
		{"reviewer", "", `"reviewer" names 2 agents`},
		{"", "", "no agent named"},
	} {
		got, err := book.Resolve(caller, tc.name)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want an error with %q", tc.name, err, tc.err)
		case tc.err == "" && (err != nil || got.ID != tc.want):
			t.Errorf("%q: %+v %v, want %s", tc.name, got, err, tc.want)
		}
	}
	if _, err := book.Resolve(lead, "lead"); err == nil || !strings.Contains(err.Error(), "you are not a subagent") {
		t.Errorf("a lead naming lead: %v", err)
	}
}
