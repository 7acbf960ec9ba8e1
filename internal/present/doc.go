// Package present is how lucid shows agents, times and counts to people
// and models: an agent's label, a teammate's name in its team, how long
// ago something happened, and the word for a number of things.
package present
