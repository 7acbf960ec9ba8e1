// Package shell tells which paths a shell command an agent runs would
// write, before it runs: it reads the line as bash would (package
// cmdline parses it), follows cd, variables, loops, functions, nested
// scripts and the programs it knows (cp, sed -i, formatters, make,
// package scripts, tar, editors...), and resolves each path as the kernel
// would. git's whole-tree commands (git stash, git reset --hard...),
// whose writes git decides, it hands over as gitpredict.Ops. A client's
// own edit tools are decoded in its folder under internal/client; whether
// a claim forbids the paths is answered by package claims, which the
// hooks ask with what this package found.
package shell
