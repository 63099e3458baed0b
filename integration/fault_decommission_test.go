package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A Spindle job's executors fill both nodes; the node that does not run
// the AM is gracefully decommissioned with a timeout shorter than its
// tasks. The AM drains the node's executors: the grace period before the
// timeout (less an allocate interval) their tasks find SPINDLE_PREEMPTED=1
// in $SPINDLE_PREEMPTED_FILE at their SIGTERM, and the AM releases the
// containers before the timeout, rather than the RM killing them there.
// The tasks run again on the other node, uncounted, and the job succeeds.
// The node is replaced after (start-nm), for the tests that share the
// cluster.
func TestFaultDecommissionDrainsBeforeTheTimeout(t *testing.T) {
	c := testcluster.GetWith(t, testcluster.Config{Preemption: true})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	const n, secs = 8, 10
	const timeout, grace, allocateInterval = 8 * time.Second, 3 * time.Second, time.Second
	executors := c.NodeManagers * c.GPUsPerNode
	spec := recordingSpec(t, dir, "fault-decommission", n, secs)
	cmd, out := startOn(t, c, "submit", "--master", "yarn", "--conf", fmt.Sprintf("spindle.executor.instances=%d", executors),
		"--executor-gpus", "1", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.task.preemption.gracePeriod=3s", spec)
	defer cmd.Process.Kill()
	waitStarts(ctx, t, dir, executors, out)
	app := submittedID.FindStringSubmatch(out.String())[1]

	victim := (nodeManagerOf(t, procCwd(t, amProcess(t, app))) + 1) % c.NodeManagers
	decommissioned := time.Now()
	node := between(t, c.Decommission(t, victim, timeout), "node ", " (")
	t.Cleanup(func() { replaceNodeManager(t, c, victim) })
	if err := waitExit(ctx, cmd); err != nil {
		t.Fatalf("the job did not succeed: %v\n%s", err, out.String())
	}

	runs := readRuns(t, dir)
	drained := map[string]bool{}
	for _, r := range runs {
		if nodeManagerOf(t, containerLogDir(t, c, app, r.Container)) != victim {
			if r.How != "ok" {
				t.Errorf("%s, on the node that stayed: want it to end ok", r)
			}
			continue
		}
		drained[r.Container] = true
		t.Logf("%s: told %v after the decommissioning", r, r.End.Sub(decommissioned).Round(time.Millisecond))
		// Told when the grace period before the timeout began, less the
		// allocate interval the AM may have heard late.
		early, late := decommissioned.Add(timeout-grace-allocateInterval), decommissioned.Add(timeout)
		if r.How != "term,preempted" || r.End.Before(early) || !r.End.Before(late) {
			t.Errorf("%s on the decommissioned node %s: want it told of the decommissioning (term,preempted) between %s and the timeout %s",
				r, node, early.Format("15:04:05.000"), late.Format("15:04:05.000"))
		}
	}
	if len(drained) == 0 {
		t.Errorf("no task ran on the decommissioned node %s (NodeManager %d):\n%v", node, victim, runs)
	}
	if missing := finished(runs, n); len(missing) > 0 {
		t.Errorf("tasks %v never ended ok: the drained ones did not run again", missing)
	}
	if both := twiceAtOnce(runs, time.Now()); len(both) > 0 {
		t.Errorf("runs of one task at once: %v", both)
	}
	if summary := amSummary(ctx, t, c, app); !strings.Contains(summary, "failed attempts 0,") {
		t.Errorf("the job's summary counts failed attempts; the drained tasks' must not count:\n%s", summary)
	}
	rmReleasedNotKilled(t, c, app, drained)
	t.Logf("node %s decommissioned (timeout %v); %d container(s) of the job on it", node, timeout, len(drained))
	t.Logf("decommissioning: %s", figures(runs, n, decommissioned, time.Now()))
}
