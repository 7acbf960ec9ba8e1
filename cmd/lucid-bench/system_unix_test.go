//go:build unix

package main

import (
	"os"
	"os/exec"
	"testing"
)

// touchEnv makes the test binary, started again, a process that touches
// touchBytes of memory and exits.
const touchEnv, touchBytes = "LUCID_BENCH_TEST_TOUCH", 64 << 20

func init() {
	if os.Getenv(touchEnv) != "" {
		b := make([]byte, touchBytes)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		os.Exit(int(b[len(b)-4096]) - 1)
	}
}

// peakRSS reads ru_maxrss, which Linux gives in kilobytes and a Mac in
// bytes: a process that touched 64 MiB reads as at least that and well
// under 4 GiB on both (the wrong unit is off by 1024 either way).
func TestPeakRSSIsInBytes(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), touchEnv+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the child: %v %s", err, out)
	}
	if got := peakRSS(cmd.ProcessState); got < touchBytes || got > 4<<30 {
		t.Fatalf("a process that touched %d MiB peaked at %d bytes by peakRSS", touchBytes>>20, got)
	}
}
