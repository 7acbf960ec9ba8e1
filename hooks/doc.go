// Package hooks decides what Claude Code's agents are told: the digest an
// agent receives when it starts, and the handlers of `lucid hook EVENT`.
// It reads and writes state only through the stores (gitstore and the
// store packages beside it).
package hooks
