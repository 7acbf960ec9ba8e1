// Package claims holds the claims on files as a set that one hook call or
// command reads at one moment (Set: which claims are active, whether
// one covers a path, how to describe it), and the transactions that change
// them under the repository's lock: Acquire, Release, Handoff (a claim
// passed from one owner to another at once), ReleaseWhere, Prune,
// and, through a git remote shared by several machines, Sync and the
// shared path of Acquire with its retries (remote.go).
//
// The set lives here rather than beside the shell analysis because every
// transaction decides with it (Acquire refuses what Check would deny);
// guard/shell works out which paths a tool call writes, and the hooks ask
// the set about them. The files on disk are gitstore's, and whether two
// globs overlap is package overlap's.
package claims
