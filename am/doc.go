// Package am is Spindle's driver: the ApplicationMaster on YARN, and the
// same code in local mode.
//
// One event loop owns the scheduler core (and, on YARN, dynamic allocation
// and the RM heartbeat); executor connections, RM responses and NodeManager
// calls run in goroutines that feed events to it, so the loop never blocks
// on the network. Status reports waiting together make one round of
// placement; launches go out batched per executor over executor/wire. An
// executor whose connection ends or whose heartbeats stop is lost: its
// running tasks run again elsewhere without counting against them.
package am
