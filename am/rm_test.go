package am

import (
	"fmt"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Each profile's asks go to YARN at a priority of the profile's own, each
// ask under its own allocation request id, with the profile's capability,
// GPUs only where it has them, and the node label; the container the RM
// allocates for an id comes back to the core with that id, named as the
// blacklist takes its node.
func TestAsksAndContainersKeepProfilesApart(t *testing.T) {
	profiles := []scheduler.Profile{{ID: 0, Cores: 1, MemoryMB: 512}, {ID: 1, Cores: 4, MemoryMB: 4096, GPUs: 2}}
	priorities := map[int32]bool{}
	for i, p := range profiles {
		id := int64(7 + i)
		rr := resourceRequest(core.Ask{ID: id, Profile: p, Count: 3}, "gpu", nil)
		if rr.GetAllocationRequestId() != id {
			t.Errorf("ask %d goes out with allocation request id %d", id, rr.GetAllocationRequestId())
		}
		prio := rr.GetPriority().GetPriority()
		if priorities[prio] || prio < 1 {
			t.Errorf("profile %d asks at priority %d: want one of its own, above the AM's 0", p.ID, prio)
		}
		priorities[prio] = true
		c := rr.GetCapability()
		if c.GetMemory() != p.MemoryMB || c.GetVirtualCores() != int32(p.Cores) || yarn.ResourceValue(c, yarn.GPU) != int64(p.GPUs) ||
			rr.GetNumContainers() != 3 || rr.GetResourceName() != "*" || rr.GetNodeLabelExpression() != "gpu" {
			t.Errorf("profile %+v asks %v", p, rr)
		}
		if hasGPU := slices.ContainsFunc(c.GetResourceValueMap(), func(e *hadoopyarn.ResourceInformationProto) bool { return e.GetKey() == yarn.GPU }); hasGPU != (p.GPUs > 0) {
			t.Errorf("profile %d (%d GPUs) names %s in its capability: %v", p.ID, p.GPUs, yarn.GPU, hasGPU)
		}
		ct := &hadoopyarn.ContainerProto{Id: containerID(5), NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("n1"), Port: proto.Int32(8041)}, AllocationRequestId: proto.Int64(id)}
		for _, portInName := range []bool{false, true} {
			got := allocatedContainer(ct, portInName)
			want := core.Container{ID: "container_1_0001_01_000005", Node: "n1:8041", NodeName: "n1", Ask: id}
			if portInName {
				want.NodeName = "n1:8041"
			}
			if got != want {
				t.Errorf("ask %d's container (port in node name %v) reaches the core as %+v, want %+v", id, portInName, got, want)
			}
		}
	}
	if rr := resourceRequest(core.Ask{ID: 1, Profile: profiles[0], Count: 1}, "", nil); rr.NodeLabelExpression != nil {
		t.Errorf("with no label the ask sets one: %q", rr.GetNodeLabelExpression())
	}
	stray := allocatedContainer(&hadoopyarn.ContainerProto{Id: containerID(6), NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("n1"), Port: proto.Int32(1)}}, false)
	if stray.Ask >= 1 { // the core's ask ids start at 1
		t.Errorf("a container with no allocation request id reaches the core as ask %d's", stray.Ask)
	}
}

// containerID is container n of application 1_0001's first attempt.
func containerID(n int64) *hadoopyarn.ContainerIdProto {
	return &hadoopyarn.ContainerIdProto{Id: proto.Int64(n), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(1),
		ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1), Id: proto.Int32(1)}}}
}

// A profile's accelerators are asked as their YARN resource types,
// beside its GPUs.
func TestAsksCarryAcceleratorsAsTheirResourceTypes(t *testing.T) {
	accels, err := scheduler.NewAccelerators(map[string]int{"fpga": 2, "tpu": 1})
	if err != nil {
		t.Fatal(err)
	}
	p := scheduler.Profile{ID: 0, Cores: 1, MemoryMB: 512, GPUs: 1, Accels: accels}
	types := map[string]string{"fpga": "yarn.io/fpga", "tpu": "example.com/tpu"}
	ask := core.Ask{ID: 1, Profile: p, Count: 1}
	spread := yarn.Placement{MaxPerNode: 1}
	for name, c := range map[string]*hadoopyarn.ResourceProto{
		"ResourceRequest":   resourceRequest(ask, "", types).GetCapability(),
		"SchedulingRequest": schedulingRequest(ask, spread, types).GetResourceSizing().GetResources(),
	} {
		var got []string
		for _, e := range c.GetResourceValueMap() {
			got = append(got, fmt.Sprintf("%s=%d", e.GetKey(), e.GetValue()))
		}
		if want := []string{"example.com/tpu=1", "yarn.io/fpga=2", "yarn.io/gpu=1"}; !slices.Equal(got, want) {
			t.Errorf("%s: capability's resources %q, want %q", name, got, want)
		}
	}
}
