// Package exitstatus names the exit statuses of an executor's process
// that mean something to its ApplicationMaster, which reads them in its
// container's completed status (am/core/blame.go). Any other non-zero
// status is a failure the AM blames on the tasks that ran there.
package exitstatus

// DriverGone is an executor's exit once its ApplicationMaster went: its
// connection ended and no next attempt dialled it within its rejoin
// timeout (spindle.yarn.executor.rejoinTimeout; at once where it has
// none), so it stopped its tasks and exited. Its AM may still live, cut
// off from it: nothing its tasks did ended it, and the AM blames none of
// them. 75 is sysexits.h's EX_TEMPFAIL: the work may be tried again.
const DriverGone = 75
