package integration

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// A SIGTERM to the ApplicationMaster before its last attempt (the
// NodeManager stopping its container: a shutdown, a decommission, a
// preemption) is not a cancel: the AM leaves without unregistering, YARN
// starts a second attempt, and the job succeeds there. (Attempt 2 runs
// the job again from its start; keeping attempt 1's work is issue 24.)
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
	id, err := yarn.ParseApplicationID(app)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := applicationClient(t, c).GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
	if err != nil {
		t.Fatal(err)
	}
	report := r.GetApplicationReport()
	if n := report.GetCurrentApplicationAttemptId().GetAttemptId(); n != 2 || report.GetFinalApplicationStatus() != hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED {
		t.Errorf("attempt %d ended %v; want attempt 2 SUCCEEDED\n%s", n, report.GetFinalApplicationStatus(), out.String())
	}
}
