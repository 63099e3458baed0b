package integration

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// TestMiniclusterFaultControls holds minicluster.sh's fault controls
// (docs/minicluster.md, "Fault controls") to what they say, seen from
// outside through the RM: its RPC protocols and its REST API. One cluster
// of its own (the controls disrupt it), the controls in sequence.
//
// Its name puts it in the Makefile's YARN_SUITE, so it runs on 3.4 and 3.3
// too: the Hadoop APIs the harness calls are the same on every line, but
// the web routing it repairs (WebAppRouting) is not. On 3.3 an RM or
// NodeManager started or stopped later leaves the RM's REST API answering
// 404 unless the harness routes the new web app again, and only a test on
// 3.3 or 3.4 sees that.
func TestMiniclusterFaultControls(t *testing.T) {
	dir := t.TempDir()
	env := scriptEnv(t, "NODEMANAGERS=2", "PREEMPTION=1")
	startOrFail(t, dir, env)
	c, err := testcluster.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rm := applicationClient(t, c)

	// PREEMPTION=1: an application in default takes the whole cluster
	// (two nodes of 8 GB), one in high asks for its half; the monitor
	// preempts default's containers and high gets them.
	low := registerUnmanaged(ctx, t, c, rm, "spindle-faults-low", "default")
	high := registerUnmanaged(ctx, t, c, rm, "spindle-faults-high", "high")
	held := 0
	for asks := low.asks(4, 4096, nil); held < 4; asks = nil {
		held += len(low.heartbeat(ctx, t, asks).GetAllocatedContainers())
		if held < 4 {
			wait(ctx, t, "default's application to hold the whole cluster")
		}
	}
	// The monitor runs every second and kills after 5 s: a minute is ample.
	pctx, pcancel := context.WithTimeout(ctx, time.Minute)
	defer pcancel()
	warned, preempted, got := 0, 0, 0
	for asks := high.asks(2, 4096, nil); got < 2 || preempted == 0; asks = nil {
		r := low.heartbeat(ctx, t, nil)
		warned += len(r.GetPreempt().GetContract().GetContainer()) + len(r.GetPreempt().GetStrictContract().GetContainer())
		for _, s := range r.GetCompletedContainerStatuses() {
			if s.GetExitStatus() == -102 { // ContainerExitStatus.PREEMPTED
				preempted++
			}
		}
		got += len(high.heartbeat(ctx, t, asks).GetAllocatedContainers())
		if got < 2 || preempted == 0 {
			wait(pctx, t, fmt.Sprintf("preemption: high's containers taken from default (%d in PreemptionMessages, %d preempted, high got %d of 2)", warned, preempted, got))
		}
	}
	if warned == 0 {
		t.Errorf("default's application lost %d containers to preemption without a PreemptionMessage first", preempted)
	}
	t.Logf("preemption: %d container(s) in PreemptionMessages, %d preempted (-102), high got %d", warned, preempted, got)

	// restart-rm: the RM comes back with both applications, under the
	// same attempts (ACCEPTED, "Attempt recovered after RM restart", until
	// their AMs register again), and tells their AMs to register again;
	// then they are RUNNING. An RM that forgot them would answer 404.
	c.RestartRM(t)
	for _, am := range []*unmanagedAM{low, high} {
		id := yarn.ApplicationID(am.app)
		if app, err := rmApp(t, c, id); err != nil || (app.State != "ACCEPTED" && app.State != "RUNNING") {
			t.Fatalf("after restart-rm the RM reports %s as %+v (%v), want it recovered, ACCEPTED or RUNNING", id, app, err)
		}
		am.reregister(ctx, t)
		if app, err := rmApp(t, c, id); err != nil || app.State != "RUNNING" {
			t.Fatalf("after its AM registered again the RM reports %s as %+v (%v), want it RUNNING", id, app, err)
		}
	}
	low.finish(ctx, t)

	// stop-nm, start-nm, decommission: node states in the RM's REST API,
	// and what a running AM (high's) is told in allocate's updated_nodes.
	out := c.StopNM(t, 1)
	stopped := between(t, out, "(node ", ")")
	if s := nodeStates(t, c)[stopped]; s != "SHUTDOWN" {
		t.Fatalf("after stop-nm 1 the RM has %s %s, want SHUTDOWN", stopped, s)
	}
	fresh := c.StartNM(t, 1)
	states := nodeStates(t, c)
	if fresh == stopped || states[fresh] != "RUNNING" {
		t.Fatalf("after start-nm 1 the RM has nodes %v; want a new node %s RUNNING (the stopped one was %s)", states, fresh, stopped)
	}
	c.Decommission(t, 1, 3*time.Second)
	if s := nodeStates(t, c)[fresh]; s != "DECOMMISSIONING" && s != "DECOMMISSIONED" {
		t.Fatalf("after decommission 1 the RM has %s %s, want DECOMMISSIONING", fresh, s)
	}
	told := false
	for !told || nodeStates(t, c)[fresh] != "DECOMMISSIONED" {
		for _, n := range high.heartbeat(ctx, t, nil).GetUpdatedNodes() {
			if nodeAddr(n.GetNodeId()) == fresh && n.GetNodeState() == hadoopyarn.NodeStateProto_NS_DECOMMISSIONING {
				told = true
				if n.GetDecommissioningTimeout() != 3 {
					t.Errorf("the AM was told %s is DECOMMISSIONING with timeout %d s, want 3", fresh, n.GetDecommissioningTimeout())
				}
			}
		}
		wait(ctx, t, fmt.Sprintf("node %s DECOMMISSIONED (timeout 3 s), the AM told it was DECOMMISSIONING (told: %v)", fresh, told))
	}
	high.finish(ctx, t)

	// Bad input: a clear error and a non-zero exit.
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"stop-nm", "7"}, "no NodeManager 7"},
		{[]string{"start-nm", "0"}, "NodeManager 0 is running"},
		{[]string{"decommission", "0", "soon"}, "TIMEOUT_S soon"},
		{[]string{"failover-rm"}, "HA pair"},
	} {
		if out, err := c.Control(bad.args[0], bad.args[1:]...); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("minicluster.sh %v: %v, %q; want an error saying %q", bad.args, err, out, bad.want)
		}
	}
	script(t, env, "stop", dir)
	if _, err := c.Control("restart-rm"); err == nil || !strings.Contains(err.Error(), "no mini cluster is running") {
		t.Errorf("restart-rm on a stopped cluster: %v; want an error saying no cluster is running", err)
	}
}

