// Package hooks decides what every client's agents are told: the digest
// an agent receives when it starts, and the handlers of `lucid hook EVENT`
// by lucid's own event names, behind the small interface (client.Client)
// each client's adapter implements. It reads and writes state only through the
// stores (gitstore and the store packages beside it).
package hooks
