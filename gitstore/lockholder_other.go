//go:build !linux

package gitstore

// LockHolder names the process that holds the lock on path where the
// system says; here it does not, and the error suggests lsof.
func LockHolder(path string) string { return "" }
