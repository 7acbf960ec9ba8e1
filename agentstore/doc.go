// Package agentstore is the record of each agent lucid has seen (its
// client, type, cursor into the log, what it saw), the shell watches of
// its commands, and how an agent is named to people.
package agentstore
