package am

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

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
	why := rejectedPlacement([]*hadoopyarn.RejectedSchedulingRequestProto{{Reason: hadoopyarn.RejectionReasonProto_RRP_COULD_NOT_PLACE_ON_NODE.Enum(), Request: sr}}, map[string]yarn.Placement{"spindle-executor-2": place})
	for _, want := range []string{"ask 2 for 3 executor(s) tagged spindle-executor-2", "no node satisfies placement=pack", "no more may be asked than that node has room for"} {
		if !strings.Contains(why, want) {
			t.Errorf("rejected: %q does not say %q", why, want)
		}
	}
}

// A profile whose stages name a placement asks under it, not the
// application's (whose node attributes it keeps); a profile naming none
// asks under the application's, as a ResourceRequest when that asks
// nothing. A node label beside constraints goes in them as the node
// partition; alone, it asks nothing of placement.
func TestProfilePlacementWinsOverTheApplications(t *testing.T) {
	attrs, err := yarn.ParseNodeAttributes("gpu_type=A100")
	if err != nil {
		t.Fatal(err)
	}
	r := newRMState(&YARN{NodeLabel: "app-label", Placement: yarn.Placement{Affinity: yarn.AffinityPack, Attributes: attrs}})
	gang := scheduler.Profile{ID: 1, Placement: scheduler.Placement{MaxPerNode: 1}}
	got := r.placementOf(gang)
	if got.Affinity != yarn.AffinityNone || got.MaxPerNode != 1 || len(got.Attributes) != 1 || got.Partition != "app-label" {
		t.Errorf("a profile placed maxPerNode=1: %+v, want its bound, no pack, the application's attribute and label", got)
	}
	if got := r.placementOf(scheduler.Profile{ID: 2}); got.Affinity != yarn.AffinityPack {
		t.Errorf("a profile of no placement: %+v, want the application's pack", got)
	}
	plain := newRMState(&YARN{})
	if got := plain.placementOf(scheduler.Profile{ID: 3, NodeLabel: "gpu-t4"}); got.Constrained() || got.Partition != "gpu-t4" {
		t.Errorf("a labelled profile in an application of no placement: %+v, want no constraint (a ResourceRequest)", got)
	}
	spread := plain.placementOf(scheduler.Profile{ID: 4, NodeLabel: "gpu-t4", Placement: scheduler.Placement{Affinity: scheduler.Spread}})
	targets := schedulingRequest(core.Ask{ID: 1, Profile: scheduler.Profile{ID: 4}, Count: 2}, spread, nil).GetPlacementConstraint().GetSimpleConstraint().GetTargetExpressions()
	if len(targets) != 2 || targets[1].GetTargetKey() != "yarn_node_partition/" || targets[1].GetTargetValues()[0] != "gpu-t4" {
		t.Errorf("spread on nodes labelled gpu-t4: targets %v, want the tag's and the partition's", targets)
	}
	why := rejectedPlacement([]*hadoopyarn.RejectedSchedulingRequestProto{{Reason: hadoopyarn.RejectionReasonProto_RRP_COULD_NOT_PLACE_ON_NODE.Enum(),
		Request: &hadoopyarn.SchedulingRequestProto{AllocationTags: []string{"spindle-executor-4"}}}}, map[string]yarn.Placement{"spindle-executor-4": spread})
	if !strings.Contains(why, "no node satisfies placement=spread, nodeLabel=gpu-t4") {
		t.Errorf("rejected: %q does not name the stage's placement and label", why)
	}
}
