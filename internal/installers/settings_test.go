package installers

import (
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// A settings file's other members: read, set in the file's layout, and
// removed; the file written whole.
func TestSettingsMembers(t *testing.T) {
	repo := installertest.NewRepo(t)
	installertest.WriteSettings(t, repo, testClient.Settings, "{\n  \"a\": {\"b\": 1}\n}\n")
	s, err := testClient.Read(repo, testClient.Settings)
	if err != nil || s.Name() != testClient.Settings {
		t.Fatal(err)
	}
	if v, ok := s.Member("a"); !ok || CompactJSON(v) != `{"b":1}` {
		t.Errorf("member a: %s %v", v, ok)
	}
	s.SetMember("c", []byte(`"x && y"`))
	s.RemoveMember("a")
	if err := s.Write(); err != nil {
		t.Fatal(err)
	}
	if got := installertest.ReadFile(t, repo, testClient.Settings); got != "{\n  \"c\": \"x && y\"\n}\n" {
		t.Errorf("%q", got)
	}
	if _, ok := s.Member("a"); ok {
		t.Error("a removed member is there")
	}
	if CompactJSON([]byte("not json")) != "not json" || JoinWhat("a", "") != "a" || JoinWhat("", "b") != "b" || JoinWhat("a", "b") != "a; b" {
		t.Error("CompactJSON or JoinWhat")
	}
	if ClientCommand("x")("E") != "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client x E" {
		t.Error(ClientCommand("x")("E"))
	}
}
