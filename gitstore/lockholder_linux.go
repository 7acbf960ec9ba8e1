package gitstore

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/lucid-dev/lucid/internal/escape"
)

// LockHolder names the process that holds an flock on the file at path,
// from /proc/locks ("process 1234 (lucid supersede X ...)"), or "" when it
// cannot tell.
func LockHolder(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return ""
	}
	defer f.Close()
	// 1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF  (the device in hex)
	dev := fmt.Sprintf("%02x:%02x:%d", unixMajor(uint64(st.Dev)), unixMinor(uint64(st.Dev)), st.Ino)
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != dev {
			continue
		}
		pid, err := strconv.Atoi(fields[4])
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + fields[4] + "/cmdline")
		cmd = bytes.TrimRight(cmd, "\x00")
		if len(cmd) == 0 {
			return fmt.Sprintf("process %d", pid)
		}
		return fmt.Sprintf("process %d (%s)", pid, escape.Line(clipRunes(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})), 80)))
	}
	return ""
}

func unixMajor(dev uint64) uint64 { return (dev>>8)&0xfff | (dev>>32)&^0xfff }
func unixMinor(dev uint64) uint64 { return dev&0xff | (dev>>12)&^0xff }

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
