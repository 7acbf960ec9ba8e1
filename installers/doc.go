// Package installers holds what lucid writes into the files of the agent
// clients and checks there: the hook entries of Claude Code
// (.claude/settings.json), Codex CLI (.codex/hooks.json) and Gemini CLI
// (.gemini/settings.json), one table per client; the /lucid:dream
// command; the trust Codex needs before it runs a hook (its hash, and the
// entries in $CODEX_HOME/config.toml); and doctor's checks of all of it,
// Gemini's workspace trust and hooksConfig included. It edits a user's
// files without touching anything of the user's.
package installers
