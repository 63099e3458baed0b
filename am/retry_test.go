package am

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// runSpec runs the job spec text on a new driver with cfg; it returns the
// summary when the job ends.
func runSpec(t *testing.T, cfg Config, spec string) (*Driver, <-chan core.Summary) {
	t.Helper()
	job, err := jobspec.Parse([]byte(spec), "job.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	return runJob(t, cfg, job)
}

// launches registers a one-core executor with d, or reads on from conn,
// until the driver sends tasks; it returns them.
func launches(t *testing.T, d *Driver, conn *wire.Conn) (*wire.Conn, []*wire.Launch) {
	t.Helper()
	if conn == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var err error
		if conn, err = wire.Dial(ctx, "tcp", d.Addr(), testSecret); err != nil {
			t.Fatal(err)
		}
		conn.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: "e1", Host: "h1", Cores: 1}}})
	}
	for {
		m, err := conn.Recv()
		if err != nil {
			t.Fatalf("executor: %v", err)
		}
		if b := m.GetLaunchBatch(); b != nil {
			return conn, b.GetLaunches()
		}
	}
}

func report(conn *wire.Conn, l *wire.Launch, state wire.Status_State, reason string) {
	conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: []*wire.Status{
		{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: state, Reason: reason},
	}}}})
}

// A failed task runs again when its backoff ends, not at the driver's
// next one-second tick: the driver wakes at the scheduler's Wakeup.
func TestDriverRetriesWhenTheBackoffEnds(t *testing.T) {
	const backoff = 200 * time.Millisecond
	started := time.Now()
	d, done := runSpec(t, Config{Core: core.Config{Scheduler: scheduler.Config{RetryBackoff: backoff}}},
		"name: j\nstages: [{name: s, tasks: 1, command: [run], maxAttempts: 2}]")
	conn, ls := launches(t, d, nil)
	failed := time.Now()
	if since := failed.Sub(started); since > 300*time.Millisecond {
		// The tick would come before the bound below: nothing to tell.
		t.Skipf("the first launch took %v; too slow to tell a wakeup from a tick", since)
	}
	report(conn, ls[0], wire.Status_FAILED, "exit status 1")
	_, ls = launches(t, d, conn)
	waited := time.Since(failed)
	if ls[0].GetAttempt() != 1 || waited < backoff || waited > backoff+400*time.Millisecond {
		t.Fatalf("attempt %d launched %v after the failure, want attempt 1 after the %v backoff, well before the tick", ls[0].GetAttempt(), waited, backoff)
	}
	report(conn, ls[0], wire.Status_SUCCEEDED, "")
	if sum := <-done; !sum.Succeeded || sum.Attempts != 2 || sum.Failures != 1 || sum.Retries != 1 {
		t.Fatalf("summary %+v, want success after 2 attempts, 1 failed, 1 retry", sum)
	}
}

// A template that fails for one task fails the job at once, naming the
// stage, the task and the template's error; the attempt counts as an
// attempt and a failed one, and is never sent to an executor.
func TestDriverTemplateErrorFailsTheJobWithoutRetrying(t *testing.T) {
	d, done := runSpec(t, Config{}, `name: j
stages:
  - name: s
    tasks: 2
    maxAttempts: 4
    command: ["echo", "{{index \"a\" .Index}}"]
`)
	conn, ls := launches(t, d, nil)
	if len(ls) != 1 || ls[0].GetTaskIndex() != 0 {
		t.Fatalf("launches %v, want task 0", ls)
	}
	report(conn, ls[0], wire.Status_SUCCEEDED, "")
	var sum core.Summary
	select {
	case sum = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the job did not end")
	}
	if sum.Succeeded || !strings.Contains(sum.Reason, `task 1 of stage "s"`) || !strings.Contains(sum.Reason, "not retried") ||
		!strings.Contains(sum.Reason, `command[1]: "{{index \"a\" .Index}}": template: `) || !strings.Contains(sum.Reason, "index out of range") {
		t.Fatalf("reason %q, want task 1 of stage s failed by its template, not retried", sum.Reason)
	}
	if sum.Attempts != 2 || sum.Failures != 1 || sum.Retries != 0 {
		t.Fatalf("attempts %d, failed %d, retries %d; want 2, 1 and 0", sum.Attempts, sum.Failures, sum.Retries)
	}
}
