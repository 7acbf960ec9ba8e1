package hooks

import (
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/installers"
)

// Every event lucid registers in Claude Code has a handler: `lucid hook E`
// refuses an event it does not know.
func TestRegisteredEventsAreHandled(t *testing.T) {
	for _, e := range installers.ClaudeCode.Events {
		if !slices.Contains(Events, e.Name) {
			t.Errorf("%s is registered in Claude Code but hooks.Events lacks it", e.Name)
		}
	}
}
