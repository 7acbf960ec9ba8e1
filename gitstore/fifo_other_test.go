//go:build !unix

package gitstore_test

import "errors"

// mkfifo fails where there are no FIFOs (the suite runs on Unix; this only
// lets it build elsewhere).
func mkfifo(path string) error { return errors.New("no FIFOs on this system") }
