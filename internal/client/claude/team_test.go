package claude

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every agent id in the recorded payloads: a teammate's tells its name in
// the team (the agent type Claude Code gives it), a plain subagent's tells
// none.
func TestTeammate(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "payloads", version, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded payloads: %v", err)
	}
	mates := 0
	for _, f := range files {
		name := filepath.Base(f)
		in := adapter.Decode(t, name)
		if in.AgentID == "" {
			continue
		}
		mate, hex, ok := Client{}.Teammate(in.AgentID)
		if want := strings.HasSuffix(name, "-teammate.json"); ok != want {
			t.Errorf("%s: %q is a teammate: %v, want %v", name, in.AgentID, ok, want)
			continue
		}
		if ok {
			mates++
			if mate != in.AgentType || "a"+mate+"-"+hex != in.AgentID {
				t.Errorf("%s: %q is teammate %q (%s), its type %q", name, in.AgentID, mate, hex, in.AgentType)
			}
		}
	}
	if mates == 0 {
		t.Error("no teammate among the recorded payloads")
	}
}

// Ids that look almost like a teammate's are not one.
func TestTeammateNearMisses(t *testing.T) {
	for _, id := range []string{
		"",
		"a2adb9a7d441d9c57",          // a plain subagent: 17 hex, no name
		"a-29065eaa7bbaa962",         // no name
		"balpha-29065eaa7bbaa962",    // not an a
		"aalpha-29065eaa7bbaa96",     // 15 hex
		"aalpha-29065eaa7bbaa9620",   // 17 hex
		"aalpha-29065EAA7BBAA962",    // upper case
		"aalpha-29065eaa7bbaa96g",    // not hex
		"01a23a7d-ac6f-7493-b1f0-f5", // another client's id
	} {
		if name, hex, ok := (Client{}).Teammate(id); ok {
			t.Errorf("%q is teammate %q (%s)", id, name, hex)
		}
	}
	if name, hex, ok := (Client{}).Teammate("aqa-lead-0123456789abcdef"); !ok || name != "qa-lead" || hex != "0123456789abcdef" {
		t.Errorf("a name with a dash: %q %q %v", name, hex, ok)
	}
}
