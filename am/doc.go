// Package am is Spindle's driver: the ApplicationMaster on YARN, and the
// same code in local mode.
//
// One event loop owns the AM's core (am/core: the scheduler, dynamic
// allocation and, on YARN, the asks); executor connections, session
// clients, RM responses and NodeManager calls run in goroutines that feed
// it events (a sealed interface: each kind feeds itself to the core), so
// the loop never blocks on the network. It writes to no socket: what it
// sends an executor it posts to that connection's outbox, whose own writer
// sends it, and an executor that stops reading is cut off (outbox.go).
// Status reports waiting together make one round of placement; launches go
// out batched per executor over executor/wire. An executor whose
// connection ends, whose heartbeats stop or that stops reading is lost:
// its running tasks run again elsewhere without counting against them.
package am
