// Package executor is the executor process: it obtains its GPU addresses,
// registers with the driver over an authenticated, encrypted channel, runs
// each task as a subprocess in its own process group with exactly its GPUs
// visible (DESIGN.md §Task environment), reports status, and exits when the
// driver is gone.
package executor
