package am_test

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
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
	f := &amtest.FakeRM{Respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		if n == 2 && len(req.GetSchedulingRequests()) == 0 {
			// the first allocate's asks, rejected a little later
			return &hadoopyarn.AllocateResponseProto{RejectedSchedulingRequests: []*hadoopyarn.RejectedSchedulingRequestProto{{
				Reason:  hadoopyarn.RejectionReasonProto_RRP_COULD_NOT_PLACE_ON_NODE.Enum(),
				Request: yarn.SchedulingRequest(1, 1, 3, yarn.NewResource(512, 2, nil), am.ExecutorTag(0), place.Constraint(am.ExecutorTag(0))),
			}}}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	err := runOnYARN(t, f, func(y *am.YARN) { y.Placement = place; y.NodeLabel = "ignored" })
	for _, want := range []string{"rejected the executors' placement", "RRP_COULD_NOT_PLACE_ON_NODE", "ask 1 for 3 executor(s) tagged spindle-executor-0", "maxPerNode=1, rm.yarn.io/gpu_type=A100"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("Run ended with %v, want a failure saying %q", err, want)
		}
	}
	reqs := f.Requests()
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
