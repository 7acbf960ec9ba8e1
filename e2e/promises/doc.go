// Package promises is lucid's promise suite. lucid promises that no agent
// edits what another claimed, that every change is charged to the agent
// that made it, that no entry it acknowledged is lost and that every entry
// reaches every agent once; the suite tries those promises in the ways
// people and agents ordinarily work: every form of a path (from the parent
// folder, a nested repository, a branch without .lucid/, through links,
// globs and loops), git's whole-tree commands, every spelling of a shell
// command, an agent that acts as another, every permission mode, and a
// log that git rewrites. Each case runs the real lucid binary against real
// git repositories, and the suite reports the cases tried and the defects
// left in each class (go test -v ./internal/promises).
package promises
