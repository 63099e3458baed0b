package appmaster

import (
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// rmMaxAttemptsKey caps every application's attempts at the RM; YARN's
// default is 2.
const rmMaxAttemptsKey = "yarn.resourcemanager.am.max-attempts"

// The AM container exit statuses YARN blames on itself and never counts
// against an application's attempts (ContainerExitStatus; Hadoop's
// RMAppAttemptImpl.shouldCountTowardsMaxAttemptRetry).
const (
	exitAborted     = -100 // its node was lost, or the container released at an NM resync
	exitDisksFailed = -101
	exitPreempted   = -102
	exitKilledByRM  = -106
)

// exitNotRecorded is ContainerExitStatus.INVALID, an attempt's when it
// failed without its container's end (its AM expired, or was refused):
// it counts.
const exitNotRecorded = -1000

// amExit finds the AM container's exit status in an attempt's
// diagnostics, where the RM writes it (the attempt report has no field
// for it): "AM Container for appattempt_... exited with  exitCode: N".
var amExit = regexp.MustCompile(`AM Container for \S+ exited with\s+exitCode: (-?\d+)`)

// amExitStatus is the exit status an attempt's diagnostics record, or
// exitNotRecorded. The RM keeps only the diagnostics' tail past 64K
// characters (yarn.app.attempt.diagnostics.limit.kc): one cut there
// reads as not recorded, which counts, as YARN's INVALID does.
func amExitStatus(diagnostics string) int {
	m := amExit.FindStringSubmatch(diagnostics)
	if m == nil {
		return exitNotRecorded
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return exitNotRecorded
	}
	return n
}

// attemptRule is how YARN decides whether a failed attempt is followed
// by another (Hadoop's RMAppImpl.AttemptFailedTransition): it counts the
// application's failed attempts, those that ended within Validity of
// now (all of them with no Validity) and not by an exit YARN blames on
// itself, and starts another while the count is below Max. With Max 1
// it never starts another, whatever the exit.
type attemptRule struct {
	// Max is the attempts YARN allows: those the application asked for,
	// or the RM's cap when the ask is outside [1, cap].
	Max      int
	Validity time.Duration
}

func newAttemptRule(a settings.Attempts, rmCap int) attemptRule {
	most := a.Max
	if most <= 0 || most > rmCap {
		most = rmCap
	}
	return attemptRule{Max: most, Validity: a.FailuresValidity}
}

// counts says whether YARN counts the ended attempt r against Max at
// now: it ended within Validity (an attempt with no finish time counts,
// as YARN has it), and not by an exit YARN blames on itself.
func (rule attemptRule) counts(r *hadoopyarn.ApplicationAttemptReportProto, now time.Time) bool {
	if rule.Validity > 0 && r.GetFinishTime() > 0 && time.UnixMilli(r.GetFinishTime()).Before(now.Add(-rule.Validity)) {
		return false
	}
	switch amExitStatus(r.GetDiagnostics()) {
	case exitAborted, exitDisksFailed, exitPreempted, exitKilledByRM:
		return false
	}
	return true
}

// lastIfItFails says whether YARN would end the application were the
// attempt own to fail at now, its failure counting (the AM cannot know
// its own exit status: a signal may be a preemption, which would not
// count, or anything else), given the RM's record of the application's
// attempts; counted is how many of the others count.
func (rule attemptRule) lastIfItFails(own int32, record []*hadoopyarn.ApplicationAttemptReportProto, now time.Time) (last bool, counted int) {
	for _, r := range record {
		if r.GetApplicationAttemptId().GetAttemptId() != own && rule.counts(r, now) {
			counted++
		}
	}
	return rule.knownLast() || counted+1 >= rule.Max, counted
}

// knownLast says whether no exit of any attempt gets the application
// another: YARN allows it one attempt.
func (rule attemptRule) knownLast() bool { return rule.Max <= 1 }

// String says when YARN ends the application, for the AM's log.
func (rule attemptRule) String() string {
	if rule.Validity > 0 {
		return fmt.Sprintf("YARN ends the application at %d failed attempts within %v", rule.Max, rule.Validity)
	}
	return fmt.Sprintf("YARN ends the application at %d failed attempts", rule.Max)
}
