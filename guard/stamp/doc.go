// Package stamp signs the lucid commands in a shell command line an agent
// runs: it inserts LUCID_AGENT=<id> right before each word that runs
// lucid, so that what lucid writes is signed by the agent that ran it, and
// reports what in the line would make a signature wrong or impossible (a
// line that sets LUCID_AGENT itself, runs lucid hook, or runs lucid where
// no stamp can reach). The hooks deny such a line.
package stamp
