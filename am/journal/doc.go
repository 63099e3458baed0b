// Package journal is what an ApplicationMaster attempt leaves for the
// next: the application's jobs and their specs, the tasks that
// succeeded, the failures counted against the others, the jobs that
// ended, and the executors it ran with their rejoin addresses
// (docs/reliability.md). With spindle.yarn.am.keepContainers YARN keeps
// the executors' containers when an attempt dies; the next attempt reads
// the journal from the staging directory, re-submits the jobs that had
// not ended, marks their finished tasks done, counts their tasks'
// failures again and dials the executors it adopts.
//
// The journal is a sequence of segments, each a file written whole (a
// reader sees all of one or none of it: Store's duty). A segment is a
// header line and entries, one per line, each with its checksum:
//
//	spindle-journal 1 APPLICATION_ID snapshot|delta
//	CRC32C_HEX JSON
//	...
//
// A snapshot holds the whole state; a delta what changed since the
// segment before it. Reading starts at the last snapshot and applies the
// deltas after it in order; a writer writes a snapshot every so many
// deltas and removes what came before it, so the journal stays the size
// of the live state, not of the application's history.
//
// A journal that fails a checksum, is cut short, names another
// application or says something impossible (a task of a job it never
// submitted) is refused whole, with the segment and line: a half-applied
// journal would run work twice or lose it.
package journal
