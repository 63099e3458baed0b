package integration

import "testing"

// A local session: pools share its executors by Spark's rules between
// clients' jobs; failures stay with their job; strangers are refused.
func TestLocalSessionSharesByPoolsAndKeepsJobsApart(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[2]", "--conf", "spindle.executor.cores=4", "--conf", "spindle.scheduler.mode=FAIR",
		"--conf", "spindle.scheduler.allocation.file="+writePools(t))
	checkPoolShares(t, u, id)
	checkFailuresStayWithTheirJob(t, u, id)
	checkStrangersRefused(t, u, id)
	if out, err := u.run("session", "stop", id); err != nil {
		t.Fatalf("session stop: %v\n%s", err, out)
	}
	if left := applicationProcesses(id); len(left) > 0 {
		t.Errorf("processes of session %s left running: %v", id, left)
	}
}
