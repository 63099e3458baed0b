package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// Helpers: the placement tests' cluster, where a job's executors ran
// on it, and which node the RM says matches.

// placementCluster is the one cluster every placement test shares (each
// extra cluster costs CI about a minute): the placement processor on, NM 0
// a "T4" node and NM 1 an "A100" one by centralized node attributes, and
// NM 1 labelled gpu-a100 (exclusive), a label the default queue may use.
// The label makes the attribute test bite: plain ResourceRequests, with
// no label, can never reach NM 1, while the placement processor places
// SchedulingRequests by their constraints alone.
func placementCluster(t *testing.T) *testcluster.Cluster {
	t.Helper()
	return testcluster.GetWith(t, testcluster.Config{Placement: testcluster.Placement{
		Handler:        "processor",
		NodeAttributes: "0:gpu_type=T4,1:gpu_type=A100",
		NodeLabels:     "1:gpu-a100",
	}})
}

// executorNodes submits spec with conf on c and, while it runs, reads from
// the RM's REST API the node of each executor container it allocated (the
// AM's, the attempt's first, left out) until it has want of them; then it
// waits for the job to succeed.
func executorNodes(t *testing.T, c *testcluster.Cluster, want int, conf ...string) map[string]string {
	t.Helper()
	return executorNodesOf(t, c, want, "", conf...)
}

// executorNodesOf is executorNodes with more of the stage's spec (", key:
// value").
func executorNodesOf(t *testing.T, c *testcluster.Cluster, want int, stage string, conf ...string) map[string]string {
	t.Helper()
	spec := writeSpec(t, fmt.Sprintf("name: placed\nstages:\n  - {name: s, tasks: %d, resources: {cpus: 1, gpus: 1}, command: \"sleep 4\"%s}\n", want, stage))
	args := []string{"submit", "--master", "yarn", "--conf", "spindle.executor.cores=1", "--conf", "spindle.executor.resource.gpu.amount=1",
		"--conf", "spindle.executor.memory=512m", "--conf", fmt.Sprintf("spindle.executor.instances=%d", want)}
	for _, kv := range conf {
		args = append(args, "--conf", kv)
	}
	cmd, out := startOn(t, c, append(args, spec)...)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	})
	var app string
	for deadline := time.Now().Add(60 * time.Second); app == ""; time.Sleep(200 * time.Millisecond) {
		if m := submittedID.FindStringSubmatch(out.String()); m != nil {
			app = m[1]
		} else if len(done) > 0 || time.Now().After(deadline) {
			t.Fatalf("no application submitted:\n%s", out.String())
		}
	}
	nodes := map[string]string{}
	waitFor(t, 60*time.Second, fmt.Sprintf("%d executor containers of %s in the RM's view", want, app), func() bool {
		for _, ct := range appContainers(t, c, app) {
			if !strings.HasSuffix(ct.ID, "_000001") {
				nodes[ct.ID] = ct.Node
			}
		}
		return len(nodes) >= want
	})
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the job failed: %v\n%s", err, out.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the job did not end:\n%s", out.String())
	}
	return nodes
}

// nodeWhere is the id (host:port) of the one node the RM reports as
// matching: its own view of labels and attributes, not the harness's word.
func nodeWhere(t *testing.T, c *testcluster.Cluster, what string, match func(*hadoopyarn.NodeReportProto) bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	nodes, err := applicationClient(t, c).GetClusterNodes(ctx, &hadoopyarn.GetClusterNodesRequestProto{})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, n := range nodes.GetNodeReports() {
		if match(n) {
			found = append(found, fmt.Sprintf("%s:%d", n.GetNodeId().GetHost(), n.GetNodeId().GetPort()))
		}
	}
	if len(found) != 1 {
		t.Fatalf("the RM reports %d nodes %s (%v), want 1: %v", len(found), what, found, nodes.GetNodeReports())
	}
	return found[0]
}
