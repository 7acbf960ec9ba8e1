// Package agentstore is the record of each agent lucid has seen (its
// client, type, cursor into the log, what it saw) and the shell watches of
// its commands.
package agentstore
