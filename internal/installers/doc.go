// Package installers holds how lucid edits a client's hook settings, the
// same for every client: a table of events registered as matcher groups
// in a JSON settings file, edited in place without touching anything of
// the user's, checked by doctor, and the skeleton of a client's set-up
// (Setup) that each client's folder fills with what else it needs (Claude
// Code's status line and /lucid:dream command, Codex's trust, Gemini's
// workspace trust).
// It names no client: client/<name> holds each one's table and files.
package installers
