// Package clients is the registry of the coding clients lucid serves: the
// one list that names them all, which the command line iterates. Adding a
// client is its folder under client/ and one line here.
package clients

import (
	"github.com/lucid-dev/lucid/client/claude"
	"github.com/lucid-dev/lucid/client/codex"
	"github.com/lucid-dev/lucid/client/gemini"
	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/installers"
)

// Client is one coding client as the registry lists it.
type Client struct {
	hooks.Client        // its adapter: events, payloads, answers, shells
	Title        string // as its users know it
}

// all are the clients, the default first: Claude Code, so that the hooks
// `lucid init` registered before there were others keep working.
var all = []Client{
	{claude.Client{}, "Claude Code"},
	{codex.Client{}, "Codex CLI"},
	{gemini.Client{}, "Gemini CLI"},
}

// All returns the clients, the default first.
func All() []Client { return all }

// Default is the client of a plain `lucid hook EVENT`.
func Default() Client { return all[0] }

// ByName returns the client named name on the command line.
func ByName(name string) (Client, bool) {
	for _, c := range all {
		if c.Name() == name {
			return c, true
		}
	}
	return Client{}, false
}

// Names are the clients' names on the command line.
func Names() []string {
	names := make([]string, len(all))
	for i, c := range all {
		names[i] = c.Name()
	}
	return names
}

// Adapters are the clients' adapters.
func Adapters() []hooks.Client {
	out := make([]hooks.Client, len(all))
	for i, c := range all {
		out[i] = c.Client
	}
	return out
}

// UserHookStandsAside reports whether a hook of the default client's user
// settings (lucid init --user) leaves event to the project's own hooks.
func UserHookStandsAside(event string) bool { return claude.UserHookStandsAside(event) }

// Doctor is lucid doctor's checks of the clients set up in repo: those of
// their set-up, which come before the repository's own, and those of the
// clients themselves, which come last.
func Doctor(repo *gitstore.Repo) (setUp, after []hooks.Finding) {
	setUp = installers.Check(repo)
	if installers.ClaudeCode.SetUp(repo) {
		after = claude.Doctor()
	}
	return setUp, after
}

// Files are the clients' files in the work tree that lucid reads,
// relative to its top.
func Files() []string {
	return []string{installers.SettingsName, installers.LocalSettingsName, installers.DreamCommandName}
}
