//go:build !unix

package main

import "os"

// peakRSS is 0 where a process's peak memory is not reported.
func peakRSS(ps *os.ProcessState) int64 { return 0 }

// settle does nothing where there is no sync.
func settle() {}
