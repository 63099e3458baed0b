package integration

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The node running the AM is gracefully decommissioned with a timeout
// shorter than core.HandoverMargin: the AM hands over at once (issue 33,
// point 8). It writes the journal out, its executors on the node
// draining in it, releases its own container and leaves without
// unregistering; YARN counts no failure for a released container
// (ABORTED, -100) and starts attempt 2 on the other node before the
// node's timeout. Attempt 2 adopts the executors: those on the other
// node run their tasks on, those on the decommissioning node go on
// draining as the journal says. The job succeeds; no task that had
// succeeded runs again.
func TestFaultDecommissionOfTheAMsNodeHandsOver(t *testing.T) {
	c := testcluster.GetWith(t, testcluster.Config{Preemption: true})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	const n, secs = 24, 4
	const timeout = 20 * time.Second
	executors := c.NodeManagers * c.GPUsPerNode
	cmd, out := startOn(t, c, "submit", "--master", "yarn", "--conf", fmt.Sprintf("spindle.executor.instances=%d", executors),
		"--executor-gpus", "1", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.task.preemption.gracePeriod=3s",
		recordingSpec(t, dir, "fault-decommission-am", n, secs))
	defer cmd.Process.Kill()
	waitStarts(ctx, t, dir, executors, out)
	app := submittedID.FindStringSubmatch(out.String())[1]

	amNode := nodeManagerOf(t, procCwd(t, amProcess(t, app)))
	decommissioned := time.Now()
	node := between(t, c.Decommission(t, amNode, timeout), "node ", " (")
	t.Cleanup(func() { replaceNodeManager(t, c, amNode) })
	if err := waitExit(ctx, cmd); err != nil {
		t.Fatalf("the job did not succeed: %v\n%s", err, out.String())
	}
	checkAttempt(t, c, app, 2)
	checkFirstAttemptReleased(t, c, app)
	started, amLog := secondAttempt(t, c, app, amNode)
	if !strings.Contains(amLog, "kept container draining, as the previous attempt left it: its node is being decommissioned") {
		t.Errorf("attempt 2 took no executor of the decommissioning node back on its drain, as the journal says:\n%s", amLog)
	}
	if !started.Before(decommissioned.Add(timeout)) {
		t.Errorf("attempt 2 registered at %s, %v after the decommissioning; want it before the timeout %v", started.Format("15:04:05"), started.Sub(decommissioned), timeout)
	}

	runs := readRuns(t, dir)
	if missing := finished(runs, n); len(missing) > 0 {
		t.Errorf("tasks %v never ended ok", missing)
	}
	if again := succeededAgain(runs, decommissioned); len(again) > 0 {
		t.Errorf("tasks that had succeeded before the handover ran again:\n%s", strings.Join(again, "\n"))
	}
	if twice := twiceAtOnce(runs, time.Now()); len(twice) > 0 {
		t.Errorf("tasks ran twice at once:\n%s", strings.Join(twice, "\n"))
	}
	var other []taskRun // on the node that stayed
	for _, r := range runs {
		if nodeManagerOf(t, containerLogDir(t, c, app, r.Container)) != amNode {
			other = append(other, r)
		}
	}
	if running, broken := keptRunning(other, decommissioned); running == 0 || len(broken) > 0 {
		t.Errorf("%d tasks ran on the other node at the decommissioning; want some, each running on to succeed:\n%s", running, strings.Join(broken, "\n"))
	}
	t.Logf("node %s of the AM decommissioned (timeout %v): attempt 2 registered %v after", node, timeout, started.Sub(decommissioned).Round(time.Second))
	t.Logf("decommissioning the AM's node: %s", figures(runs, n, decommissioned, time.Now()))
}

// checkFirstAttemptReleased checks that app's attempt 1 ended as its AM
// released its own container (exit status -100, ABORTED), which YARN
// does not count against the application.
func checkFirstAttemptReleased(t *testing.T, c *testcluster.Cluster, app string) {
	t.Helper()
	id, err := yarn.ParseApplicationID(app)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := applicationClient(t, c).GetApplicationAttempts(ctx, &hadoopyarn.GetApplicationAttemptsRequestProto{ApplicationId: id})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range r.GetApplicationAttempts() {
		if a.GetApplicationAttemptId().GetAttemptId() == 1 {
			t.Logf("attempt 1: %v: %s", a.GetYarnApplicationAttemptState(), a.GetDiagnostics())
			if !strings.Contains(a.GetDiagnostics(), "exitCode: -100") {
				t.Errorf("attempt 1's diagnostics %q; want its AM container released, exit code -100", a.GetDiagnostics())
			}
			return
		}
	}
	t.Errorf("no attempt 1 on record: %v", r.GetApplicationAttempts())
}

// secondAttempt is when app's attempt 2 registered with the RM, by its
// AM's log, and that log, checking it ran on another NodeManager than
// slot.
func secondAttempt(t *testing.T, c *testcluster.Cluster, app string, slot int) (time.Time, string) {
	t.Helper()
	logs := findUnder(c.Dir, regexp.MustCompile(`/`+regexp.QuoteMeta(app)+`/container_[0-9_]+_02_000001/am\.stderr$`))
	if len(logs) != 1 {
		t.Fatalf("attempt 2's AM log: found %v", logs)
	}
	if nodeManagerOf(t, logs[0]) == slot {
		t.Errorf("attempt 2 ran on NodeManager %d, the decommissioned one", slot)
	}
	log := readFile(t, logs[0])
	m := regexp.MustCompile(`time="([^"]+)"[^\n]*registered with the ResourceManager`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("attempt 2's AM log says it never registered")
	}
	at, err := time.Parse(time.RFC3339, m[1])
	if err != nil {
		t.Fatal(err)
	}
	return at, log
}
