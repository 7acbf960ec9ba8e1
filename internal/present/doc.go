// Package present is how lucid shows agents and times to people and
// models: an agent's label, a teammate's name in its team, and how long
// ago something happened.
package present
