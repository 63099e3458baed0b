package am

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Spark's blame on YARN, exit status by exit status.
func TestContainerEndBlame(t *testing.T) {
	for _, c := range []struct {
		status          int32
		taskFault, node bool
		reason          string
	}{
		{yarn.ExitSuccess, false, false, "exited with status 0"},
		{yarn.ExitPreempted, false, false, "preempted"},
		{yarn.ExitAborted, false, false, "ended by YARN (exit status -100"},
		{yarn.ExitDisksFailed, false, false, "ended by YARN (exit status -101"},
		{yarn.ExitKilledByAppMaster, false, false, "ended by YARN (exit status -105"},
		{yarn.ExitKilledByResourceManager, false, false, "ended by YARN (exit status -106"},
		{yarn.ExitKilledAfterAppCompletion, false, false, "ended by YARN (exit status -107"},
		{yarn.ExitKilledByContainerScheduler, false, false, "ended by YARN (exit status -108"},
		{yarn.ExitKilledExceededVMem, true, false, "memory limit (exit status -103"},
		{yarn.ExitKilledExceededPMem, true, false, "memory limit (exit status -104"},
		{yarn.ExitKilledForExcessLogs, true, false, "too much log"},
		{1, true, true, "exited with status 1: first line"},
		{137, true, true, "exited with status 137 (signal 9): first line"},
		{yarn.ExitInvalid, true, true, "exited with status -1000"},
	} {
		st := &hadoopyarn.ContainerStatusProto{ExitStatus: proto.Int32(c.status), Diagnostics: proto.String("first line\nsecond")}
		loss, node := containerEnd(st)
		if loss.TaskFault != c.taskFault || node != c.node || !strings.Contains(loss.Reason, c.reason) || strings.Contains(loss.Reason, "second") {
			t.Errorf("exit status %d: %+v, node fault %v; want TaskFault %v, node fault %v, reason with %q", c.status, loss, node, c.taskFault, c.node, c.reason)
		}
	}
	long := &hadoopyarn.ContainerStatusProto{ExitStatus: proto.Int32(1), Diagnostics: proto.String(strings.Repeat("é", 400))}
	if loss, _ := containerEnd(long); len(loss.Reason) > 400 || !strings.HasSuffix(loss.Reason, "…") {
		t.Errorf("a long diagnostic kept whole: %d bytes", len(loss.Reason))
	}
}
