package am

import (
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

func containerIDProto(n int64) *hadoopyarn.ContainerIdProto {
	return &hadoopyarn.ContainerIdProto{Id: proto.Int64(n), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(1),
		ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795251528476), Id: proto.Int32(3)}}}
}

func preemptionContainers(ns ...int64) []*hadoopyarn.PreemptionContainerProto {
	var out []*hadoopyarn.PreemptionContainerProto
	for _, n := range ns {
		out = append(out, &hadoopyarn.PreemptionContainerProto{Id: containerIDProto(n)})
	}
	return out
}

// A PreemptionMessage's containers are read from both its contracts, the
// strict one's first, each container once; no message names none.
func TestPreemptedContainersReadBothContracts(t *testing.T) {
	m := &hadoopyarn.PreemptionMessageProto{
		StrictContract: &hadoopyarn.StrictPreemptionContractProto{Container: preemptionContainers(4)},
		Contract:       &hadoopyarn.PreemptionContractProto{Container: preemptionContainers(2, 4, 3)},
	}
	want := []string{"container_1795251528476_0003_01_000004", "container_1795251528476_0003_01_000002", "container_1795251528476_0003_01_000003"}
	if got := preemptedContainers(m); !slices.Equal(got, want) {
		t.Errorf("preemptedContainers = %q, want %q", got, want)
	}
	// The CapacityScheduler's: the negotiable contract alone.
	negotiable := &hadoopyarn.PreemptionMessageProto{Contract: &hadoopyarn.PreemptionContractProto{Container: preemptionContainers(2)}}
	if got := preemptedContainers(negotiable); !slices.Equal(got, want[1:2]) {
		t.Errorf("the negotiable contract alone: %q, want %q", got, want[1:2])
	}
	if got := preemptedContainers(nil); got != nil {
		t.Errorf("no message: %q", got)
	}
}

// updated_nodes reach the core as the blacklist names nodes, with a
// decommissioning node's timeout in seconds; a state the core does not
// know is NodeOther.
func TestNodeUpdatesAsTheCoreTakesThem(t *testing.T) {
	report := func(port int32, st hadoopyarn.NodeStateProto, timeout uint32) *hadoopyarn.NodeReportProto {
		r := &hadoopyarn.NodeReportProto{NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("nm1"), Port: proto.Int32(port)}, NodeState: st.Enum()}
		if timeout > 0 {
			r.DecommissioningTimeout = proto.Uint32(timeout)
		}
		return r
	}
	reports := []*hadoopyarn.NodeReportProto{
		report(8041, hadoopyarn.NodeStateProto_NS_DECOMMISSIONING, 30),
		report(8042, hadoopyarn.NodeStateProto_NS_RUNNING, 0),
		report(8043, hadoopyarn.NodeStateProto_NS_REBOOTED, 0),
		report(8044, hadoopyarn.NodeStateProto_NS_LOST, 0),
	}
	var got []core.NodeUpdate
	for _, r := range reports {
		got = append(got, updatedNode(r, true))
	}
	want := []core.NodeUpdate{
		{Node: "nm1:8041", NodeName: "nm1:8041", State: core.NodeDecommissioning, DecommissionTimeout: 30 * time.Second},
		{Node: "nm1:8042", NodeName: "nm1:8042", State: core.NodeRunning},
		{Node: "nm1:8043", NodeName: "nm1:8043", State: core.NodeOther},
		{Node: "nm1:8044", NodeName: "nm1:8044", State: core.NodeLost},
	}
	if !slices.Equal(got, want) {
		t.Errorf("nodeUpdates =\n%+v\nwant\n%+v", got, want)
	}
	if got := updatedNode(reports[0], false); got.NodeName != "nm1" || got.Node != "nm1:8041" {
		t.Errorf("without ports in node names: %+v, want the host as its name", got)
	}
}
