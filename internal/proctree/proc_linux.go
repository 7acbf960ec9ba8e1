package proctree

import (
	"bytes"
	"os"
	"strconv"
	"strings"
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
