package proctree

import (
	"path/filepath"
	"strings"
	"time"
)

// between are the programs that stand between a client and its hook, by
// the name the system keeps (lower case, without .exe): the shells a
// client runs a hook's command line in, and lucid itself, for a wrapper
// that runs lucid.
var between = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "fish": true, "busybox": true,
	"cmd": true, "powershell": true, "pwsh": true, "lucid": true,
}

// ClientStart is when the process that ran this one's command line
// started: the nearest ancestor that is neither a shell nor lucid, which
// for a hook is the client that runs it. ok is false where that cannot be
// told.
func ClientStart() (t time.Time, ok bool) {
	me, _, ok := brief(self())
	if !ok {
		return time.Time{}, false
	}
	pid := me.PPID
	for range maxDepth {
		if pid <= 1 {
			return time.Time{}, false
		}
		p, start, ok := brief(pid)
		if !ok {
			return time.Time{}, false
		}
		if !between[strings.ToLower(strings.TrimSuffix(filepath.Base(p.Name), ".exe"))] {
			return start, true
		}
		pid = p.PPID
	}
	return time.Time{}, false
}
