//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the peak resident memory of an ended process, in bytes; 0
// where the system does not say.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // kilobytes on Linux and the BSDs
}

// settle writes the page cache's dirty pages to disk now (sync), so that
// the writeback of a log the bench wrote or removed does not run beside
// the next timed rows: after the 1M-entry logs it slowed the first of them
// by a tenth.
func settle() { syscall.Sync() }
