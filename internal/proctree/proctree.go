// Package proctree reads the processes that the running one descends
// from: each one's id, its parent's, its name and, where the system lets
// a user read it, the environment it was started with. An agent's shell
// command can change its own environment and name, but not those of the
// processes it runs under: lucid tells a person's command from an
// agent's by them.
package proctree

import "os"

// Proc is one process.
type Proc struct {
	PID, PPID int
	Name      string // the name of its program, as the system keeps it
	// Args are the words it was started with, its program first; nil
	// where the system does not say.
	Args []string
	// Env is the environment it was started with; nil where the system
	// does not say (another user's process, Windows).
	Env []string
}

// Getenv is Proc's environment read as os.Getenv reads the running one's.
func (p Proc) Getenv(key string) string {
	for i := len(p.Env) - 1; i >= 0; i-- {
		if len(p.Env[i]) > len(key) && p.Env[i][len(key)] == '=' && p.Env[i][:len(key)] == key {
			return p.Env[i][len(key)+1:]
		}
	}
	return ""
}

// maxDepth bounds the walk up: no tree of processes is this deep.
const maxDepth = 64

// Ancestors returns the processes the running one descends from, its
// parent first, up to (not including) the system's first process; ok is
// false where the system's processes cannot be read, or a parent's is
// gone before it is read.
func Ancestors() (procs []Proc, ok bool) {
	me, ok := read(self())
	if !ok {
		return nil, false
	}
	pid := me.PPID
	for range maxDepth {
		if pid <= 1 {
			return procs, true
		}
		p, ok := read(pid)
		if !ok {
			return procs, false
		}
		procs = append(procs, p)
		pid = p.PPID
	}
	return procs, true
}

func self() int { return os.Getpid() }

// parentOf is pid's parent, 0 where it cannot be read.
func parentOf(pid int) int {
	p, ok := read(pid)
	if !ok {
		return 0
	}
	return p.PPID
}

// Orphan reports whether the running process has lost the parent that
// started it: the system's first process (or a process that adopts
// orphans, as systemd --user does) is its parent now. A person's
// terminal starts lucid as its child; an agent's command that detaches
// lucid (setsid, a double fork) leaves it so.
func Orphan() bool {
	ppid := parentOf(self())
	if ppid <= 1 {
		return true
	}
	p, ok := read(ppid)
	return ok && (p.Name == "systemd" || p.Name == "init" || p.Name == "launchd")
}
