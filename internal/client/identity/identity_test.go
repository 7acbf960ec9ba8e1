package identity

import (
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
)

// fakeShell is a client that marks its agents' shells and hooks, as the
// real ones do, by one variable each (none for its hooks: hookVar "").
type fakeShell struct {
	named
	shellVar, hookVar string
}

// named is a client that marks nothing.
type named string

func (n named) Name() string { return string(n) }

func (f fakeShell) AgentShell(getenv func(string) string) (client.Shell, bool) {
	if getenv(f.shellVar) == "" {
		return client.Shell{}, false
	}
	return client.Shell{Client: f.Name() + " CLI", Session: getenv(f.shellVar)}, true
}

func (f fakeShell) OwnHook(getenv func(string) string) (bool, bool) {
	if f.hookVar == "" {
		return false, false
	}
	return getenv(f.hookVar) != "", true
}

func (f fakeShell) ShellVars() []string { return []string{f.shellVar, f.hookVar} }

// lucid hook run in an agent's shell is not a hook: refused, whichever
// client's shell it is; run by the client as its hook, it is one.
func TestForgedHook(t *testing.T) {
	marked := fakeShell{"marked", "MARKED_SHELL", "MARKED_HOOK"}
	unmarked := fakeShell{"unmarked", "UNMARKED_SHELL", ""}
	clients := []client.Named{marked, unmarked, named("plain")}
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	if sh, ok := AgentShell(clients, env("UNMARKED_SHELL", "s1")); !ok || sh.Client != "unmarked CLI" || sh.Session != "s1" {
		t.Errorf("AgentShell: %+v %v", sh, ok)
	}
	if _, ok := AgentShell(clients, env()); ok {
		t.Error("a person's terminal taken for an agent's shell")
	}
	for _, tc := range []struct {
		client client.Named
		env    func(string) string
		forged string
	}{
		{marked, env("MARKED_HOOK", "1"), ""},
		{marked, env("MARKED_SHELL", "s"), "marked CLI"},
		{marked, env("UNMARKED_SHELL", "s"), "unmarked CLI"}, // unmarked: another client's shell runs it
		{marked, env(), ""},
		{unmarked, env("UNMARKED_SHELL", "s"), "unmarked CLI"},
		{unmarked, env("MARKED_SHELL", "s"), ""}, // its hooks inherit the shell it runs in
		{named("plain"), env("MARKED_SHELL", "s"), ""},
	} {
		why := ForgedHook(tc.client, clients, tc.env)
		switch {
		case tc.forged == "" && why != "":
			t.Errorf("%s: refused as forged: %s", tc.client.Name(), why)
		case tc.forged != "" && !strings.HasPrefix(why, "lucid hook runs here in "+AClient(tc.forged)+" agent's shell, not as a hook of its client: refused"):
			t.Errorf("%s: %q, want it refused in %s's shell", tc.client.Name(), why, tc.forged)
		}
	}
}

// The default client's agents are labelled by their role, the others' by
// the client's name.
func TestNamedLabels(t *testing.T) {
	naming := Naming()
	const session = "01a23a7d-ac6f-7493-b1f0-f59c6e21259d"
	if got := naming.LabelIn(session, "", all[0].Name()); got != "lead·01a23a" {
		t.Errorf("default client: %q", got)
	}
	other := all[1].Name()
	if got := naming.LabelIn(session+"/x-1", "default", other); got != other+"-default·x1" {
		t.Errorf("%s subagent: %q", other, got)
	}
	if got := naming.LabelIn(session, "", other); got != other+"·21259d" {
		t.Errorf("%s lead: %q", other, got)
	}
}

// The identities tell a teammate of an agent team by the client whose
// agents form teams, and labels it by its name in the team; no other
// client's subagent is one.
func TestTeammate(t *testing.T) {
	naming := Naming()
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	if name, ok := naming.Teammate(session + "/aalpha-29065eaa7bbaa962"); !ok || name != "alpha" {
		t.Errorf("a Claude Code teammate: %q, %v", name, ok)
	}
	if got := naming.Label(session+"/aalpha-29065eaa7bbaa962", "alpha"); got != "alpha·29065e" {
		t.Errorf("a teammate's label: %q", got)
	}
	for _, sub := range []string{"a2adb9a7d441d9c57", "019a6f3c-1f7b-7d02-9a33-8c0e4b2d77ae", "default-1"} {
		if name, tag, ok := teammate(sub); ok {
			t.Errorf("subagent %q is teammate %q (%s)", sub, name, tag)
		}
	}
}
