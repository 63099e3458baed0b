package integration

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// maxPerNode=1 with 2 executors: the RM places them on 2 different nodes,
// though either node has the GPUs for both. With 3 on these 2 nodes the
// third cannot be placed: the RM rejects it, and the application fails
// at once naming the reason, having run 2 executors on 2 nodes (the
// placement processor spreads unconstrained asks over nodes by itself:
// this is what shows the limit held).
func TestPlacementMaxPerNodeSpreadsExecutors(t *testing.T) {
	c := placementCluster(t)
	nodes := executorNodes(t, c, 2, "spindle.yarn.executor.maxPerNode=1")
	distinct := map[string]bool{}
	for _, n := range nodes {
		distinct[n] = true
	}
	if len(nodes) != 2 || len(distinct) != 2 {
		t.Fatalf("maxPerNode=1: the RM ran the executors on %v, want 2 containers on 2 nodes", nodes)
	}

	start := time.Now()
	spec := writeSpec(t, "name: over\nstages:\n  - {name: s, tasks: 3, resources: {cpus: 1, gpus: 1}, command: \"sleep 4\"}\n")
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.cores=1", "--conf", "spindle.executor.resource.gpu.amount=1",
		"--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.instances=3", "--conf", "spindle.yarn.executor.maxPerNode=1", spec)
	if err == nil {
		t.Fatalf("3 executors at most 1 a node on 2 nodes: the job succeeded\n%s", o)
	}
	for _, want := range []string{"rejected the executors' placement", "RRP_COULD_NOT_PLACE_ON_NODE", "maxPerNode=1"} {
		if !strings.Contains(o, want) {
			t.Errorf("the failure does not say %q:\n%s", want, o)
		}
	}
	t.Logf("3 executors refused in %v", time.Since(start).Round(time.Second))
	if m := submittedID.FindStringSubmatch(o); m != nil {
		if got := auditedContainers(t, c, m[1]); len(got) > 2 {
			t.Errorf("the RM allocated %d executor containers, want at most 2 (one a node): %v", len(got), got)
		}
	}
}

// A node attribute expression that matches one node puts every executor
// there.
func TestPlacementNodeAttributesPinExecutors(t *testing.T) {
	c := placementCluster(t)
	// YARN keys attributes by host, and reports them so (NodeReport's
	// node_attributes); here every NodeManager shares one host, so the
	// harness set them by node id: NodeManager 1's is the A100 node.
	a100 := c.NodeIDs[1]
	nodes := executorNodes(t, c, 2, "spindle.yarn.executor.nodeAttributes=gpu_type=A100")
	for id, n := range nodes {
		if n != a100 {
			t.Errorf("executor container %s ran on %s, not the A100 node %s", id, n, a100)
		}
	}
	if len(nodes) != 2 {
		t.Errorf("executors: %v, want 2", nodes)
	}
}

// Executors asked with a node label run only on the labelled node: by
// the application's key, and by a stage's own nodeLabel (its executors a
// profile of their own, the only one started).
func TestPlacementNodeLabelRunsOnTheLabelledNode(t *testing.T) {
	c := placementCluster(t)
	labelled := nodeWhere(t, c, "labelled gpu-a100", func(n *hadoopyarn.NodeReportProto) bool { return slices.Contains(n.GetNodeLabels(), "gpu-a100") })
	for _, how := range []struct{ name, stage, conf string }{
		{"application", "", "spindle.yarn.executor.nodeLabelExpression=gpu-a100"},
		{"stage", ", nodeLabel: gpu-a100", "spindle.executor.memory=512m"},
	} {
		t.Run(how.name, func(t *testing.T) {
			nodes := executorNodesOf(t, c, 2, how.stage, how.conf)
			for id, n := range nodes {
				if n != labelled {
					t.Errorf("executor container %s ran on %s, not the labelled node %s", id, n, labelled)
				}
			}
			if len(nodes) != 2 {
				t.Errorf("executors: %v, want 2", nodes)
			}
		})
	}
}

// On a cluster whose RM has no placement handler (YARN's default, the
// default test cluster's), submit refuses placement keys at once, naming
// the keys and the settings that would work, before anything runs.
func TestPlacementRefusedWhereTheClusterDisablesIt(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: refused\nstages:\n  - {name: s, tasks: 1, builtin: noop}\n")
	start := time.Now()
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.yarn.executor.maxPerNode=1", spec)
	var exit *exec.ExitError
	if err == nil || !errors.As(err, &exit) {
		t.Fatalf("submitted with maxPerNode on a cluster without a placement handler: %v\n%s", err, o)
	}
	for _, want := range []string{"spindle.yarn.executor.maxPerNode", "placement-constraints.handler is disabled", "placement-processor or scheduler"} {
		if !strings.Contains(o, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, o)
		}
	}
	if submittedID.MatchString(o) {
		t.Errorf("an application was submitted:\n%s", o)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("refusing took %v", d)
	}
}
