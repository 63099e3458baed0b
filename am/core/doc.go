// Package core is the ApplicationMaster's decisions, pure: the scheduler
// core and dynamic allocation, and the AM's own rules around them — the
// executor registry and profiles, executors departing while their exit
// status is awaited, blame by exit status, executors on nodes the RM
// reports gone (node_loss.go), retiring (fine mode) and idle release,
// draining executors whose containers YARN wants back (preempted, or on
// a node being decommissioned; drain.go, its journalling drain_journal.go),
// the AM handing over when its own node is decommissioned (handover.go),
// the ask table (a target per profile
// becoming asks, releases and exclusions), node health, per-node GPU
// and accelerator indices, gangs that start together (gang.go), stage
// shapes (shape.go), taking over an earlier attempt's work (resume.go)
// and its containers (kept.go), and the ranges each AM attempt numbers
// jobs, stages and task attempts in (ids.go).
//
// Like scheduler/ it does no I/O, starts no goroutine and reads no clock:
// inputs carry now, and Ready returns one batch of actions and the time
// the core next needs a call. `make lint` (tools/puritycheck) fails if it
// imports os, net, sync, logging, RPC or yarnpb packages, reads the clock
// or starts a goroutine. The same inputs at
// the same times give the same actions, so a scripted scenario
// (coretest) or `spindle sim` runs exactly the product's rules.
//
// The caller — the AM's event loop (package am), local mode's driver, the
// simulator — owns a Core from one goroutine and has these duties
// (docs/architecture.md, "The loop"):
//
//  1. An AM attempt going on with an earlier one's work hands it over
//     before the first Ready: Resume for each journalled job, in id
//     order; NumberFrom, so that new jobs take ids none of its jobs had;
//     Kept with the containers YARN kept for it, journalled or not (and
//     again with those an allocate names later). Config.AMAttempt says
//     which attempt it is, whatever the journal says.
//  2. Feed it every input as it happens, with the time: Submit, Cancel,
//     and Stop (a session's end); an executor's Register (refusing it
//     with the error returned), Statuses, Seen, ConnectionEnded, and
//     PortPicked with the port its gang's rank 0 asked it for; Rejected
//     for a connection refused before registering; on YARN, Allocated
//     with the RM's answer, LaunchFailed when a NodeManager would not
//     start a container, KeptStopped when one says a container of
//     StopKept is gone, Resynced after registering again with an RM
//     that forgot the application, Fail when the application cannot go
//     on.
//  3. After a burst of inputs (all those waiting, so that many reports
//     make one round of placement), call Ready(now).
//  4. Carry out the batch in its order: ask for the PortRequests'
//     ports, feeding each answer back; send Launches (batched per
//     executor), Kills and Drains; Disconnect executors; start
//     containers; have the NodeManagers stop StopKept's; send the
//     Allocate, feeding its answer back; journal GangTasksDone,
//     TaskFailures, DrainsStarted and Undrained; on Handover, write the
//     journal out whole, then call ReleaseAM; report Finished jobs; tell the executors in JobsEnded
//     (a session's) which of their jobs ended; log the Notices.
//  5. Sleep until Ready.Next or the next input, whichever comes first,
//     and call Ready again then.
//  6. On Unregister, carry out the rest of that batch, unregister from
//     the RM with it, and stop. On HandedOver, stop without
//     unregistering: the application's next attempt goes on.
package core
