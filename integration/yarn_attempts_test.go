package integration

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A SIGTERM to the ApplicationMaster before its last attempt (the
// NodeManager stopping its container: a shutdown, a decommission, a
// preemption) is not a cancel: the AM leaves without unregistering, YARN
// starts a second attempt, and the job succeeds there
// (fault_am_restart_test.go checks that attempt 2 keeps attempt 1's
// work).
// Named outside the YARN suite: attempts behave alike on every version.
func TestAMTerminatedBeforeItsLastAttemptLeavesTheJobToTheNext(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: terminated\nstages:\n  - {name: s, tasks: 4, command: \"sleep 3\"}\n")
	cmd, out := startOn(t, c, append(append([]string{}, yarnArgs...), spec)...)
	defer cmd.Process.Kill()
	var app string
	waitFor(t, time.Minute, "the application's executors to run its tasks", func() bool {
		m := submittedID.FindStringSubmatch(out.String())
		if m == nil {
			return false
		}
		app = m[1]
		executors := 0
		for _, pid := range applicationProcesses(app) {
			if strings.Contains(cmdline(pid), "sleep 3") {
				executors++
			}
		}
		return executors > 0
	})
	syscall.Kill(amProcess(t, app), syscall.SIGTERM)
	if _, err := exited(t, cmd, 2*time.Minute); err != nil || !strings.Contains(out.String(), app+" FINISHED") {
		t.Fatalf("the submitter: %v; want the job to succeed in a second attempt\n%s", err, out.String())
	}
	checkAttempt(t, c, app, 2)
}
