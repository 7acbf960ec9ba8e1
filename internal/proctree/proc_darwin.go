package proctree

import (
	"bytes"
	"encoding/binary"
	"time"

	"golang.org/x/sys/unix"
)

// read asks the kernel for pid's parent and name (kern.proc.pid) and its
// arguments and environment (kern.procargs2: argc, the executable's
// path, the arguments, then the environment, each NUL-ended).
func read(pid int) (Proc, bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return Proc{}, false
	}
	name := kp.Proc.P_comm[:]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	p := Proc{PID: pid, PPID: int(kp.Eproc.Ppid), Name: string(name)}
	raw, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(raw) < 4 {
		return p, true
	}
	argc := int(binary.LittleEndian.Uint32(raw))
	rest := raw[4:]
	// The executable's path, then NUL padding.
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		rest = rest[i:]
	}
	rest = bytes.TrimLeft(rest, "\x00")
	for n := 0; n < argc && len(rest) > 0; n++ {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return p, true
		}
		p.Args = append(p.Args, string(rest[:i]))
		rest = rest[i+1:]
	}
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i <= 0 {
			break
		}
		p.Env = append(p.Env, string(rest[:i]))
		rest = rest[i+1:]
	}
	return p, true
}

// brief reads pid's parent, name and start from kern.proc.pid alone.
func brief(pid int) (p Proc, start time.Time, ok bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return p, start, false
	}
	name := kp.Proc.P_comm[:]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	return Proc{PID: pid, PPID: int(kp.Eproc.Ppid), Name: string(name)}, time.Unix(kp.Proc.P_starttime.Unix()), true
}
