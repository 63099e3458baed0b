package appmaster

import (
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// now is the judgement's time in these tests.
var now = time.UnixMilli(1_795_700_000_000)

// failed is the RM's report of attempt n, failed at finish with the AM
// container's exit status exit (exitNotRecorded: the attempt expired).
func failed(n int32, finish time.Time, exit int) *hadoopyarn.ApplicationAttemptReportProto {
	diag := fmt.Sprintf("AM Container for appattempt_1795700000000_0007_%06d exited with  exitCode: %d\n"+
		"Failing this attempt.Diagnostics: [2026-03-24 17:01:00.000]Container killed on request. Exit code is 137\n", n, exit)
	if exit == exitNotRecorded {
		diag = "ApplicationMaster for attempt appattempt_1795700000000_0007_000001 timed out"
	}
	return &hadoopyarn.ApplicationAttemptReportProto{
		ApplicationAttemptId:        &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(n)},
		YarnApplicationAttemptState: hadoopyarn.YarnApplicationAttemptStateProto_APP_ATTEMPT_FAILED.Enum(),
		FinishTime:                  proto.Int64(finish.UnixMilli()),
		Diagnostics:                 proto.String(diag),
	}
}

// ago is d before now.
func ago(d time.Duration) time.Time { return now.Add(-d) }

// running is the RM's report of attempt n, under way.
func running(n int32) *hadoopyarn.ApplicationAttemptReportProto {
	return &hadoopyarn.ApplicationAttemptReportProto{
		ApplicationAttemptId:        &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(n)},
		YarnApplicationAttemptState: hadoopyarn.YarnApplicationAttemptStateProto_APP_ATTEMPT_RUNNING.Enum(),
		FinishTime:                  proto.Int64(0),
	}
}

// An attempt is the last when YARN, counting failures as it does, would
// start no other were it to fail: its own failure and the earlier ones
// that count reach the most attempts YARN allows. Only failures within
// the validity interval count, and never those YARN blames on itself
// (the AM's container preempted, its disks failed, its node lost, the
// RM's kill); an attempt with no recorded exit (it expired) counts. With
// one attempt allowed, each is the last.
func TestLastIfItFailsCountsAsYARNDoes(t *testing.T) {
	hour := time.Hour
	for _, c := range []struct {
		name     string
		rule     attemptRule
		own      int32
		record   []*hadoopyarn.ApplicationAttemptReportProto
		last     bool
		counting int
	}{
		{"the first of 2", attemptRule{Max: 2}, 1, []*hadoopyarn.ApplicationAttemptReportProto{running(1)}, false, 0},
		{"the second of 2", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(5*hour), 1), running(2)}, true, 1},
		{"the second of 3", attemptRule{Max: 3}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), 1), running(2)}, false, 1},
		{"one allowed", attemptRule{Max: 1}, 1, []*hadoopyarn.ApplicationAttemptReportProto{running(1)}, true, 0},
		{"one allowed, a failure forgotten", attemptRule{Max: 1, Validity: time.Minute}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), 1)}, true, 0},
		{"a failure inside the interval", attemptRule{Max: 2, Validity: hour}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(59*time.Minute), 1)}, true, 1},
		{"a failure past the interval", attemptRule{Max: 2, Validity: hour}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(61*time.Minute), 1)}, false, 0},
		{"a failure just at the interval's edge", attemptRule{Max: 2, Validity: hour}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), 1)}, true, 1},
		{"faults spread over time", attemptRule{Max: 2, Validity: 5 * time.Second}, 4,
			[]*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(40*time.Second), -9), failed(2, ago(25*time.Second), 137), failed(3, ago(10*time.Second), 143), running(4)}, false, 0},
		{"faults close together", attemptRule{Max: 3, Validity: 5 * time.Minute}, 4,
			[]*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(40*time.Second), -9), failed(2, ago(25*time.Second), 137), failed(3, ago(10*time.Second), 143), running(4)}, true, 3},
		{"the AM's container preempted", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), exitPreempted)}, false, 0},
		{"its node lost", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), exitAborted)}, false, 0},
		{"its disks failed", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), exitDisksFailed)}, false, 0},
		{"killed by the RM", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), exitKilledByRM)}, false, 0},
		{"killed by the memory limit", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), -104)}, true, 1},
		{"expired, no exit recorded", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(1, ago(hour), exitNotRecorded)}, true, 1},
		{"no finish time, inside any interval", attemptRule{Max: 2, Validity: time.Second}, 2,
			[]*hadoopyarn.ApplicationAttemptReportProto{{ApplicationAttemptId: &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(1)}}}, true, 1},
		{"its own report ignored", attemptRule{Max: 2}, 2, []*hadoopyarn.ApplicationAttemptReportProto{failed(2, ago(hour), 1)}, false, 0},
	} {
		last, counted := c.rule.lastIfItFails(c.own, c.record, now)
		if last != c.last || counted != c.counting {
			t.Errorf("%s: last %v, %d counted; want %v, %d", c.name, last, counted, c.last, c.counting)
		}
	}
}

// YARN allows the attempts the application asked for, or the RM's cap
// when the ask is outside [1, cap] (RMAppImpl).
func TestAttemptRuleTakesTheRMsCap(t *testing.T) {
	for _, c := range []struct{ asked, rmCap, want int }{
		{2, 2, 2}, {10, 2, 2}, {3, 4, 3}, {1, 4, 1}, {0, 4, 4}, {-1, 3, 3},
	} {
		rule := newAttemptRule(settings.Attempts{Max: c.asked, FailuresValidity: time.Hour}, c.rmCap)
		if rule.Max != c.want || rule.Validity != time.Hour {
			t.Errorf("asked %d, cap %d: %+v; want at most %d, the validity kept", c.asked, c.rmCap, rule, c.want)
		}
	}
}

// The exit status is read from where the RM writes it, the first
// "AM Container for ... exitCode: N" of the diagnostics; none recorded,
// or the RM's tail-kept diagnostics cut it off, reads as not recorded.
func TestAMExitStatusFromTheDiagnostics(t *testing.T) {
	for _, c := range []struct {
		diagnostics string
		want        int
	}{
		{"AM Container for appattempt_1_0001_000001 exited with  exitCode: -102\nFailing this attempt.Diagnostics: exitCode: 3", exitPreempted},
		{"AM Container for appattempt_1_0001_000002 exited with  exitCode: 137\n", 137},
		{"...truncated... exitCode: -102\nFailing this attempt.", exitNotRecorded},
		{"", exitNotRecorded},
		{"AM Container for appattempt_1_0001_000001 exited with  exitCode: 99999999999999999999", exitNotRecorded},
	} {
		if got := amExitStatus(c.diagnostics); got != c.want {
			t.Errorf("%q: %d; want %d", c.diagnostics, got, c.want)
		}
	}
}
