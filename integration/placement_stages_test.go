package integration

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// In one job, each stage's own executors (issue 34): a gang stage placed
// maxPerNode=1 runs its 2 executors of 1 GPU on 2 nodes, a CPU stage
// placed pack runs its 2 executors on one node, a stage asking fpga: 2
// (no executor key names FPGAs) runs in containers the RM records with 2
// yarn.io/fpga, its task seeing 2 FPGA addresses, and a stage of a node
// label beside its placement runs on the labelled node alone (the label
// goes in its constraint as the node partition: the placement processor
// puts an unlabelled SchedulingRequest on any node). Each is read from
// the RM's records of the containers while the job runs, told apart by
// what they hold (the gang's a GPU, the FPGA stage's FPGAs, the labelled
// stage's 768 MiB, the loading stage's none of these). The unconstrained
// FPGA stage's ResourceRequests go beside the others' SchedulingRequests.
func TestPlacementPackedStageBesideSpreadGangAndFPGAStage(t *testing.T) {
	c := placementCluster(t)
	if c.FPGAsPerNode < 2 {
		t.Fatalf("nodes of %d FPGAs; the test asks 2 per executor (FPGAS_PER_NODE)", c.FPGAsPerNode)
	}
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: stages-placed
stages:
  - {name: gang, tasks: 2, gang: true, resources: {cpus: 1, gpus: 1}, placement: {maxPerNode: 1}, command: "sleep 6"}
  - {name: load, tasks: 2, resources: {cpus: 1}, placement: pack, command: "sleep 6"}
  - {name: fpga, tasks: 1, resources: {cpus: 1, fpga: 2}, command: "echo $SPINDLE_FPGA_ADDRESSES > %s/fpga; sleep 3"}
  - {name: labelled, tasks: 2, resources: {cpus: 1, memory: 768m}, nodeLabel: gpu-a100, placement: {maxPerNode: 2}, command: "sleep 3"}
`, dir))
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=2", "--conf", "spindle.executor.cores=1",
		"--conf", "spindle.executor.memory=512m", spec)
	gang, load, labelled, fpga := map[string]string{}, map[string]string{}, map[string]string{}, map[string]int{}
	whileSubmitRuns(t, c, cmd, buf, "submit", func(ct container) {
		switch {
		case ct.GPUs > 0:
			gang[ct.ID] = ct.Node
		case ct.FPGAs > 0:
			fpga[ct.ID] = ct.FPGAs
		case ct.MemoryMB == 768:
			labelled[ct.ID] = ct.Node
		default:
			load[ct.ID] = ct.Node
		}
	})
	distinct := func(nodes map[string]string) int {
		seen := map[string]bool{}
		for _, n := range nodes {
			seen[n] = true
		}
		return len(seen)
	}
	if len(gang) != 2 || distinct(gang) != 2 {
		t.Errorf("the gang stage, maxPerNode=1: the RM ran its executors on %v, want 2 containers on 2 nodes", gang)
	}
	if len(load) != 2 || distinct(load) != 1 {
		t.Errorf("the loading stage, pack: the RM ran its executors on %v, want 2 containers on 1 node", load)
	}
	if len(fpga) == 0 {
		t.Errorf("the FPGA stage: no container with FPGAs in the RM's records")
	}
	for id, n := range fpga {
		if n != 2 {
			t.Errorf("the FPGA stage's container %s holds %d yarn.io/fpga, want 2", id, n)
		}
	}
	labelNode := nodeWhere(t, c, "labelled gpu-a100", func(n *hadoopyarn.NodeReportProto) bool { return slices.Contains(n.GetNodeLabels(), "gpu-a100") })
	for id, n := range labelled {
		if n != labelNode {
			t.Errorf("the labelled stage's container %s ran on %s, not the labelled node %s", id, n, labelNode)
		}
	}
	if len(labelled) == 0 {
		t.Errorf("the labelled stage: no container of 768 MiB in the RM's records")
	}
	if got := readLines(t, filepath.Join(dir, "fpga")); len(got) != 1 || len(got[0]) != 1 || got[0][0] != "0,1" {
		t.Errorf("the FPGA task saw SPINDLE_FPGA_ADDRESSES %q, want its node's two, 0,1", got)
	}
}
