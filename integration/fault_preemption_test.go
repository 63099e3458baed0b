package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// A Spindle job in queue default holds every GPU of the cluster; an
// application in queue high asks for its share, and the RM's preemption
// monitor takes two GPUs back from default (docs/minicluster.md,
// PREEMPTION=1: the RM kills what is not released 5 s after naming it).
// The AM drains the containers named: their tasks find
// SPINDLE_PREEMPTED=1 in $SPINDLE_PREEMPTED_FILE at their SIGTERM, and
// the AM releases the containers itself, before the RM's deadline: the
// RM records them released by the application, not killed for
// preemption, and no completion the AM hears of is -102. The tasks run
// again elsewhere, not counted as failures, and the job succeeds.
func TestFaultPreemptionDrainsAndReleasesBeforeTheRM(t *testing.T) {
	c := testcluster.GetWith(t, testcluster.Config{Preemption: true})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	const n, secs = 12, 8
	executors := c.NodeManagers * c.GPUsPerNode
	spec := recordingSpec(t, dir, "fault-preemption", n, secs)
	cmd, out := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.yarn.queue=default",
		"--conf", fmt.Sprintf("spindle.executor.instances=%d", executors), "--executor-gpus", "1", "--conf", "spindle.executor.memory=512m",
		"--conf", "spindle.task.preemption.gracePeriod=3s", spec)
	defer cmd.Process.Kill()
	waitStarts(ctx, t, dir, executors, out)

	// high asks for two containers of a GPU: default holds them all.
	high := registerUnmanaged(ctx, t, c, applicationClient(t, c), "spindle-fault-high", "high")
	defer high.finish(ctx, t)
	asked, got := time.Now(), 0
	for asks := high.asks(2, 512, map[string]int64{yarn.GPU: 1}); got < 2; asks = nil {
		got += len(high.heartbeat(ctx, t, asks).GetAllocatedContainers())
		wait(ctx, t, fmt.Sprintf("high to get 2 GPUs from default by preemption (it has %d)", got))
	}
	t.Logf("high got its 2 GPUs %v after asking", time.Since(asked).Round(time.Millisecond))
	if err := waitExit(ctx, cmd); err != nil {
		t.Fatalf("the job in default did not succeed: %v\n%s", err, out.String())
	}
	app := submittedID.FindStringSubmatch(out.String())[1]

	runs := readRuns(t, dir)
	victims := map[string]bool{}
	for _, r := range runs {
		switch r.How {
		case "term,preempted":
			victims[r.Container] = true
			t.Logf("%s: told %v after high asked", r, r.End.Sub(asked).Round(time.Millisecond))
		case "ok":
		default:
			t.Errorf("%s: want every run to end ok, or told of its preemption (term,preempted)", r)
		}
	}
	if len(victims) == 0 {
		t.Errorf("no task was told of a preemption, though high got 2 GPUs:\n%v", runs)
	}
	if missing := finished(runs, n); len(missing) > 0 {
		t.Errorf("tasks %v never ended ok: the preempted ones did not run again", missing)
	}
	if both := twiceAtOnce(runs, time.Now()); len(both) > 0 {
		t.Errorf("runs of one task at once: %v", both)
	}
	summary := amSummary(ctx, t, c, app)
	if !strings.Contains(summary, "failed attempts 0,") {
		t.Errorf("the job's summary counts failed attempts; the preempted tasks' must not count:\n%s", summary)
	}
	amLog := amFile(t, c, app, "am.stderr")
	if strings.Contains(amLog, "exit_status=-102") {
		t.Errorf("the AM heard of a container killed by preemption (-102): it did not release it in time")
	}
	rmReleasedNotKilled(t, c, app, victims)
	t.Logf("%d container(s) of the job told of their preemption: %v", len(victims), victims)
	t.Logf("preemption: %s", figures(runs, n, asked, time.Now()))
}
