// Package journal is what an ApplicationMaster attempt leaves for the
// next: the application's jobs and their specs, the tasks that
// succeeded, the failures counted against the others, the jobs that
// ended, the executors it ran with their rejoin addresses, and those of
// them draining (docs/reliability.md). With spindle.yarn.am.keepContainers YARN keeps
// the executors' containers when an attempt dies; the next attempt reads
// the journal from the staging directory, re-submits the jobs that had
// not ended, marks their finished tasks done, counts their tasks'
// failures again and dials the executors it adopts, going on draining
// those that drained.
//
// The journal is a sequence of segments, each a file written whole (a
// reader sees all of one or none of it: Store's duty). A segment is a
// header line and entries, one per line, each with its checksum:
//
//	spindle-journal 2 APPLICATION_ID snapshot|delta
//	CRC32C_HEX JSON
//	...
//
// A snapshot holds the whole state; a delta what changed since the
// segment before it. Each AM attempt writes a chain of its own, under
// names that carry its attempt (a0000000002-0000000017.seg), starting
// with a snapshot of what it took over. Reading takes the newest
// attempt's chain, from its last snapshot, and the deltas after it in
// order; an older attempt's segments, even written later by an AM cut
// off from YARN but not from the store, are never read with it. A
// writer writes a snapshot every so many deltas and then removes what
// came before it, the earlier attempts' included, so the journal stays
// the size of the live state, not of the application's history: a
// stage's succeeded tasks are a set (Tasks), a few bytes when they ran
// in order and at most a byte per 6 tasks whatever their order.
//
// Writes are group-committed: a writer starts at most SegmentsPerSecond
// segments a second, each with everything appended meanwhile, and
// writes none longer than MaxSegmentBytes, which a reader would refuse,
// nor than a Limited store holds.
//
// Load tells two failures apart. A store that cannot be listed or read
// is ErrUnreadable: the caller may try again. A journal that fails a
// checksum, is cut short, names another application or says something
// impossible (a task of a job it never submitted) is ErrRefused, whole,
// with the segment and line: a half-applied journal would run work twice
// or lose it.
package journal
