// Package am is Spindle's driver loop: Driver, the one goroutine that
// owns the AM's core (am/core: the scheduler, dynamic allocation and, on
// YARN, the asks), as the ApplicationMaster runs it on YARN and local
// mode runs it on this machine. Its shells set it up and run it:
// deploy/appmaster (registering with the RM, the tracking page,
// unregistering) and deploy/localmode (executor processes, the UI on a
// loopback port). They give it a Config (New), its history
// (StartHistory) and, on YARN, the RM and NodeManagers (YARN) and what
// an earlier attempt left (Resumption), and serve its Status (am/webui).
//
// Executor connections, session clients, RM responses and NodeManager
// calls run in goroutines that feed the loop events (a sealed interface,
// every kind in events.go: each feeds itself to the core), so the loop
// never blocks on the network. It writes to no socket: what it sends an
// executor it posts to that connection's outbox, whose own writer sends
// it, and an executor that stops reading is cut off (outbox.go). Status
// reports waiting together make one round of placement; launches go out
// batched per executor over executor/wire. An executor whose connection
// ends, whose heartbeats stop or that stops reading is lost: its running
// tasks run again elsewhere without counting against them. The loop
// talks to the RM from rm*.go, serves a session's clients from
// session.go, journals for the next attempt and takes over from the ones
// before (journalling.go, resume.go, kept.go; what, package handover
// decides) and hands its history on once a turn (observing.go).
package am
