package integration

import (
	"strings"
	"testing"
	"time"
)

// placement=pack puts a profile's executors on one node: 3 executors of
// 1 GPU on a cluster of 2 nodes × 4 GPUs all run on the node of the first
// (the RM's view of their containers), where the placement processor
// left to itself spreads them over both (TestPlacementMaxPerNode... says
// so, and this test fails so with the anchor-then-near asks switched off).
// Pack is a requirement: 5 such executors, one more than a node's GPUs,
// fail the application at once, naming pack and its reason, rather than
// put the fifth on the other node.
func TestPlacementPackPutsExecutorsOnOneNode(t *testing.T) {
	c := placementCluster(t)
	start := time.Now()
	nodes := executorNodes(t, c, 3, "spindle.yarn.executor.placement=pack")
	distinct := map[string]bool{}
	for _, n := range nodes {
		distinct[n] = true
	}
	if len(nodes) != 3 || len(distinct) != 1 {
		t.Fatalf("placement=pack: the RM ran the executors on %v, want 3 containers on 1 node", nodes)
	}
	t.Logf("3 executors packed on %v in %v", distinct, time.Since(start).Round(time.Second))

	start = time.Now()
	spec := writeSpec(t, "name: overpacked\nstages:\n  - {name: s, tasks: 5, resources: {cpus: 1, gpus: 1}, command: \"sleep 4\"}\n")
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.cores=1", "--conf", "spindle.executor.resource.gpu.amount=1",
		"--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.instances=5", "--conf", "spindle.yarn.executor.placement=pack", spec)
	if err == nil {
		t.Fatalf("5 packed executors of 1 GPU on nodes of 4: the job succeeded\n%s", o)
	}
	for _, want := range []string{"rejected the executors' placement", "RRP_COULD_NOT_PLACE_ON_NODE", "placement=pack puts every executor of a shape on the node of the first"} {
		if !strings.Contains(o, want) {
			t.Errorf("the failure does not say %q:\n%s", want, o)
		}
	}
	if m := submittedID.FindStringSubmatch(o); m != nil {
		if got := auditedContainers(t, c, m[1]); len(got) > 4 {
			t.Errorf("overpacked: the RM allocated %d executor containers, want at most one node's 4: %v", len(got), got)
		}
	}
	t.Logf("5 packed executors refused in %v", time.Since(start).Round(time.Second))
}
