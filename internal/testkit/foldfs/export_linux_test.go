package foldfs

// Sweep is sweep, for the test of it.
func Sweep() { sweep() }
