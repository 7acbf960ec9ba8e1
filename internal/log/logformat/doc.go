// Package logformat is the format of a line of lucid's log: the entry,
// its kinds and ids, its encoding and decoding, and the fast reader of a
// line's head (id, time, agent, kind) that the hooks and the merge driver
// use where a whole decode would cost too much.
package logformat
