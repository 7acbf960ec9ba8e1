// Package guard decides about one tool call of an agent: which paths a
// shell command writes (parsed with mvdan.cc/sh; a client's own tools are
// decoded in its folder under client/; for git's whole-tree
// commands, such as git stash or git reset --hard, git itself is asked
// what they would change and whether they would lose the log's uncommitted
// lines), the LUCID_AGENT stamp on the lucid commands it runs, and lich's
// edit markers. Whether a
// claim forbids those paths is answered by package claims, which the hooks
// ask with what guard found.
package guard
