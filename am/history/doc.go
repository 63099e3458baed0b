// Package history is what people see of an application, live and after
// it ended: the events its driver records (event.go, the event log's
// format, defined here once), the Store they build (jobs, stages, tasks
// and their attempts, gangs' runs, pools, executors, the application's
// settings and a timeline, bounded by Limits), and the event log that
// keeps them (Writer, rolled segments compacted into a snapshot of the
// Store) for `spindle history` to build the same Store from (Load).
//
// The driver's loop appends each turn's events with Record and never
// waits: the Store takes its lock once per batch, and the Writer writes
// from its own goroutine. The web UI (am/webui) reads the Store.
//
// The caller's duties:
//   - record events in the order they happened, each with its time;
//   - run the Writer (Writer.Run) until the application ends, then let it
//     write what is pending;
//   - read only through the Store's queries: they return copies.
package history
