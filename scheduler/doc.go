// Package scheduler is Spindle's task scheduler core: resource profiles,
// executors and their GPU addresses (whole and fractional), jobs as DAGs of
// stages, FIFO and FAIR pools, retries, host exclusion and placement.
//
// It is pure (DESIGN.md §Principles): no I/O, no goroutines, no clock of its
// own. Events and the current time come in as values; decisions (launch task
// T on executor E with addresses A, request N executors of profile P, release
// executor E) go out as values the caller carries out. `make lint` fails if it
// imports networking, process execution, logging, RPC or yarnpb packages.
package scheduler
