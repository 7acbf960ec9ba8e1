// Package installers holds what lucid writes into the files of the agent
// clients and checks there: the hook entries in Claude Code's settings,
// the /lucid:dream command, and doctor's checks of both. It edits a
// user's settings without touching anything of the user's.
package installers