// nodeStates reads every node's state, inactive ones included, from the
// RM's REST API.
func nodeStates(t *testing.T, c *testcluster.Cluster) map[string]string {
	t.Helper()
	states := map[string]string{}
	for _, n := range clusterNodes(t, c) {
		states[n.ID] = n.State
	}
	return states
}

// TestMiniclusterRMFailover holds RMS=2 and failover-rm to what they
// say: rm0 active and rm1 standby, then the other way round, in each RM's
// REST API; an application and its AM carry on through the failover with
// Spindle's YARN client, which finds the active RM from the HA
// configuration in yarn-site.xml. A cluster of its own, one NodeManager;
// in YARN_SUITE, as TestMiniclusterFaultControls is.
func TestMiniclusterRMFailover(t *testing.T) {
	dir := t.TempDir()
	env := scriptEnv(t, "RMS=2")
	startOrFail(t, dir, env)
	c, err := testcluster.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.RMWebAddresses) != 2 {
		t.Fatalf("cluster.env names RM web addresses %v, want two", c.RMWebAddresses)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if got := haStates(t, c); got != "ACTIVE STANDBY" {
		t.Fatalf("after start the RMs are %s, want ACTIVE STANDBY", got)
	}
	rm := applicationClient(t, c) // both RMs' addresses, from yarn-site.xml
	am := registerUnmanaged(ctx, t, c, rm, "spindle-faults-failover", "default")

	// rm1 has been standby since the start: its ports are held. (Once
	// rm0 has gone standby, its connections' TIME_WAIT may keep its ports
	// from being held: StandbyPorts.)
	standbyPortsAreHeld(t, c.RMAddresses[1], c.RMSchedulerAddresses[1])
	for _, want := range []string{"STANDBY ACTIVE", "ACTIVE STANDBY"} {
		c.FailoverRM(t)
		if got := haStates(t, c); got != want {
			t.Fatalf("after failover-rm the RMs are %s, want %s", got, want)
		}
		id := yarn.ApplicationID(am.app)
		r, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: am.app})
		if err != nil {
			t.Fatalf("getApplicationReport for %s after failover-rm: %v", id, err)
		}
		if s := r.GetApplicationReport().GetYarnApplicationState(); s != hadoopyarn.YarnApplicationStateProto_ACCEPTED && s != hadoopyarn.YarnApplicationStateProto_RUNNING {
			t.Fatalf("after failover-rm the new active RM reports %s %v, want it recovered, ACCEPTED or RUNNING", id, s)
		}
		am.reregister(ctx, t)
	}
	am.finish(ctx, t)

	if _, err := c.Control("restart-rm"); err == nil || !strings.Contains(err.Error(), "failover-rm") {
		t.Errorf("restart-rm on an HA pair: %v; want an error pointing at failover-rm", err)
	}
}

// standbyPortsAreHeld fails unless the standby RM's addresses, which it
// binds only when it becomes active, are held by the harness meanwhile:
// another cluster choosing free ports could take one, and the failover
// would fail with "Address already in use".
func standbyPortsAreHeld(t *testing.T, addrs ...string) {
	t.Helper()
	for _, addr := range addrs {
		if l, err := net.Listen("tcp", addr); err == nil {
			l.Close()
			t.Fatalf("the standby RM's address %s was free to take", addr)
		}
	}
}
