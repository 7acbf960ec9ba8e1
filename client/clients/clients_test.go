package clients

import (
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
