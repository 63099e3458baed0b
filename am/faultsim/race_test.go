//go:build race

package faultsim

// raceDetector: the race detector makes a run about six times slower.
const raceDetector = true
