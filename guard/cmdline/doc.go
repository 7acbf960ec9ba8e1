// Package cmdline reads a bash command line the way the programs in it
// read their arguments: it parses the line, removes the quotes from each
// word (recording which bytes of the text are the source's own, and where
// the expansions are), splits a command's options from its operands, and
// finds the command that a wrapper (env, sudo, timeout, xargs, find
// -exec), a shell's -c or the git subcommands run. The shell analysis and
// the stamp both read commands with it; the git predictions read git's
// arguments with it as the analysis did.
package cmdline
