// Package sim replays a workload trace through Spindle's real scheduler core
// and dynamic allocation against a simulated clock and cluster: containers
// arrive after an allocation delay, executors start after a start-up delay,
// and the cluster grants at most its capacity; the simulated RM is
// am/core/fakerm, the one coretest's scripts run against. Hours of
// simulated time run in seconds, and the same input gives the same output
// to the byte.
//
// A trace is CSV, one row per stage (docs/dynamic-allocation.md):
//
//	submit_s,job,stage,tasks,task_s,cpus,gpus[,pool][,after]
//
// where after lists earlier stages of the same job, separated by ';'.
// Rows, the input, times, tasks and work are bounded (trace.go), as are
// the delays and executors a run takes (engine.go): past a bound is an
// error, never a wrapped time or an unbounded read.
//
// Each pool's figures (pools.go) say what it got: its tasks' cpu- and
// GPU-seconds and its mean dominant share while it had tasks waiting, so
// that runs under the two FAIR fairness rules compare.
//
// Asked to (Options.Timeline), a run also records its containers held,
// executors busy and tasks waiting over time, bounded by
// internal/svgplot's Recorder, for spindle sim --plot.
package sim
