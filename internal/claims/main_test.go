package claims_test

import (
	"os"
	"testing"

	"github.com/lucid-dev/lucid/internal/client/clients"
)

// TestMain labels agents as the command line does, by the registry of
// clients: the tests' teammates of agent teams are Claude Code's, and
// other clients' agents go by their client's name.
func TestMain(m *testing.M) {
	clients.NameAgents()
	os.Exit(m.Run())
}
