package core

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/executor/exitstatus"
)

// Spark's blame on YARN, exit status by exit status.
func TestContainerEndBlame(t *testing.T) {
	for _, c := range []struct {
		status          int32
		taskFault, node bool
		reason          string
	}{
		{ExitSuccess, false, false, "exited with status 0"},
		{ExitPreempted, false, false, "preempted"},
		{ExitAborted, false, false, "ended by YARN (exit status -100"},
		{ExitDisksFailed, false, false, "ended by YARN (exit status -101"},
		{ExitKilledByAppMaster, false, false, "ended by YARN (exit status -105"},
		{ExitKilledByResourceManager, false, false, "ended by YARN (exit status -106"},
		{ExitKilledAfterAppCompletion, false, false, "ended by YARN (exit status -107"},
		{ExitKilledByContainerScheduler, false, false, "ended by YARN (exit status -108"},
		{ExitKilledExceededVMem, true, false, "memory limit (exit status -103"},
		{ExitKilledExceededPMem, true, false, "memory limit (exit status -104"},
		{ExitKilledForExcessLogs, true, false, "too much log"},
		{exitstatus.DriverGone, false, false, "exited with status 75: it had lost its ApplicationMaster"},
		{1, true, true, "exited with status 1: first line"},
		{137, true, true, "exited with status 137 (signal 9): first line"},
		{ExitInvalid, true, true, "exited with status -1000"},
	} {
		loss, node := containerEnd(c.status, "first line\nsecond")
		if loss.TaskFault != c.taskFault || node != c.node || !strings.Contains(loss.Reason, c.reason) || strings.Contains(loss.Reason, "second") {
			t.Errorf("exit status %d: %+v, node fault %v; want TaskFault %v, node fault %v, reason with %q", c.status, loss, node, c.taskFault, c.node, c.reason)
		}
	}
	if loss, _ := containerEnd(1, strings.Repeat("é", 400)); len(loss.Reason) > 400 || !strings.HasSuffix(loss.Reason, "…") {
		t.Errorf("a long diagnostic kept whole: %d bytes", len(loss.Reason))
	}
}
