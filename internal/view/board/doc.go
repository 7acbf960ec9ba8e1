// Package board gathers what a person watching the agents of a repository
// sees: every agent and what it is doing, every claim, the log a page at a
// time, the plan with its history, and the notices worth interrupting a
// person for. It also holds the person's actions (releasing a claim,
// writing the plan, recording, superseding, messaging), each the operation
// of the command of the same name, recorded as that command records it.
//
// It keeps no state of its own: everything is read from the files the hooks
// read, when asked. lucid web and lucid watch are built on it; no hook
// imports it.
package board
