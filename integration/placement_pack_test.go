package integration

import (
	"testing"
	"time"
)

// placement=pack puts a profile's executors on one node: 3 executors of
// 1 GPU on a cluster of 2 nodes × 4 GPUs all run on the node of the first
// (the RM's view of their containers), where the placement processor
// left to itself spreads them over both (TestPlacementMaxPerNode... says
// so, and this test fails so with the anchor-then-near asks switched off).
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
}
