package clients

import (
	"strings"

	"github.com/lucid-dev/lucid/installers"
	"github.com/lucid-dev/lucid/installers/installertest"
	"slices"
	"testing"
)

// The registry lists each client once, by the name lucid hook --client
// takes, the default first.
func TestRegistry(t *testing.T) {
	names := Names()
	if len(names) != len(All()) || len(Adapters()) != len(names) || Default().Name() != names[0] {
		t.Fatalf("names %v, default %q", names, Default().Name())
	}
	for i, n := range names {
		c, ok := ByName(n)
		if !ok || c.Name() != n || c.Title() == "" || Adapters()[i].Name() != n || slices.Index(names, n) != i {
			t.Errorf("%s: %+v %v", n, c, ok)
		}
	}
	if _, ok := ByName("nobody"); ok {
		t.Error("an unknown client found")
	}
	if len(Files()) == 0 {
		t.Error("no client files for doctor")
	}
}

// lucid doctor checks the default client unless another is set up without
// it; the sentence of names; the flags that name a client.
func TestDoctorAndHelp(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	repo := installertest.NewRepo(t)
	setUp, after := Doctor(repo)
	if len(setUp) == 0 || setUp[0].OK || len(after) != 0 {
		t.Errorf("nothing set up: %+v %+v", setUp, after)
	}
	other := All()[1]
	if _, err := other.Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	setUp, _ = Doctor(repo)
	if !setUp[0].OK || !strings.Contains(setUp[0].Detail, "not set up for "+Default().Title()) {
		t.Errorf("another client alone: %+v", setUp[0])
	}
	if _, err := Default().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, after = Doctor(repo); len(after) == 0 {
		t.Error("no checks of the default client itself")
	}
	if Known([]string{"a", "b", "c"}) != "a, b and c" || Known([]string{"a"}) != "a" {
		t.Error(Known([]string{"a", "b", "c"}))
	}
	for _, f := range []string{"local", "statusline", TrustFlag, "user"} {
		if InitUsage(f) == "" {
			t.Errorf("no usage for --%s", f)
		}
	}
	if !slices.Contains(All(), TrustClient()) || UserHookStandsAside("NoSuchEvent") {
		t.Error("trust client, or a user hook standing aside for nothing")
	}
}
