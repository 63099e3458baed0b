//go:build !race

package faultsim

const raceDetector = false
