package integration

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A work-preserving RM restart mid-job: the restarted RM has forgotten
// the application's asks and has the AM register again; the AM does,
// sends its open ask anew, and the job goes on with the same executors
// to succeed, no task running again.
func TestFaultRMRestartKeepsTheJobGoing(t *testing.T) {
	c := testcluster.GetWith(t, faultCluster)
	rmFault(t, c, "fault-rm-restart", c.RestartRM)
}

// The same through a failover of an HA pair: the standby RM becomes
// active from the state store, and the AM's client finds it.
func TestFaultRMFailoverKeepsTheJobGoing(t *testing.T) {
	c := testcluster.GetWith(t, testcluster.Config{RMs: 2})
	rmFault(t, c, "fault-rm-failover", c.FailoverRM)
}

// rmFault brings fault on c's ResourceManager under a job of 32 tasks of
// 2 s. Five executors are wanted and four fit, so one ask stays open all
// along: the RM after the fault holds it only if the AM sent it again.
// The tasks are held at their start until the RM holds it again: an AM
// that finds the RM away waits a retry interval (30 s) before it tries
// again, and on a loaded machine the job would have run out of pending
// tasks by then, and so of asks.
func rmFault(t *testing.T, c *testcluster.Cluster, name string, fault func(testing.TB) string) {
	j, release := startHeldFaultJob(t, c, name, 32, 2, "--conf", "spindle.executor.instances=5")
	before := openAsks(t, c, j.app)
	if len(before) != 1 || before[0].NumContainers != 1 {
		t.Fatalf("before the fault the RM holds asks %+v for %s; want one, for the fifth executor", before, j.app)
	}
	start := time.Now()
	fault(t)
	var after []rmAsk
	// An AM whose allocate found the RM away tries again after
	// yarn.resourcemanager.connect.retry-interval.ms (30s, docs/yarn.md):
	// the wait allows one such interval and the restart's own time.
	waitFor(t, time.Minute, "the RM to hold the fifth executor's ask again, sent anew", func() bool {
		after = openAsks(t, c, j.app)
		// A new id: the AM's own, sent after the fault (an AM container's
		// request, of a next attempt, is -1).
		return len(after) == 1 && after[0].NumContainers == 1 && after[0].AllocationRequestID > before[0].AllocationRequestID
	})
	release()
	runs := j.succeeds(2*time.Minute, time.Time{})
	t.Logf("%s: the job ended %v after the fault; the RM's ask %+v before it, %+v after; %s", name, time.Since(start).Round(time.Millisecond),
		before[0], after[0], figures(runs, j.n, start, time.Now()))
	// Work-preserving: the executors and their tasks ran on.
	if len(runs) != j.n {
		for _, r := range runs {
			t.Log(r)
		}
		t.Errorf("%d runs of %d tasks; want each to run once", len(runs), j.n)
	}
	if log := j.amLog(); !strings.Contains(log, `msg="registered again with the ResourceManager, which had forgotten the application`) {
		t.Errorf("the AM log does not say it registered again:\n%s", log)
	}
}

// rmAsk is one of an application's outstanding ResourceRequests as the
// RM's REST API shows them.
type rmAsk struct {
	AllocationRequestID flexInt `json:"allocationRequestId"`
	NumContainers       flexInt `json:"numContainers"`
}

// openAsks reads application app's outstanding asks from the active RM.
func openAsks(t *testing.T, c *testcluster.Cluster, app string) []rmAsk {
	t.Helper()
	var got struct {
		App struct {
			ResourceRequests oneOrMany[rmAsk] `json:"resourceRequests"`
		} `json:"app"`
	}
	resp, err := http.Get("http://" + activeRMWeb(t, c) + "/ws/v1/cluster/apps/" + app)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatalf("decoding %s's report (%s): %v", app, resp.Status, err)
	}
	return got.App.ResourceRequests
}

// activeRMWeb is the web address of c's active RM (of an HA pair, the
// one haState says is ACTIVE).
func activeRMWeb(t *testing.T, c *testcluster.Cluster) string {
	t.Helper()
	if len(c.RMWebAddresses) < 2 {
		return c.RMWebAddress
	}
	for i, s := range strings.Fields(haStates(t, c)) {
		if s == "ACTIVE" {
			return c.RMWebAddresses[i]
		}
	}
	t.Fatalf("no RM of %v is active", c.RMWebAddresses)
	return ""
}
