package gitstore

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// EnvInt reads the LUCID_* knob name as a positive whole number; unset,
// not a number, or not above 0 gives def, so that a hook never fails on
// a mistyped knob.
func EnvInt(name string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(os.Getenv(name)))
	if err != nil || n <= 0 {
		return def
	}
	return n
}

// EnvSeconds reads the knob name as a positive number of seconds, as
// EnvInt does.
func EnvSeconds(name string, def time.Duration) time.Duration {
	if n := EnvInt(name, 0); n > 0 {
		return time.Duration(n) * time.Second
	}
	return def
}
