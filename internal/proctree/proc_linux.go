package proctree

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// parentOf is pid's parent, 0 where it cannot be read.
// read reads /proc/PID/stat and /proc/PID/environ.
func read(pid int) (Proc, bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return Proc{}, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	open, close := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || close < open {
		return Proc{}, false
	}
	fields := strings.Fields(string(stat[close+1:]))
	if len(fields) < 2 {
		return Proc{}, false
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return Proc{}, false
	}
	p := Proc{PID: pid, PPID: ppid, Name: string(stat[open+1 : close])}
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

// startOf is when pid started: its start in clock ticks after boot
// (/proc/PID/stat's 22nd field), after the boot that /proc/uptime gives.
// Linux counts those ticks at USER_HZ, 100 a second on every platform Go
// runs on.
func startOf(pid int) (time.Time, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return time.Time{}, false
	}
	close := bytes.LastIndexByte(stat, ')')
	if close < 0 {
		return time.Time{}, false
	}
	fields := strings.Fields(string(stat[close+1:]))
	if len(fields) < 20 {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseInt(fields[19], 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	up, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return time.Time{}, false
	}
	secs, _, _ := strings.Cut(string(up), " ")
	uptime, err := strconv.ParseFloat(secs, 64)
	if err != nil {
		return time.Time{}, false
	}
	boot := time.Now().Add(-time.Duration(uptime * float64(time.Second)))
	return boot.Add(time.Duration(ticks) * time.Second / 100), true
}
