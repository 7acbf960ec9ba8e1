package proctree

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// read reads /proc/PID/stat, cmdline and environ.
func read(pid int) (Proc, bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	p, _, ok := stat(pid)
	if !ok {
		return Proc{}, false
	}
	if args, err := os.ReadFile(dir + "/cmdline"); err == nil {
		p.Args = strings.Split(strings.TrimRight(string(args), "\x00"), "\x00")
	}
	if env, err := os.ReadFile(dir + "/environ"); err == nil {
		for _, kv := range bytes.Split(env, []byte{0}) {
			if len(kv) > 0 {
				p.Env = append(p.Env, string(kv))
			}
		}
	}
	return p, true
}

// stat reads /proc/PID/stat: pid's parent and name, and the fields after
// the name (the state first).
func stat(pid int) (p Proc, fields []string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return p, nil, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return p, nil, false
	}
	fields = strings.Fields(string(b[close+1:]))
	if len(fields) < 2 {
		return p, nil, false
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return p, nil, false
	}
	return Proc{PID: pid, PPID: ppid, Name: string(b[open+1 : close])}, fields, true
}

// brief reads pid's parent, name and start from /proc/PID/stat alone: its
// start is the 22nd field, in clock ticks after boot, which /proc/uptime
// dates. Linux counts those ticks at USER_HZ, 100 a second on every
// platform Go runs on.
func brief(pid int) (p Proc, start time.Time, ok bool) {
	p, fields, ok := stat(pid)
	if !ok || len(fields) < 20 {
		return p, start, false
	}
	ticks, err := strconv.ParseInt(fields[19], 10, 64)
	if err != nil {
		return p, start, false
	}
	up, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return p, start, false
	}
	secs, _, _ := strings.Cut(string(up), " ")
	uptime, err := strconv.ParseFloat(secs, 64)
	if err != nil {
		return p, start, false
	}
	boot := time.Now().Add(-time.Duration(uptime * float64(time.Second)))
	return p, boot.Add(time.Duration(ticks) * time.Second / 100), true
}
