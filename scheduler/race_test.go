//go:build race

package scheduler

// The core is single-threaded: the race detector finds nothing in the
// property tests' loops, only slows them (about 7×). Run fewer seeds.
func init() { seedScale = 4 }
