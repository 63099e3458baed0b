package integration

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A session survives any number of AM faults spread over time. With 2
// attempts allowed and failures counting for 5s, its AM dies three
// times by SIGKILL, then once by its NodeManager's stop (SIGTERM, then
// SIGKILL), each past the interval since the last: YARN starts attempts
// 2 to 5, and each, judging by the RM's record, knows it is not the
// last. An attempt that took itself for the last (as attempt 2 did by
// its number alone) answered the NodeManager's SIGTERM by unregistering
// the session. The client's job succeeds, the tasks
// running at each fault run on to succeed (no second start), and no
// task that had succeeded runs again.
func TestFaultSessionAMSurvivesFaultsSpreadOverTime(t *testing.T) {
	c := testcluster.Get(t)
	const validity = 5 * time.Second
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	id := u.startSession("--master", "yarn", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.instances=3",
		"--conf", "spindle.yarn.maxAppAttempts=2", "--conf", fmt.Sprintf("spindle.yarn.am.attemptFailuresValidityInterval=%v", validity))
	const tasks = 120
	dir := t.TempDir()
	client, out := u.start("submit", "--session", id, recordingSpec(t, dir, "spread", tasks, 3))
	clientDone := make(chan error, 1)
	go func() { clientDone <- client.Wait() }()
	rm := applicationClient(t, c)
	var faults []time.Time
	for attempt := int32(1); attempt <= 4; attempt++ {
		after := time.Time{}
		if len(faults) > 0 {
			// Past the interval, and the RM's record of the fault (its
			// finish time, a heartbeat or so after it) with it.
			after = faults[len(faults)-1].Add(validity + 2*time.Second)
		}
		// The attempt has run tasks to their success, so that its
		// executors are in its journal (a kept container the journal
		// does not name yet is released and its tasks run again,
		// docs/reliability.md), with a dozen or more still to succeed.
		waitFor(t, 2*time.Minute, fmt.Sprintf("attempt %d to run tasks, past the interval since the last fault", attempt), func() bool {
			select {
			case err := <-clientDone:
				t.Fatalf("the client ended (%v) before fault %d; want its job to go on\n%s", err, attempt, out.String())
			default:
			}
			runs := readRunsIfAny(t, dir)
			return time.Now().After(after) && currentAttempt(t, rm, id) == attempt &&
				succeededSince(runs, faults) >= 6 && len(finished(runs, tasks)) >= 12
		})
		faults = append(faults, time.Now())
		if attempt <= 3 {
			syscall.Kill(amProcess(t, id), syscall.SIGKILL)
		} else {
			stopAMContainer(t, id)
		}
	}
	select {
	case err := <-clientDone:
		if err != nil || !strings.Contains(out.String(), "job spread SUCCEEDED") {
			t.Fatalf("the client: %v; want its job to succeed across the faults\n%s", err, out.String())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the client still follows its job 3m after the last fault\n%s", out.String())
	}
	if got := currentAttempt(t, rm, id); got != 5 {
		t.Errorf("the session is in attempt %d; want 5, one a fault", got)
	}
	runs := readRuns(t, dir)
	if missing := finished(runs, tasks); len(missing) > 0 {
		t.Errorf("tasks %v never succeeded", missing)
	}
	if twice := twiceAtOnce(runs, time.Now()); len(twice) > 0 {
		t.Errorf("tasks ran twice at once:\n%s", strings.Join(twice, "\n"))
	}
	for i, fault := range faults {
		if again := succeededAgain(runs, fault); len(again) > 0 {
			t.Errorf("fault %d: tasks that had succeeded before it ran again:\n%s", i+1, strings.Join(again, "\n"))
		}
		running, broken := keptRunning(runs, fault)
		if running == 0 || len(broken) > 0 {
			t.Errorf("fault %d: %d tasks were running; want some, each running on to succeed, its only run:\n%s", i+1, running, strings.Join(broken, "\n"))
		}
		since := "the session's start"
		if i > 0 {
			since = fmt.Sprintf("%.1fs after fault %d", fault.Sub(faults[i-1]).Seconds(), i)
		}
		t.Logf("fault %d, %s: %d tasks running, kept; %s", i+1, since, running, figures(runs, tasks, fault, time.Now()))
	}
}

// succeededSince is how many runs ended "ok" after the last of faults
// (all of them with none).
func succeededSince(runs []taskRun, faults []time.Time) int {
	n := 0
	for _, r := range runs {
		if r.How == "ok" && (len(faults) == 0 || r.End.After(faults[len(faults)-1])) {
			n++
		}
	}
	return n
}
