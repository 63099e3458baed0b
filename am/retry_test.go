package am_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A failed task runs again when its backoff ends, not at the driver's
// next one-second tick: the driver wakes at the scheduler's Wakeup.
func TestDriverRetriesWhenTheBackoffEnds(t *testing.T) {
	const backoff = 200 * time.Millisecond
	started := time.Now()
	d := amtest.StartSpec(t, "name: j\nstages: [{name: s, tasks: 1, command: [run], maxAttempts: 2}]",
		amtest.WithCore(func(c *core.Config) { c.Scheduler = scheduler.Config{RetryBackoff: backoff} }))
	e := d.Register(t, "e1")
	ls := e.Launches(t)
	failed := time.Now()
	if since := failed.Sub(started); since > 300*time.Millisecond {
		// The tick would come before the bound below: nothing to tell.
		t.Skipf("the first launch took %v; too slow to tell a wakeup from a tick", since)
	}
	e.Report(t, amtest.Failed(ls[0], "exit status 1", 1))
	ls = e.Launches(t)
	waited := time.Since(failed)
	if ls[0].GetAttempt() != 1 || waited < backoff || waited > backoff+400*time.Millisecond {
		t.Fatalf("attempt %d launched %v after the failure, want attempt 1 after the %v backoff, well before the tick", ls[0].GetAttempt(), waited, backoff)
	}
	e.Report(t, amtest.Succeeded(ls[0]))
	if sum := d.Wait(t).Summary; !sum.Succeeded || sum.Attempts != 2 || sum.Failures != 1 || sum.Retries != 1 {
		t.Fatalf("summary %+v, want success after 2 attempts, 1 failed, 1 retry", sum)
	}
}

// A template that fails for one task fails the job at once, naming the
// stage, the task and the template's error; the attempt counts as an
// attempt and a failed one, and is never sent to an executor.
func TestDriverTemplateErrorFailsTheJobWithoutRetrying(t *testing.T) {
	d := amtest.StartSpec(t, `name: j
stages:
  - name: s
    tasks: 2
    maxAttempts: 4
    command: ["echo", "{{index \"a\" .Index}}"]
`)
	e := d.Register(t, "e1")
	ls := e.Launches(t)
	if len(ls) != 1 || ls[0].GetTaskIndex() != 0 {
		t.Fatalf("launches %v, want task 0", ls)
	}
	e.Report(t, amtest.Succeeded(ls[0]))
	sum := d.Wait(t).Summary
	if sum.Succeeded || !strings.Contains(sum.Reason, `task 1 of stage "s"`) || !strings.Contains(sum.Reason, "not retried") ||
		!strings.Contains(sum.Reason, `command[1]: "{{index \"a\" .Index}}": template: `) || !strings.Contains(sum.Reason, "index out of range") {
		t.Fatalf("reason %q, want task 1 of stage s failed by its template, not retried", sum.Reason)
	}
	if sum.Attempts != 2 || sum.Failures != 1 || sum.Retries != 0 {
		t.Fatalf("attempts %d, failed %d, retries %d; want 2, 1 and 0", sum.Attempts, sum.Failures, sum.Retries)
	}
}
