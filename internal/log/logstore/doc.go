// Package logstore is lucid's log as a file: appending an entry, reading
// forward and backward, cursors into it, the evidence entries cite and its
// staleness, the live set of entries, the index of the files they cite,
// their order, listing, the plan's versions, and what an agent saw of the
// log when it started.
package logstore
