package core

import (
	"fmt"
	"strings"

	"github.com/spindle-yarn/spindle/executor/exitstatus"
	"github.com/spindle-yarn/spindle/scheduler"
)

// containerEnd is what a completed container's status means for its
// executor: the loss to report (TaskFault when the tasks running there
// caused it, so each counts as a failed attempt) and whether it counts as
// an executor failure against its node. The rules are Spark's on YARN:
// preemption and YARN's own kills blame nobody, nor does an executor's
// exit for its lost AM (exitstatus.DriverGone); exceeding the memory limit
// blames the tasks but not the node; any other exit blames both.
func containerEnd(code int32, diagnostics string) (loss scheduler.ExecutorLoss, nodeFault bool) {
	diag := firstLine(diagnostics)
	switch code {
	case ExitSuccess:
		return scheduler.ExecutorLoss{Reason: "exited with status 0"}, false
	case ExitPreempted:
		return scheduler.ExecutorLoss{Reason: "was preempted by YARN"}, false
	case ExitAborted, ExitDisksFailed, ExitKilledByAppMaster, ExitKilledByResourceManager,
		ExitKilledAfterAppCompletion, ExitKilledByContainerScheduler:
		return scheduler.ExecutorLoss{Reason: fmt.Sprintf("was ended by YARN (exit status %d: %s)", code, diag)}, false
	case ExitKilledExceededPMem, ExitKilledExceededVMem:
		return scheduler.ExecutorLoss{TaskFault: true, Reason: fmt.Sprintf(
			"was killed for exceeding its memory limit (exit status %d: %s); consider a larger spindle.executor.memory", code, diag)}, false
	case exitstatus.DriverGone:
		// Its AM went, or was cut off from it: it stopped its tasks and
		// exited, nothing they did (executor/exitstatus).
		return scheduler.ExecutorLoss{Reason: fmt.Sprintf("exited with status %d: it had lost its ApplicationMaster", code)}, false
	case ExitKilledForExcessLogs:
		return scheduler.ExecutorLoss{TaskFault: true, Reason: fmt.Sprintf("was killed for writing too much log (exit status %d)", code)}, false
	}
	why := fmt.Sprintf("exited with status %d", code)
	if code > 128 && code < 128+65 {
		why += fmt.Sprintf(" (signal %d)", code-128)
	}
	if diag != "" {
		why += ": " + diag
	}
	return scheduler.ExecutorLoss{TaskFault: true, Reason: why}, true
}

// firstLine keeps a diagnostic short: YARN's often carry a shell
// transcript and a Java stack trace after the line that matters.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "…"
	}
	return s
}
