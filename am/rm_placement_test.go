package am

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// With placement constraints the executors are asked for as
// SchedulingRequests only (never beside ResourceRequests in one
// allocate), tagged by profile, under the ask table's allocation request
// ids, with the profile's size; when the RM's placement handler rejects
// them, the application fails naming the reason and what was asked.
func TestPlacementAsksGoAsSchedulingRequests(t *testing.T) {
	place := yarn.Placement{MaxPerNode: 1, Attributes: []yarn.AttributeTerm{{Name: "rm.yarn.io/gpu_type", Value: "A100"}}}
	f := &fakeRM{respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		if n == 2 && len(req.GetSchedulingRequests()) == 0 {
			// the first allocate's asks, rejected a little later
			return &hadoopyarn.AllocateResponseProto{RejectedSchedulingRequests: []*hadoopyarn.RejectedSchedulingRequestProto{{
				Reason:  hadoopyarn.RejectionReasonProto_RRP_COULD_NOT_PLACE_ON_NODE.Enum(),
				Request: yarn.SchedulingRequest(1, 1, 3, yarn.NewResource(512, 2, nil), executorTag(0), place.Constraint(executorTag(0))),
			}}}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	var err error
	select {
	case err = <-startYarnDriver(t, f, func(y *YARN) { y.Placement = place; y.NodeLabel = "ignored" }):
	case <-time.After(10 * time.Second):
		t.Fatal("the application did not end on a rejected placement")
	}
	for _, want := range []string{"rejected the executors' placement", "RRP_COULD_NOT_PLACE_ON_NODE", "ask 1 for 3 executor(s) tagged spindle-executor-0", "maxPerNode=1, rm.yarn.io/gpu_type=A100"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("Run ended with %v, want a failure saying %q", err, want)
		}
	}
	reqs := f.requests()
	first := reqs[0]
	if len(first.GetAsk()) != 0 || len(first.GetSchedulingRequests()) != 1 {
		t.Fatalf("first allocate: %d ResourceRequests, %d SchedulingRequests; want only one SchedulingRequest", len(first.GetAsk()), len(first.GetSchedulingRequests()))
	}
	sr := first.GetSchedulingRequests()[0]
	size := sr.GetResourceSizing()
	if sr.GetAllocationRequestId() != 1 || sr.GetPriority().GetPriority() != 1 || size.GetNumAllocations() != 3 ||
		size.GetResources().GetMemory() != 512 || yarn.ResourceValue(size.GetResources(), yarn.GPU) != 1 ||
		len(sr.GetAllocationTags()) != 1 || sr.GetAllocationTags()[0] != "spindle-executor-0" {
		t.Errorf("the SchedulingRequest: %v", sr)
	}
	parts := sr.GetPlacementConstraint().GetCompositeConstraint().GetChildConstraints()
	if len(parts) != 2 || parts[0].GetSimpleConstraint().GetMaxCardinality() != 0 || parts[1].GetSimpleConstraint().GetTargetExpressions()[0].GetTargetKey() != "rm.yarn.io/gpu_type" {
		t.Errorf("its constraint: %v", sr.GetPlacementConstraint())
	}
	// The ask table's rule: an open ask is not sent again.
	for i, r := range reqs[1:] {
		if len(r.GetSchedulingRequests())+len(r.GetAsk()) != 0 {
			t.Errorf("allocate %d sends asks again: %v %v", i+1, r.GetSchedulingRequests(), r.GetAsk())
		}
	}
}

// A stage's own node label, on its profile, wins over the application's
// in the profile's ResourceRequests.
func TestStageLabelWinsInResourceRequests(t *testing.T) {
	p := scheduler.Profile{ID: 1, Cores: 1, MemoryMB: 512, NodeLabel: "gpu-t4"}
	if got := resourceRequest(core.Ask{ID: 1, Profile: p, Count: 1}, "app-label", nil).GetNodeLabelExpression(); got != "gpu-t4" {
		t.Errorf("a labelled profile asks with label %q, want its own gpu-t4", got)
	}
	p.NodeLabel = ""
	if got := resourceRequest(core.Ask{ID: 1, Profile: p, Count: 1}, "app-label", nil).GetNodeLabelExpression(); got != "app-label" {
		t.Errorf("an unlabelled profile asks with label %q, want the application's", got)
	}
}

// Packed, an ask the core marks Near goes out with node-scope affinity to
// its profile's tag (and the rest of what is asked), its anchor without;
// a rejection says what pack demands of the node.
func TestPackNearAsksCarryAffinityToTheirTag(t *testing.T) {
	place := yarn.Placement{Affinity: yarn.AffinityPack}
	p := scheduler.Profile{ID: 2, Cores: 1, MemoryMB: 512, GPUs: 1}
	if c := schedulingRequest(core.Ask{ID: 1, Profile: p, Count: 1}, place, nil).GetPlacementConstraint(); c != nil {
		t.Errorf("the anchor: %v, want no constraint", c)
	}
	sr := schedulingRequest(core.Ask{ID: 2, Profile: p, Count: 3, Near: true}, place, nil)
	s := sr.GetPlacementConstraint().GetSimpleConstraint()
	if s.GetMinCardinality() != 1 || s.GetTargetExpressions()[0].GetTargetValues()[0] != "spindle-executor-2" || sr.GetAllocationTags()[0] != "spindle-executor-2" {
		t.Errorf("near its anchor: %v, want affinity to spindle-executor-2", sr)
	}
	why := rejectedPlacement([]*hadoopyarn.RejectedSchedulingRequestProto{{Reason: hadoopyarn.RejectionReasonProto_RRP_COULD_NOT_PLACE_ON_NODE.Enum(), Request: sr}}, place)
	for _, want := range []string{"ask 2 for 3 executor(s) tagged spindle-executor-2", "no node satisfies placement=pack", "no more may be asked than that node has room for"} {
		if !strings.Contains(why, want) {
			t.Errorf("rejected: %q does not say %q", why, want)
		}
	}
}
