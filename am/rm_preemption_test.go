package am

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

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
